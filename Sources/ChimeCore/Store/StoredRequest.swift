import Foundation

// What every store does alike with the requests it keeps, whatever its database.

extension NotificationRequest {
    /// The request as a store keeps it: compact JSON (``CodingUserInfoKey/storedJSON``).
    public func storedJSON() throws -> String {
        let encoder = JSONEncoder()
        encoder.userInfo[.storedJSON] = true
        return String(decoding: try encoder.encode(self), as: UTF8.self)
    }

    /// A request as a store kept it (``storedJSON()``): read by ``readStored(_:)`` when
    /// it has the shape the store writes, else by JSONDecoder, which decides.
    public init(storedJSON text: String) throws {
        if let request = Self.readStored(text) {
            self = request
        } else {
            self = try Self.decodeStored(text)
        }
    }

    /// A request a store kept in a row of `table` (`pending`, `delivered`, `parked`) under
    /// `identifier` (read only when it fails): as ``init(storedJSON:)``, its failure an
    /// ``UnreadableStoredRequest`` naming the row, not the decoder's words alone.
    public init(storedJSON text: String, table: StoredTable, identifier: @autoclosure () -> String,
                generation: String? = nil) throws(UnreadableStoredRequest) {
        do {
            try self.init(storedJSON: text)
        } catch {
            throw UnreadableStoredRequest(table: table, identifier: identifier(), generation: generation, reason: UnreadableStoredRequest.reason(error))
        }
    }

    /// JSONDecoder's reading of a stored request, the definition ``readStored(_:)`` keeps to.
    package static func decodeStored(_ text: String) throws -> NotificationRequest {
        try storedDecoder.decode(NotificationRequest.self, from: Data(text.utf8))
    }

    /// One decoder for every stored request (JSONDecoder is safe to share between
    /// threads): a store reads back thousands in a run.
    private static let storedDecoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.userInfo[.storedJSON] = true
        return decoder
    }()
}

extension Array where Element == PendingNotification {
    /// The recipients of these requests that have a pending limit above 0, each once,
    /// with it: those whose boundary a page's set-aside marks need
    /// (``setAside(beyond:boundaries:)``). Recipients are told apart by their bytes, as
    /// the stores do.
    public func limitedRecipients(_ limits: [String: Int]) -> [(recipient: String, limit: Int)] {
        var seen = Set<[UInt8]>()
        return compactMap { notification in
            let recipient = notification.request.recipient
            guard let limit = limits[recipient], limit > 0, seen.insert([UInt8](recipient.utf8)).inserted else { return nil }
            return (recipient, limit)
        }
    }

    /// Marks those beyond their recipient's pending limit (`limits`: recipient → most
    /// pending) as set aside: the recipient's requests sorted by next fire, then by
    /// identifier, those after its `limit`-th. A whole listing (`boundaries` nil) is
    /// counted as it is read. A page is marked as the whole listing would be from
    /// `boundaries`: for each of its ``limitedRecipients(_:)`` (by the name's bytes), the
    /// sort key of its `limit`-th request, absent when it has no more than `limit`.
    public mutating func setAside(beyond limits: [String: Int], boundaries: [[UInt8]: ListingKey]?) {
        var counts: [[UInt8]: Int] = [:]
        for index in indices {
            let recipient = self[index].request.recipient
            guard let limit = limits[recipient] else { continue }
            let name = [UInt8](recipient.utf8)
            if let boundaries {
                self[index].isSetAside = limit <= 0 || boundaries[name].map { self[index].listingKey.follows($0) } ?? false
            } else {
                counts[name, default: 0] += 1
                self[index].isSetAside = counts[name]! > limit
            }
        }
    }
}

extension PendingNotification {
    /// Where it stands in a listing of pending requests: its next fire, then its identifier.
    public var listingKey: ListingKey { ListingKey(seconds: nextFire.seconds, identifier: request.identifier) }
}

extension ListingKey {
    /// Whether `self` comes after `other`, sorted by seconds, then by identifier byte by
    /// byte, as both stores sort it (`String`'s `>` takes "é" written as e and an accent
    /// for the same as "é").
    public func follows(_ other: ListingKey) -> Bool {
        if seconds != other.seconds { return seconds > other.seconds }
        return other.identifier.utf8.lexicographicallyPrecedes(identifier.utf8)
    }
}
