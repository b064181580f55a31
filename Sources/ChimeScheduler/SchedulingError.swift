/// Requests refused before anything was stored: each with the request's position and
/// identifier, and what is wrong.
public struct SchedulingError: Error, CustomStringConvertible {
    public var problems: [String]

    public init(_ problems: [String]) {
        self.problems = problems
    }

    public var description: String { problems.joined(separator: "\n") }
}
