import ChimeCore

/// A document that could not be read or is not valid: every problem libxml2 (or the
/// reader's own safety rules) found, each with its file, line and column.
public struct XMLError: DiagnosticError, CustomStringConvertible {
    public var diagnostics: [Diagnostic]

    public init(_ diagnostics: [Diagnostic]) {
        self.diagnostics = diagnostics
    }

    public var description: String {
        diagnostics.map(\.description).joined(separator: "\n")
    }
}
