import ChimeCore

/// Why a configuration could not be loaded, with every diagnostic found.
public struct ConfigurationError: DiagnosticError, CustomStringConvertible {
    public enum Kind: Sendable {
        /// The file does not exist or cannot be opened (exit 66).
        case unreadable
        /// The file is there but is not a valid configuration (exit 65).
        case invalid
    }

    public var kind: Kind
    public var diagnostics: [Diagnostic]

    public init(_ kind: Kind, _ diagnostics: [Diagnostic]) {
        self.kind = kind
        self.diagnostics = diagnostics
    }

    public var description: String {
        diagnostics.map(\.description).joined(separator: "\n")
    }
}
