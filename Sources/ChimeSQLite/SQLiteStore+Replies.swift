import ChimeCore
import Foundation
import GRDB

/// Replies: responses and the inbound log.
extension SQLiteStore {
    public func request(ofDelivery deliveryID: String) throws -> NotificationRequest? {
        // No delivery's id holds a NUL (a forged token's may): PostgreSQL refuses the query.
        guard !deliveryID.utf8.contains(0) else { return nil }
        // Decoded once the store's queue is let go: `chime ingest`'s other threads wait
        // for that queue, and decoding is a tenth of a reply's time on it.
        let json = try database.read { db -> String? in
            if let json = try String.fetchOne(db.cachedStatement(sql: "SELECT request FROM delivered WHERE delivery_id = ?"), arguments: [deliveryID]) {
                return json
            }
            // A recipient's opt-in request (looked up by its unique key before pending's
            // generation, which has no index of its own).
            if let json = try String.fetchOne(db.cachedStatement(sql: "SELECT request FROM opt_in WHERE delivery_id = ? AND asked_at >= 0"), arguments: [deliveryID]) {
                return json
            }
            // An earlier occurrence of a repeating request: its generation is still pending,
            // and it is in the delivered list (one removed from it, `chime remove-delivered`,
            // is no longer open to answers until its next occurrence is delivered, as a single
            // one is not), or its first occurrence is being sent (not yet settled).
            let generation = PendingNotification.parts(ofDelivery: deliveryID).generation
            return try String.fetchOne(db.cachedStatement(sql: """
                SELECT request FROM pending WHERE generation = ?
                    AND (fired_count = 0 OR EXISTS (SELECT 1 FROM delivered WHERE delivered.identifier = pending.identifier))
                """), arguments: [generation])
        }
        return try json.map(NotificationRequest.init(storedJSON:))
    }

    /// The statement ``record(_:from:)`` inserts a response with, its text made once: it
    /// is the statement cache's key, built and hashed for each reply otherwise.
    private static let recordResponse = """
        INSERT INTO response (delivery_id, identifier, recipient, action, user_text, channel, responder, at, status)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (delivery_id, action) DO UPDATE SET
            user_text = excluded.user_text, channel = excluded.channel, responder = excluded.responder,
            at = excluded.at, status = excluded.status, result = ''
        WHERE \(takenAgain("response", now: "excluded.at"))
            OR (response.status = '\(StoredResponse.awaitingConfirmation)' AND excluded.status = '\(StoredResponse.carryingOut)')
        """

    public func record(_ response: StoredResponse, from inbound: InboundRecord?) throws -> Int64? {
        try database.write { db in
            // A response whose carrying out failed or was cut short is taken again, as this
            // answer gives it, and so is one awaiting confirmation by an answer with its
            // proof (its own text then stands); any other stays as it is, and the answer is
            // a replay (one that waits for confirmation too is sent a new link for the text
            // that waits: ``ReplyDesk``).
            try db.cachedStatement(sql: Self.recordResponse).execute(arguments: [
                    response.deliveryID, response.identifier, response.recipient, response.action, response.userText,
                    response.channel, response.responder, response.at.seconds, response.status,
                ])
            let taken = db.changesCount > 0
            let row = try Row.fetchOne(db.cachedStatement(sql: "SELECT id, status, at FROM response WHERE delivery_id = ? AND action = ?"),
                                       arguments: [response.deliveryID, response.action])
            if !taken, let row, row["status"] == StoredResponse.carryingOut {
                throw ResponseInFlight(deliveryID: response.deliveryID, action: response.action, since: Instant(seconds: row["at"]))
            }
            let id: Int64? = taken ? row?["id"] : nil
            if var inbound {
                if id == nil { inbound.outcome = .replayed }
                try Self.insert(inbound, in: db)
            }
            return id
        }
    }

    public func finish(response id: Int64, status: String, result: String) throws {
        let result = result.storable
        try database.write { db in
            try db.cachedStatement(sql: "UPDATE response SET status = ?, result = ? WHERE id = ?").execute(arguments: [status, result, id])
            // Carried out, the delivery is answered: ``outstanding(recipient:)`` skips it.
            if status == StoredResponse.carriedOut {
                try db.cachedStatement(sql: "UPDATE delivered SET answered = 1 WHERE delivery_id = (SELECT delivery_id FROM response WHERE id = ?)")
                    .execute(arguments: [id])
            }
        }
    }

    public func enqueue(_ queued: [QueuedDelivery], deliveryID: String, identifier: String, recipient: String, at: Instant) throws {
        try database.write { db in
            try Self.enqueue(queued, deliveryID: deliveryID, identifier: identifier, recipient: recipient, at: at, in: db)
        }
    }

    public func outstanding(recipient: String) throws -> Int {
        try database.read { db in
            // The deliveries not flagged answered (migration v17), each still asked about:
            // a response carried out before its delivery's row was written (a press on a
            // chat button before the run settled the batch) did not flag it. The status
            // written out, not bound, so that SQLite reads the partial indexes (v16, v17).
            try Int.fetchOne(db.cachedStatement(sql: """
                SELECT COUNT(*) FROM delivered d WHERE d.recipient = ? AND d.answered = 0 AND NOT EXISTS
                    (SELECT 1 FROM response r WHERE r.delivery_id = d.delivery_id AND r.status = '\(StoredResponse.carriedOut)')
                """), arguments: [recipient]) ?? 0
        }
    }

    public func markUndeliverable(_ addresses: [String], reason: String, at: Instant) throws {
        guard !addresses.isEmpty else { return }
        try database.write { db in
            for address in addresses {
                try db.execute(sql: """
                    INSERT INTO undeliverable (address, at, reason) VALUES (?, ?, ?)
                    ON CONFLICT (address) DO UPDATE SET at = excluded.at, reason = excluded.reason
                    """, arguments: [address.lowercased(), at.seconds, reason])
            }
        }
    }

    public func undeliverable() throws -> Set<String> {
        try database.read { db in Set(try String.fetchAll(db, sql: "SELECT address FROM undeliverable")) }
    }

    public func undeliverableMarks() throws -> [UndeliverableMark] {
        try database.read { db in
            try Row.fetchAll(db, sql: "SELECT address, at, reason FROM undeliverable ORDER BY address").map {
                UndeliverableMark(address: $0["address"], at: Instant(seconds: $0["at"]), reason: $0["reason"])
            }
        }
    }

    @discardableResult
    public func clearUndeliverable(_ addresses: [String]) throws -> [String] {
        let wanted = addresses.map { $0.lowercased() }
        // Read first: most replies come from addresses that were never marked, and a
        // read takes no write lock.
        let marked = try database.read { db in
            try wanted.filter { try Bool.fetchOne(db.cachedStatement(sql: "SELECT 1 FROM undeliverable WHERE address = ?"), arguments: [$0]) != nil }
        }
        guard !marked.isEmpty else { return [] }
        return try database.write { db in
            try marked.filter { address in
                try db.execute(sql: "DELETE FROM undeliverable WHERE address = ?", arguments: [address])
                return db.changesCount > 0
            }
        }
    }

    public func rememberThread(channel: String, thread: String, token: String, at: Instant) throws {
        let thread = thread.storable
        try database.write { db in
            try db.execute(sql: """
                INSERT INTO chat_thread (channel, thread, token, at) VALUES (?, ?, ?, ?)
                ON CONFLICT (channel, thread) DO UPDATE SET token = excluded.token, at = excluded.at
                """, arguments: [channel, thread, token, at.seconds])
        }
    }

    public func threadToken(channel: String, thread: String) throws -> String? {
        let thread = thread.storable
        return try database.read { db in
            try String.fetchOne(db, sql: "SELECT token FROM chat_thread WHERE channel = ? AND thread = ?", arguments: [channel, thread])
        }
    }

    public func record(_ inbound: InboundRecord) throws {
        try database.write { db in try Self.insert(inbound, in: db) }
    }

    public func markAnswered(_ messages: [AnsweredMessage]) throws {
        guard !messages.isEmpty else { return }
        try database.write { db in
            let statement = try db.cachedStatement(sql: "UPDATE inbound SET answered = 1 WHERE message_id = ? AND delivery_id = ? AND answered = 0")
            for message in messages { try statement.execute(arguments: [message.messageID, message.deliveryID]) }
        }
    }

    public func answered(_ message: AnsweredMessage) throws -> Bool {
        try database.read { db in
            try Bool.fetchOne(db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM inbound WHERE message_id = ? AND delivery_id = ? AND answered = 1)"),
                              arguments: [message.messageID, message.deliveryID]) ?? false
        }
    }

    /// The condition for a response row (`table`) to be taken again at the instant
    /// `now` (an SQL expression): its carrying out failed, or was cut short.
    static func takenAgain(_ table: String, now: String) -> String {
        let failed = StoredResponse.failed, carrying = StoredResponse.carryingOut
        return "(\(table).status = '\(failed)' OR (\(table).status = '\(carrying)' AND \(table).at <= \(now) - \(StoredResponse.abandonedAfter)))"
    }

    public func confirm(deliveryID: String, action: String, now: Instant) throws -> StoredResponse? {
        try database.write { db in
            try db.execute(sql: "UPDATE response SET status = ?, at = ? WHERE delivery_id = ? AND action = ? AND status = ?",
                           arguments: [StoredResponse.carryingOut, now.seconds, deliveryID, action, StoredResponse.awaitingConfirmation])
            guard db.changesCount > 0 else { return nil }
            return try Row.fetchOne(db, sql: "SELECT * FROM response WHERE delivery_id = ? AND action = ?", arguments: [deliveryID, action])
                .map(Self.response)
        }
    }

    public func response(deliveryID: String, action: String) throws -> StoredResponse? {
        try database.read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM response WHERE delivery_id = ? AND action = ?", arguments: [deliveryID, action])
                .map(Self.response)
        }
    }

    public func retake(response id: Int64, now: Instant) throws -> StoredResponse? {
        try database.write { db in
            try db.execute(sql: "UPDATE response SET status = ?, at = ?, result = '' WHERE id = ? AND \(Self.takenAgain("response", now: "?"))",
                           arguments: [StoredResponse.carryingOut, now.seconds, id, now.seconds])
            guard db.changesCount > 0 else { return nil }
            return try Row.fetchOne(db, sql: "SELECT * FROM response WHERE id = ?", arguments: [id]).map(Self.response)
        }
    }

    public func responses(after: Int64, count: Int?) throws -> [StoredResponse] {
        try database.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM response WHERE id > ? ORDER BY id LIMIT ?", arguments: [after, count ?? -1]).map(Self.response)
        }
    }

    private static func response(_ row: Row) -> StoredResponse {
        StoredResponse(id: row["id"], deliveryID: row["delivery_id"], identifier: row["identifier"], recipient: row["recipient"],
                       action: row["action"], userText: row["user_text"], channel: row["channel"], responder: row["responder"],
                       at: Instant(seconds: row["at"]), status: row["status"], result: row["result"])
    }

    public func inbound() throws -> [InboundRecord] {
        try database.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM inbound ORDER BY id").map { row in
                InboundRecord(id: row["id"], at: Instant(seconds: row["at"]), messageID: row["message_id"], sender: row["sender"],
                              outcome: InboundRecord.Outcome(rawValue: row["outcome"]) ?? .unreadable, detail: row["detail"],
                              deliveryID: row["delivery_id"])
            }
        }
    }

    private static func insert(_ inbound: InboundRecord, in db: Database) throws {
        try db.cachedStatement(sql: "INSERT INTO inbound (at, message_id, sender, outcome, detail, delivery_id) VALUES (?, ?, ?, ?, ?, ?)")
            .execute(arguments: [inbound.at.seconds, inbound.messageID, inbound.sender, inbound.outcome.rawValue, inbound.detail, inbound.deliveryID])
    }
}
