import ChimeCore
import Foundation
import PostgresNIO

/// Replies: what each delivery was, responses recorded and carried out once, the inbound
/// log and chat threads.
extension PostgresStore {
    public func request(ofDelivery deliveryID: String) throws -> NotificationRequest? {
        // No delivery's id holds a NUL (a forged token's may): PostgreSQL refuses the query.
        guard !deliveryID.utf8.contains(0) else { return nil }
        let json = try read { session -> String? in
            if let json = try await session.value("SELECT request FROM delivered WHERE delivery_id = \(deliveryID) LIMIT 1", as: String.self) {
                return json
            }
            // A recipient's opt-in request.
            if let json = try await session.value("SELECT request FROM opt_in WHERE delivery_id = \(deliveryID) AND asked_at >= 0", as: String.self) {
                return json
            }
            // An earlier occurrence of a repeating request: its generation is still pending,
            // and a later occurrence is delivered (as the SQLite store has it).
            let generation = PendingNotification.parts(ofDelivery: deliveryID).generation
            return try await session.value("""
                SELECT request FROM pending WHERE generation = \(generation)
                    AND (fired_count = 0 OR EXISTS (SELECT 1 FROM delivered WHERE delivered.identifier = pending.identifier)) LIMIT 1
                """, as: String.self)
        }
        return try json.map(NotificationRequest.init(storedJSON:))
    }

    /// Exactly once: one `INSERT … ON CONFLICT (delivery_id, action) DO UPDATE … WHERE`
    /// failed or cut short (or awaiting confirmation, for an answer with its proof), whose
    /// RETURNING says whether it took. Of two identical answers
    /// at once, the second waits for the first's row and then, finding it being carried
    /// out, throws ``ResponseInFlight`` (its transaction, and so its message's record,
    /// rolled back); finding it carried out, it returns nothing: a replay.
    public func record(_ response: StoredResponse, from inbound: InboundRecord?) throws -> Int64? {
        try write { session in
            try await session.execute("SELECT pg_advisory_xact_lock_shared(\(Self.responseIDs))")
            let id = try await session.value("""
                INSERT INTO response (delivery_id, identifier, recipient, action, user_text, channel, responder, at, status)
                VALUES (\(response.deliveryID), \(response.identifier), \(response.recipient), \(response.action), \(response.userText),
                        \(response.channel), \(response.responder), \(response.at.seconds), \(response.status))
                ON CONFLICT (delivery_id, action) DO UPDATE SET
                    user_text = excluded.user_text, channel = excluded.channel, responder = excluded.responder,
                    at = excluded.at, status = excluded.status, result = ''
                WHERE response.status = \(StoredResponse.failed) OR (response.status = \(StoredResponse.carryingOut)
                    AND response.at <= excluded.at - \(StoredResponse.abandonedAfter))
                    OR (response.status = \(StoredResponse.awaitingConfirmation) AND excluded.status = \(StoredResponse.carryingOut))
                RETURNING id
                """, as: Int64.self)
            if id == nil, let row = try await session.rows("""
                SELECT status, at FROM response WHERE delivery_id = \(response.deliveryID) AND action = \(response.action)
                """).first, try row.get("status", as: String.self) == StoredResponse.carryingOut {
                throw ResponseInFlight(deliveryID: response.deliveryID, action: response.action, since: Instant(seconds: try row.get("at", as: Int64.self)))
            }
            if var inbound {
                if id == nil { inbound.outcome = .replayed }
                try await Self.insert(inbound, in: session)
            }
            return id
        }
    }

    public func finish(response id: Int64, status: String, result: String) throws {
        let result = result.storable
        try write { session in
            try await session.execute("UPDATE response SET status = \(status), result = \(result) WHERE id = \(id)")
            // Carried out, the delivery is answered: `outstanding(recipient:)` skips it.
            if status == StoredResponse.carriedOut {
                try await session.execute("UPDATE delivered SET answered = 1 WHERE delivery_id = (SELECT delivery_id FROM response WHERE id = \(id))")
            }
        }
    }

    public func outstanding(recipient: String) throws -> Int {
        try read { session in
            try await session.value("""
                SELECT COUNT(*) FROM delivered d WHERE d.recipient = \(recipient) AND d.answered = 0 AND NOT EXISTS
                    (SELECT 1 FROM response r WHERE r.delivery_id = d.delivery_id AND r.status = \(StoredResponse.carriedOut))
                """, as: Int.self) ?? 0
        }
    }

    public func rememberThread(channel: String, thread: String, token: String, at: Instant) throws {
        let thread = thread.storable
        try write { session in
            try await session.execute("""
                INSERT INTO chat_thread (channel, thread, token, at) VALUES (\(channel), \(thread), \(token), \(at.seconds))
                ON CONFLICT (channel, thread) DO UPDATE SET token = excluded.token, at = excluded.at
                """)
        }
    }

    public func threadToken(channel: String, thread: String) throws -> String? {
        let thread = thread.storable
        return try read { session in
            try await session.value("SELECT token FROM chat_thread WHERE channel = \(channel) AND thread = \(thread)", as: String.self)
        }
    }

    public func record(_ inbound: InboundRecord) throws {
        try write { session in try await Self.insert(inbound, in: session) }
    }

    public func markAnswered(_ messages: [AnsweredMessage]) throws {
        guard !messages.isEmpty else { return }
        try write { session in
            for message in messages {
                try await session.execute("""
                    UPDATE inbound SET answered = 1 WHERE message_id = \(message.messageID) AND delivery_id = \(message.deliveryID) AND answered = 0
                    """)
            }
        }
    }

    public func answered(_ message: AnsweredMessage) throws -> Bool {
        try read { session in
            try await session.value("""
                SELECT EXISTS (SELECT 1 FROM inbound WHERE message_id = \(message.messageID) AND delivery_id = \(message.deliveryID) AND answered = 1)
                """, as: Bool.self) ?? false
        }
    }

    /// Exactly once: a conditional update (`status = 'awaiting confirmation'`) returning
    /// the row; a second confirmation at once waits, then finds the row no longer awaiting.
    public func confirm(deliveryID: String, action: String, now: Instant) throws -> StoredResponse? {
        try write { session in
            try await session.rows("""
                UPDATE response SET status = \(StoredResponse.carryingOut), at = \(now.seconds)
                WHERE delivery_id = \(deliveryID) AND action = \(action) AND status = \(StoredResponse.awaitingConfirmation)
                RETURNING *
                """).first.map(Self.response)
        }
    }

    public func response(deliveryID: String, action: String) throws -> StoredResponse? {
        try read { session in
            try await session.rows("SELECT * FROM response WHERE delivery_id = \(deliveryID) AND action = \(action)").first.map(Self.response)
        }
    }

    /// Exactly once, as ``confirm(deliveryID:action:now:)``: a conditional update from
    /// `failed`, or from `carrying out` cut short.
    public func retake(response id: Int64, now: Instant) throws -> StoredResponse? {
        try write { session in
            try await session.rows("""
                UPDATE response SET status = \(StoredResponse.carryingOut), at = \(now.seconds), result = ''
                WHERE id = \(id) AND (status = \(StoredResponse.failed)
                    OR (status = \(StoredResponse.carryingOut) AND at <= \(now.seconds - StoredResponse.abandonedAfter)))
                RETURNING *
                """).first.map(Self.response)
        }
    }

    /// The advisory lock that orders new responses' ids with their commits: each
    /// transaction recording one holds it shared; a listing takes it alone, so that it
    /// waits for those under way and reads before any other begins. Without, two workers
    /// recording at once could commit id 2 before id 1: a listing then gave 2, and the app
    /// polling `after=2` (as the README has it) never saw 1. "chimeres" in ASCII, as
    /// ``migrationLock`` is "chime".
    static let responseIDs: Int64 = 0x63_68_69_6D_65_72_65_73

    /// A page (the API's, with a count) waits for the responses being recorded, in READ
    /// COMMITTED whatever the server's default, so that its one statement sees what they
    /// committed; the whole list (`chime responses`) does not hold new ones back while it
    /// reads.
    public func responses(after: Int64, count: Int?) throws -> [StoredResponse] {
        let limit = count.map(Int64.init)
        guard count != nil else { return try read { session in try await Self.responses(after: after, limit: limit, in: session) } }
        return try write { session in
            try await session.execute("SET TRANSACTION ISOLATION LEVEL READ COMMITTED")
            try await session.execute("SELECT pg_advisory_xact_lock(\(Self.responseIDs))")
            return try await Self.responses(after: after, limit: limit, in: session)
        }
    }

    private static func responses(after: Int64, limit: Int64?, in session: Session) async throws -> [StoredResponse] {
        try await session.rows("SELECT * FROM response WHERE id > \(after) ORDER BY id LIMIT \(limit)::bigint").map(Self.response)
    }

    public func inbound() throws -> [InboundRecord] {
        try read { session in
            try await session.rows("SELECT * FROM inbound ORDER BY id").map { row in
                InboundRecord(id: try row.get("id"), at: Instant(seconds: try row.get("at")), messageID: try row.get("message_id"),
                              sender: try row.get("sender"), outcome: InboundRecord.Outcome(rawValue: try row.get("outcome")) ?? .unreadable,
                              detail: try row.get("detail"), deliveryID: try row.optional("delivery_id"))
            }
        }
    }

    private static func response(_ row: PostgresRandomAccessRow) throws -> StoredResponse {
        StoredResponse(id: try row.get("id"), deliveryID: try row.get("delivery_id"), identifier: try row.get("identifier"),
                       recipient: try row.get("recipient"), action: try row.get("action"), userText: try row.optional("user_text"),
                       channel: try row.get("channel"), responder: try row.get("responder"), at: Instant(seconds: try row.get("at")),
                       status: try row.get("status"), result: try row.get("result"))
    }

    private static func insert(_ inbound: InboundRecord, in session: Session) async throws {
        try await session.execute("""
            INSERT INTO inbound (at, message_id, sender, outcome, detail, delivery_id)
            VALUES (\(inbound.at.seconds), \(inbound.messageID), \(inbound.sender), \(inbound.outcome.rawValue), \(inbound.detail), \(inbound.deliveryID))
            """)
    }
}
