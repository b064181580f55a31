import ChimeCore

/// Requests refused before anything was stored: each with the request's position and
/// identifier, and what is wrong.
public struct SchedulingError: Error, CustomStringConvertible {
    public var problems: [String]
    /// The field at fault in the body of the first problem that names one
    /// (`[1].recipient` in a batch), for the HTTP API's `at`.
    public var field: String?

    public init(_ problems: [String], field: String? = nil) {
        self.problems = problems
        self.field = field
    }

    public var description: String { problems.joined(separator: "\n") }

    /// Each problem as a line of the command line's errors, `source: error: …`, control
    /// characters of the requests' text escaped: `chime schedule`'s and `chime preview`'s.
    public func lines(in source: String) -> String {
        problems.map { printable("\(source): error: \($0)") }.joined(separator: "\n")
    }
}
