import Foundation

/// Reads the request JSON of `chime schedule --json`: one request object or an array.
public enum RequestDecoder {
    /// A request file that is not valid: where (a JSON path such as `[1].trigger.seconds`)
    /// and what is wrong.
    public struct Failure: Error, CustomStringConvertible {
        public var path: String
        public var message: String
        /// Where in the text, 1-based; 0 when unknown.
        public var line = 0
        public var column = 0
        public var description: String { path.isEmpty ? message : "at \(path): \(message)" }
        /// The coding path to look for in the text, and whether to point at its field name
        /// rather than its value; nil for a syntax error.
        var steps: (path: [JSONLocator.Step], name: Bool)?

        init(path: String, message: String, steps: (path: [JSONLocator.Step], name: Bool)?) {
            self.path = path
            self.message = message
            self.steps = steps
        }

        /// Where in `file` it is, as `file:line:col` prints it.
        public func location(in file: String) -> SourceLocation {
            SourceLocation(file: file, line: line, column: column)
        }
    }

    /// - Throws: ``Failure`` with the line and column of what is wrong: the syntax error,
    ///   the value of the wrong type, the unknown field's name, or the object missing a field.
    public static func decode(_ data: Data) throws(Failure) -> [NotificationRequest] {
        let bytes = Array(data)
        // RFC 8259's grammar first, and the depth: Foundation's decoder takes more (a
        // trailing comma), says only "not valid JSON" for some of what it refuses (01,
        // 1e400, a byte that is not UTF-8), and crashes on text nested too deep
        // (``JSONLocator/deepest``).
        let scanned = JSONLocator.scan(bytes)
        if let error = scanned.syntaxError { throw failure(error, in: bytes) }
        do {
            let requests = isArray(bytes) ? try JSONDecoder().decode([NotificationRequest].self, from: data)
                : [try JSONDecoder().decode(NotificationRequest.self, from: data)]
            // A field given twice is refused: a proxy or a log reading the same text might
            // take the other value than the one Chime would schedule.
            if let duplicate = scanned.duplicate.flatMap({ failure(duplicate: $0, in: bytes) }) { throw duplicate }
            return requests
        } catch let error as Failure {
            throw error
        } catch let error as DecodingError {
            throw located(describe(error), in: bytes)
        } catch {
            throw located(Failure(path: "", message: "not valid JSON", steps: nil), in: bytes)
        }
    }

    /// For each field (a path such as `content.categoryIdentifier` or
    /// `content.attachments[1]`) of a request (its position in the batch), the line and
    /// column where its value starts in `text`, the JSON ``decode(_:)`` read: where a
    /// well-formed request refused by the configuration goes wrong. A field the text
    /// leaves out (an empty `content`) is pointed at by the object that lacks it; nil when
    /// the text has no such request. One pass over the text for them all: a batch of
    /// thousands of refused requests is located in time proportional to its size.
    public static func linesAndColumns(of fields: [(request: Int, field: String)], in text: [UInt8]) -> [(line: Int, column: Int)?] {
        let array = isArray(text)
        // Each field's path, then its ancestors' up to the request itself, deepest first.
        let chains = fields.map { request, field -> [[JSONLocator.Step]] in
            let top: [JSONLocator.Step] = array ? [.element(request)] : []
            // `content.attachments[1]`: fields, each maybe followed by an element's index.
            let steps: [JSONLocator.Step] = field.split(separator: ".").flatMap { part -> [JSONLocator.Step] in
                let pieces = part.split(separator: "[")
                return [.field(String(pieces.first ?? ""))] + pieces.dropFirst().compactMap { Int($0.dropLast()).map(JSONLocator.Step.element) }
            }
            return (0...steps.count).map { top + steps.dropLast($0) }
        }
        let found = JSONLocator.offsets(of: Set(chains.joined()), in: text).values
        let offsets = chains.map { chain in chain.lazy.compactMap { found[$0] }.first }
        let places = JSONLocator.linesAndColumns(of: offsets.compactMap { $0 }, in: text)
        return offsets.map { $0.flatMap { places[$0] } }
    }

    /// Whether the text's first character past white space opens an array (a batch).
    private static func isArray(_ bytes: some Collection<UInt8>) -> Bool {
        bytes.first { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 } == UInt8(ascii: "[")
    }

    /// The first way `bytes` is not strict JSON — RFC 8259's grammar, UTF-8, no field
    /// given twice in one object (readers differ on which of the two counts), nesting no
    /// deeper than ``JSONLocator/deepest`` — at its line and column; nil when it is. For
    /// the other JSON bodies Chime reads.
    public static func strictnessFailure(_ bytes: [UInt8]) -> Failure? {
        let scanned = JSONLocator.scan(bytes)
        if let error = scanned.syntaxError { return failure(error, in: bytes) }
        return scanned.duplicate.flatMap { failure(duplicate: $0, in: bytes) }
    }

    private static func failure(_ error: JSONLocator.SyntaxError, in bytes: [UInt8]) -> Failure {
        if error.offset <= 1, let problem = encodingProblem(bytes) {
            var failure = Failure(path: "", message: "not valid JSON: \(problem)", steps: nil)
            (failure.line, failure.column) = (1, 1)
            return failure
        }
        var failure = Failure(path: "", message: error.described, steps: nil)
        (failure.line, failure.column) = JSONLocator.lineAndColumn(of: error.offset, in: bytes)
        return failure
    }

    /// What is wrong with text that starts as no UTF-8 JSON does, said plainly: the
    /// scanner's own words would show the invisible mark or raw UTF-16 bytes between
    /// backticks. Windows PowerShell 5's `>` writes UTF-16; Notepad long wrote a mark.
    private static func encodingProblem(_ bytes: [UInt8]) -> String? {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            return "the file starts with a byte order mark (U+FEFF): save it as UTF-8 without one"
        }
        let utf16 = bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF])
            || bytes.count > 1 && (bytes[0] == 0) != (bytes[1] == 0)
        return utf16 ? "the file is UTF-16 (as Windows PowerShell's > writes it), not UTF-8: save it as UTF-8" : nil
    }

    private static func failure(duplicate: (path: [JSONLocator.Step], offset: Int), in bytes: [UInt8]) -> Failure? {
        guard case .field(let key) = duplicate.path.last else { return nil }
        var failure = Failure(path: path(duplicate.path), message: "\"\(key)\" is given twice in one object", steps: nil)
        (failure.line, failure.column) = JSONLocator.lineAndColumn(of: duplicate.offset, in: bytes)
        return failure
    }

    /// The failure at the line and column of its value (or field name). (Syntax errors
    /// never get here: the text was scanned before it was decoded.)
    private static func located(_ failure: Failure, in bytes: [UInt8]) -> Failure {
        var failure = failure
        if let steps = failure.steps, let offset = JSONLocator.offset(of: steps.path, name: steps.name, in: bytes) {
            (failure.line, failure.column) = JSONLocator.lineAndColumn(of: offset, in: bytes)
        }
        return failure
    }

    private static func describe(_ error: DecodingError) -> Failure {
        switch error {
        case .keyNotFound(let key, let context):
            return Failure(path: path(context.codingPath), message: "missing \"\(key.stringValue)\"", steps: (steps(context.codingPath), false))
        case .typeMismatch(let type, let context):
            return Failure(path: path(context.codingPath), message: "expected \(name(of: type))", steps: (steps(context.codingPath), false))
        case .valueNotFound(let type, let context):
            return Failure(path: path(context.codingPath), message: "expected \(name(of: type)), found null", steps: (steps(context.codingPath), false))
        case .dataCorrupted(let context):
            guard !context.codingPath.isEmpty else { return Failure(path: "", message: "not valid JSON", steps: nil) }
            // An unknown field is pointed at by its name, anything else by its value.
            let isField = context.codingPath.last?.intValue == nil && context.debugDescription.hasPrefix("unknown field")
            return Failure(path: path(context.codingPath), message: context.debugDescription, steps: (steps(context.codingPath), isField))
        @unknown default:
            return Failure(path: "", message: "\(error)", steps: nil)
        }
    }

    private static func steps(_ keys: [any CodingKey]) -> [JSONLocator.Step] {
        keys.map { key in key.intValue.map(JSONLocator.Step.element) ?? .field(key.stringValue) }
    }

    private static func path(_ steps: [JSONLocator.Step]) -> String {
        steps.reduce("") { path, step in
            switch step {
            case .element(let index): path + "[\(index)]"
            case .field(let name): path.isEmpty ? name : path + "." + name
            }
        }
    }

    private static func path(_ keys: [any CodingKey]) -> String {
        path(steps(keys))
    }

    private static func name(of type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Bool.Type: "true or false"
        case is Int.Type, is Double.Type, is Int64.Type: "a number"
        case is [Any].Type: "an array"
        default: "an object"
        }
    }
}
