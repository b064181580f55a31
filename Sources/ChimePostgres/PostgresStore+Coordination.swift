import ChimeCore
import Foundation
import PostgresNIO

/// What every worker must agree on: the signing key, rate-limit turns, idempotent API
/// answers; and the counts an operator watches.
extension PostgresStore {
    /// One key across workers: `INSERT … ON CONFLICT DO NOTHING`, then a read. Of many
    /// processes opening a new store at once, one inserts its candidate; the others' inserts
    /// wait for it and do nothing, and their read (a statement of its own, so under READ
    /// COMMITTED one that sees what committed before it) returns the key kept.
    public func secretKey(keeping candidate: [UInt8]) throws -> [UInt8] {
        // Read first: once the key exists, nothing writes to learn it.
        if let kept = try read({ session in try await session.value("SELECT value FROM setting WHERE name = 'secret_key'", as: Data.self) }) {
            return [UInt8](kept)
        }
        return try write { session in
            try await session.execute("INSERT INTO setting (name, value) VALUES ('secret_key', \(Data(candidate))) ON CONFLICT (name) DO NOTHING")
            return [UInt8](try await session.value("SELECT value FROM setting WHERE name = 'secret_key'", as: Data.self) ?? Data(candidate))
        }
    }

    /// One turn across workers: a single upsert whose update happens only when the last
    /// turn is `seconds` old, returning a row only when it took. A second process at the
    /// same moment waits for the first's row and then tests the condition on the turn the
    /// first just took, so it gets none. (The value is the instant in decimal text, as the
    /// SQLite store keeps it; one that is not a number counts as long ago.)
    public func takeTurn(_ name: String, at: Instant, every seconds: Int64) throws -> Bool {
        let key = "turn:" + name
        return try write { session in
            try await session.value("""
                INSERT INTO setting (name, value) VALUES (\(key), \(Data(String(at.seconds).utf8)))
                ON CONFLICT (name) DO UPDATE SET value = excluded.value
                WHERE CASE WHEN convert_from(setting.value, 'UTF8') ~ '^-?[0-9]{1,18}$'
                           THEN \(at.seconds) - convert_from(setting.value, 'UTF8')::bigint >= \(seconds)
                           ELSE true END
                RETURNING 1
                """, as: Int32.self) != nil
        }
    }

    /// The row made if missing (empty: a pace never asked) and locked, so that a second
    /// process asking at the same moment waits for the first's commit and then reads what
    /// the first kept; the step itself is the SQLite store's (``PaceState``).
    public func pace(_ name: String, _ ask: PaceAsk) throws -> Int64 {
        let key = "pace:" + name
        return try write { session in
            try await session.execute("INSERT INTO setting (name, value) VALUES (\(key), ''::bytea) ON CONFLICT (name) DO NOTHING")
            let stored = try await session.value("SELECT value FROM setting WHERE name = \(key) FOR UPDATE", as: Data.self)
            let (value, kept) = PaceState(text: stored.map { String(decoding: $0, as: UTF8.self) }).answer(ask)
            if let kept {
                try await session.execute("UPDATE setting SET value = \(Data(kept.text.utf8)) WHERE name = \(key)")
            }
            return value
        }
    }

    public func idempotentAnswer(owner: String, key: String) throws -> IdempotentAnswer? {
        try read { session in
            try await Self.kept(session, owner: owner, key: key)
        }
    }

    /// One statement, as ``takeTurn(_:at:every:)``: of workers taking the key together,
    /// one inserts the row and the others wait for it, then find it held.
    public func takeIdempotencyKey(owner: String, key: String, digest: String, at: Instant, abandonedAfter: Int64) throws -> IdempotentAnswer? {
        try write { session in
            let empty = Data()
            if try await session.value("""
                INSERT INTO idempotency (owner, key, request_digest, status, body, created_at)
                VALUES (\(owner), \(key), \(digest), 0, \(empty), \(at.seconds))
                ON CONFLICT (owner, key) DO UPDATE SET request_digest = excluded.request_digest, created_at = excluded.created_at
                WHERE idempotency.status = 0 AND idempotency.created_at <= \(at.seconds - abandonedAfter)
                RETURNING 1
                """, as: Int32.self) != nil {
                return nil
            }
            return try await Self.kept(session, owner: owner, key: key)
        }
    }

    public func releaseIdempotencyKey(owner: String, key: String, digest: String?) throws {
        try write { session in
            if let digest {
                try await session.execute("DELETE FROM idempotency WHERE owner = \(owner) AND key = \(key) AND status = 0 AND request_digest = \(digest)")
            } else {
                try await session.execute("DELETE FROM idempotency WHERE owner = \(owner) AND key = \(key) AND status = 0")
            }
        }
    }

    public func renewIdempotencyKey(owner: String, key: String, digest: String, at: Instant) throws -> Bool {
        try write { session in
            try await session.value("""
                UPDATE idempotency SET created_at = \(at.seconds) WHERE owner = \(owner) AND key = \(key) AND status = 0 AND request_digest = \(digest)
                RETURNING 1
                """, as: Int32.self) != nil
        }
    }

    /// The first answer kept across workers, as ``secretKey(keeping:)`` keeps one key.
    public func keepIdempotentAnswer(_ answer: IdempotentAnswer, owner: String, key: String, at: Instant) throws -> IdempotentAnswer {
        try write { session in
            try await session.execute("""
                INSERT INTO idempotency (owner, key, request_digest, status, body, created_at)
                VALUES (\(owner), \(key), \(answer.requestDigest), \(answer.status), \(Data(answer.body)), \(at.seconds))
                ON CONFLICT (owner, key) DO UPDATE SET request_digest = excluded.request_digest, status = excluded.status,
                    body = excluded.body, created_at = excluded.created_at
                WHERE idempotency.status = 0
                """)
            try await session.execute("DELETE FROM idempotency WHERE created_at < \(at.seconds - IdempotentAnswer.keptFor)")
            return try await Self.kept(session, owner: owner, key: key) ?? answer
        }
    }

    /// What is kept for `owner`'s `key`: an answer, a hold, or nothing.
    private static func kept(_ session: Session, owner: String, key: String) async throws -> IdempotentAnswer? {
        try await session.rows("SELECT request_digest, status, body FROM idempotency WHERE owner = \(owner) AND key = \(key)")
            .first.map(answer)
    }

    private static func answer(_ row: PostgresRandomAccessRow) throws -> IdempotentAnswer {
        IdempotentAnswer(requestDigest: try row.get("request_digest"), status: try row.get("status"), body: [UInt8](try row.get("body", as: Data.self)))
    }

    /// One statement, so one snapshot: the counts agree with each other. Overdue as the
    /// SQLite store counts it: due and not held by quiet hours, since its hold ended.
    public func gauges(now: Instant) throws -> StoreGauges {
        try read { session in
            var gauges = StoreGauges()
            guard let row = try await session.rows("""
                SELECT (SELECT COUNT(*) FROM pending) AS pending, due.overdue, due.earliest,
                       (SELECT COUNT(*) FROM outbox WHERE state = \(DeliveryState.queued.rawValue)) AS queued,
                       (SELECT MIN(queued_at) FROM outbox WHERE state = \(DeliveryState.queued.rawValue)) AS oldest,
                       (SELECT COUNT(*) FROM outbox WHERE state = \(DeliveryState.failed.rawValue)) AS failed
                FROM (SELECT COUNT(*) AS overdue, MIN(GREATEST(next_fire, not_before)) AS earliest FROM pending
                      WHERE next_fire <= \(now.seconds) AND (not_before IS NULL OR not_before <= \(now.seconds))) AS due
                """).first else { return gauges }
            gauges.pending = try row.get("pending")
            gauges.overdue = try row.get("overdue")
            if gauges.overdue > 0, let earliest = try row.optional("earliest", as: Int64.self) { gauges.oldestOverdue = Instant(seconds: earliest) }
            gauges.outboxQueued = try row.get("queued")
            gauges.oldestQueued = try row.optional("oldest", as: Int64.self).map(Instant.init(seconds:))
            gauges.outboxFailed = try row.get("failed")
            return gauges
        }
    }
}
