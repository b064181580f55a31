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
    /// Marks, in this order, the notifications beyond their recipient's pending limit
    /// (`limits`: recipient → most pending) as set aside.
    public mutating func setAside(beyond limits: [String: Int]) {
        var counts: [String: Int] = [:]
        for index in indices {
            let recipient = self[index].request.recipient
            counts[recipient, default: 0] += 1
            if let limit = limits[recipient], counts[recipient]! > limit {
                self[index].isSetAside = true
            }
        }
    }
}
