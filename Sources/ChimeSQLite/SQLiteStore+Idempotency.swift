import ChimeCore
import Foundation
import GRDB

/// The answers of HTTP API calls sent with an `Idempotency-Key`.
extension SQLiteStore {
    public func idempotentAnswer(owner: String, key: String) throws -> IdempotentAnswer? {
        try database.read { db in
            try Self.kept(db, owner: owner, key: key)
        }
    }

    public func takeIdempotencyKey(owner: String, key: String, digest: String, at: Instant, abandonedAfter: Int64) throws -> IdempotentAnswer? {
        try database.write { db in
            // A row back: inserted, or an abandoned hold taken over.
            if try Row.fetchOne(db, sql: """
                INSERT INTO idempotency (owner, key, request_digest, status, body, created_at) VALUES (?, ?, ?, 0, x'', ?)
                ON CONFLICT (owner, key) DO UPDATE SET request_digest = excluded.request_digest, created_at = excluded.created_at
                WHERE idempotency.status = 0 AND idempotency.created_at <= ?
                RETURNING 1
                """, arguments: [owner, key, digest, at.seconds, at.seconds - abandonedAfter]) != nil {
                return nil
            }
            return try Self.kept(db, owner: owner, key: key)
        }
    }

    public func releaseIdempotencyKey(owner: String, key: String, digest: String?) throws {
        try database.write { db in
            try db.execute(sql: "DELETE FROM idempotency WHERE owner = ? AND key = ? AND status = 0 AND (? IS NULL OR request_digest = ?)",
                           arguments: [owner, key, digest, digest])
        }
    }

    public func renewIdempotencyKey(owner: String, key: String, digest: String, at: Instant) throws -> Bool {
        try database.write { db in
            try db.execute(sql: "UPDATE idempotency SET created_at = ? WHERE owner = ? AND key = ? AND status = 0 AND request_digest = ?",
                           arguments: [at.seconds, owner, key, digest])
            return db.changesCount > 0
        }
    }

    public func keepIdempotentAnswer(_ answer: IdempotentAnswer, owner: String, key: String, at: Instant) throws -> IdempotentAnswer {
        try database.write { db in
            try db.execute(sql: """
                INSERT INTO idempotency (owner, key, request_digest, status, body, created_at) VALUES (?, ?, ?, ?, ?, ?)
                ON CONFLICT (owner, key) DO UPDATE SET request_digest = excluded.request_digest, status = excluded.status,
                    body = excluded.body, created_at = excluded.created_at
                WHERE idempotency.status = 0
                """, arguments: [owner, key, answer.requestDigest, answer.status, Data(answer.body), at.seconds])
            try db.execute(sql: "DELETE FROM idempotency WHERE created_at < ?", arguments: [at.seconds - IdempotentAnswer.keptFor])
            return try Self.kept(db, owner: owner, key: key) ?? answer
        }
    }

    /// What is kept for `owner`'s `key`: an answer, a hold, or nothing.
    private static func kept(_ db: Database, owner: String, key: String) throws -> IdempotentAnswer? {
        try Row.fetchOne(db, sql: "SELECT request_digest, status, body FROM idempotency WHERE owner = ? AND key = ?",
                         arguments: [owner, key]).map(answer)
    }

    private static func answer(_ row: Row) -> IdempotentAnswer {
        IdempotentAnswer(requestDigest: row["request_digest"], status: row["status"], body: [UInt8](row["body"] as Data))
    }
}
