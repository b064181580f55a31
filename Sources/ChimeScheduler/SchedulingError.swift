import ChimeCore

/// Requests refused before anything was stored: each with the request's position and
/// identifier, and what is wrong.
public struct SchedulingError: Error, CustomStringConvertible {
    /// One reason a request is refused: its text (naming the request), which request of
    /// the batch (0-based), and the field at fault in it, when there is one.
    public struct Problem: Sendable, CustomStringConvertible {
        public var text: String
        /// Nil for a problem of no one request (the templates cannot be read), whose
        /// text names its own file.
        public var request: Int?
        /// A JSON path in the request (`content.attachments[1]`).
        public var field: String?

        public init(text: String, request: Int?, field: String?) {
            self.text = text
            self.request = request
            self.field = field
        }

        public var description: String { text }
    }

    public var each: [Problem]
    public var problems: [String] { each.map(\.text) }
    /// The field at fault in the body of the first problem that names one
    /// (`[1].recipient` in a batch), for the HTTP API's `at`.
    public var field: String?

    /// - Parameter batch: how many requests were given: in a batch of more than one, the
    ///   field is named with its request's position (`[1].recipient`).
    public init(_ each: [Problem], batch: Int) {
        self.each = each
        field = each.lazy.compactMap { problem in
            problem.field.map { field in batch > 1 ? "[\(problem.request ?? 0)].\(field)" : field }
        }.first
    }

    public var description: String { problems.joined(separator: "\n") }

    /// Each problem as a line of the command line's errors, `source:line:col: error: …`
    /// where `text` (the requests' JSON as read) has the field at fault, control
    /// characters of the requests' text escaped: `chime schedule`'s and `chime preview`'s.
    public func lines(in source: String, text: [UInt8]? = nil) -> String {
        // Those with a field to point at, located together.
        let located = each.indices.filter { each[$0].request != nil && each[$0].field != nil }
        let places = text.map { RequestDecoder.linesAndColumns(of: located.map { (each[$0].request!, each[$0].field!) }, in: $0) } ?? []
        let place = Dictionary(uniqueKeysWithValues: zip(located, places))
        return each.indices.map { index in
            let problem = each[index]
            guard problem.request != nil else { return printable(problem.text) }
            var location = SourceLocation(file: source)
            if let (line, column) = place[index] ?? nil { (location.line, location.column) = (line, column) }
            return printable("\(location): error: \(problem.text)")
        }.joined(separator: "\n")
    }
}
