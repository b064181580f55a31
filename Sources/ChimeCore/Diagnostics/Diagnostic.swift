/// One message about an input file, printed as `path:line:col: error: message`.
public struct Diagnostic: Hashable, Sendable, CustomStringConvertible {
    public enum Severity: String, Sendable {
        case error
        case warning
    }

    public var location: SourceLocation
    public var severity: Severity
    public var message: String

    public init(_ severity: Severity = .error, at location: SourceLocation, _ message: String) {
        self.location = location
        self.severity = severity
        self.message = message
    }

    public var description: String {
        "\(location): \(severity.rawValue): \(message)"
    }
}

/// A failure that carries every diagnostic found, not only the first.
public protocol DiagnosticError: Error {
    var diagnostics: [Diagnostic] { get }
}
