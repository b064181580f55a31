// A row of the store whose request Chime cannot read, and how it is named.

/// The tables whose rows keep a request.
public enum StoredTable: Sendable {
    case pending, delivered, parked
}

/// A row of the store whose request cannot be read (the store edited by hand, or written
/// by another program): the row named, and what removes it. The row itself is left as it
/// is: a pending one is held by each run (`chime run` fires the others and exits 75), a
/// listing that reaches it fails with this.
public struct UnreadableStoredRequest: Error, CustomStringConvertible, Sendable, Equatable {
    public let table: StoredTable
    /// The row's key: the request's identifier (`pending`, `delivered`) or the delivery id (`parked`).
    public let identifier: String
    /// A pending row's generation, to hold that row and no other.
    public let generation: String?
    public let reason: String

    public init(table: StoredTable, identifier: String, generation: String?, reason: String) {
        self.table = table
        self.identifier = identifier
        self.generation = generation
        self.reason = reason
    }

    public var description: String {
        switch table {
        case .pending: "pending request \"\(shownIdentifier)\": \(problem)"
        case .delivered: "delivered notification \"\(shownIdentifier)\": \(problem)"
        case .parked: "delivery \"\(shownIdentifier)\" kept for a digest or its thread: \(problem)"
        }
    }

    /// The identifier as a terminal or a log may show it (``printable(_:)``), at most 200 characters.
    public var shownIdentifier: String { printable(String(identifier.prefix(200))) }

    /// What is wrong with the row and what removes it, without its name.
    public var problem: String {
        switch table {
        case .pending: "its request in the store cannot be read (\(reason)); `chime cancel \(shownIdentifier)` removes it"
        case .delivered: "its request in the store cannot be read (\(reason)); `chime remove-delivered \(shownIdentifier)` removes it"
        case .parked: "its request in the store cannot be read (\(reason))"
        }
    }

    /// What the decoder found, in a few words: where, and of which kind.
    static func reason(_ error: any Error) -> String {
        func path(_ keys: [any CodingKey]) -> String {
            keys.isEmpty ? "" : " at " + String(printable(keys.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")).prefix(200))
        }
        switch error {
        case DecodingError.dataCorrupted(let context) where context.codingPath.isEmpty:
            return "not valid JSON"
        case DecodingError.dataCorrupted(let context):
            return "a value not allowed" + path(context.codingPath)
        case DecodingError.keyNotFound(let key, let context):
            return "no field \"\(key.stringValue)\"" + path(context.codingPath)
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
            return "a value of the wrong type" + path(context.codingPath)
        default:
            return "not a request"
        }
    }
}
