import ChimeCore
import Foundation
import GRDB

/// The answers of HTTP API calls sent with an `Idempotency-Key`.
extension SQLiteStore {
    public func idempotentAnswer(owner: String, key: String) throws -> IdempotentAnswer? {
        try database.read { db in
            try Row.fetchOne(db, sql: "SELECT request_digest, status, body FROM idempotency WHERE owner = ? AND key = ?",
                             arguments: [owner, key]).map(Self.answer)
        }
    }

    public func keepIdempotentAnswer(_ answer: IdempotentAnswer, owner: String, key: String, at: Instant) throws -> IdempotentAnswer {
        try database.write { db in
            try db.execute(sql: """
                INSERT INTO idempotency (owner, key, request_digest, status, body, created_at) VALUES (?, ?, ?, ?, ?, ?)
                ON CONFLICT (owner, key) DO NOTHING
                """, arguments: [owner, key, answer.requestDigest, answer.status, Data(answer.body), at.seconds])
            let kept = try Row.fetchOne(db, sql: "SELECT request_digest, status, body FROM idempotency WHERE owner = ? AND key = ?",
                                        arguments: [owner, key])
            return kept.map(Self.answer) ?? answer
        }
    }

    private static func answer(_ row: Row) -> IdempotentAnswer {
        IdempotentAnswer(requestDigest: row["request_digest"], status: row["status"], body: [UInt8](row["body"] as Data))
    }
}
