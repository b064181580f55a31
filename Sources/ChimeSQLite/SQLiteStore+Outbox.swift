import ChimeCore
import Foundation
import GRDB

/// The outbox: network deliveries queued when their notification fires, claimed and tried
/// by runs, each attempt recorded, until delivered or failed.
extension SQLiteStore {
    /// Inserts the deliveries of one fired notification (inside the caller's transaction).
    /// A destination already queued for this occurrence is kept as it is.
    static func enqueue(_ queued: [QueuedDelivery], deliveryID: String, identifier: String, recipient: String, at: Instant,
                        in db: Database) throws {
        guard !queued.isEmpty else { return }
        let insert = try db.cachedStatement(sql: """
            INSERT INTO outbox (delivery_id, identifier, recipient, channel, address, state, queued_at, next_attempt)
            VALUES (?, ?, ?, ?, ?, 'queued', ?, ?)
            ON CONFLICT (delivery_id, channel, address) DO NOTHING
            """)
        let body = try db.cachedStatement(sql: "INSERT INTO outbox_body (outbox_id, body) VALUES (?, ?)")
        for delivery in queued {
            try insert.execute(arguments: [
                deliveryID, identifier, recipient, delivery.channel, delivery.address, at.seconds, at.seconds,
            ])
            if db.changesCount > 0 { try body.execute(arguments: [db.lastInsertedRowID, Data(delivery.body)]) }
        }
    }

    public func claimOutbox(now: Instant, limit: Int, claimer: Claimer, leaseNow: Instant, leaseUntil: Instant) throws -> [OutboxDelivery] {
        // Asked often while a run is still firing: a read when nothing is due, no write.
        let anything = try database.read { db in
            try Bool.fetchOne(db, sql: "SELECT 1 FROM outbox WHERE state = 'queued' AND next_attempt <= ? LIMIT 1", arguments: [now.seconds]) != nil
        }
        guard anything else { return [] }
        return try database.write { db in
            var claimed = try Row.fetchAll(db, sql: """
                UPDATE outbox SET claimed_by = ?, claim_expires = ?
                WHERE id IN (
                    SELECT id FROM outbox WHERE state = 'queued' AND next_attempt <= ?
                    AND (claimed_by IS NULL OR claim_expires <= ?)
                    ORDER BY next_attempt, id LIMIT ?)
                RETURNING *
                """, arguments: [claimer.description, leaseUntil.seconds, now.seconds, leaseNow.seconds, limit])
                .outboxDeliveries { _ in [] }
                .sorted { $0.id < $1.id }
            guard !claimed.isEmpty else { return [] }
            var bodies: [Int64: Data] = [:]
            let marks = Array(repeating: "?", count: claimed.count).joined(separator: ",")
            for row in try Row.fetchAll(db, sql: "SELECT outbox_id, body FROM outbox_body WHERE outbox_id IN (\(marks))",
                                        arguments: StatementArguments(claimed.map(\.id))) {
                bodies[row["outbox_id"]] = row["body"]
            }
            for index in claimed.indices { claimed[index].body = [UInt8](bodies[claimed[index].id] ?? Data()) }
            return claimed
        }
    }

    public func record(_ records: [AttemptRecord], claimer: Claimer) throws {
        guard !records.isEmpty else { return }
        try database.write { db in
            let attempt = try db.cachedStatement(sql: "INSERT INTO attempt (outbox_id, at, outcome, code, message) VALUES (?, ?, ?, ?, ?)")
            // Only the claimer's own claim is updated: one whose lease ran out and was
            // taken over leaves the row to its new claimer.
            let update = try db.cachedStatement(sql: """
                UPDATE outbox SET state = ?, attempts = attempts + ?, next_attempt = COALESCE(?, next_attempt),
                    claimed_by = CASE WHEN ? THEN claimed_by ELSE NULL END,
                    claim_expires = CASE WHEN ? THEN claim_expires ELSE NULL END
                WHERE id = ? AND claimed_by = ?
                """)
            let dropBody = try db.cachedStatement(sql: "DELETE FROM outbox_body WHERE outbox_id = ?")
            for record in records {
                try attempt.execute(arguments: [
                    record.id, record.attempt.at.seconds, record.attempt.outcome.rawValue, record.attempt.code, record.attempt.message,
                ])
                try update.execute(arguments: [
                    record.state.rawValue, record.countsAsAttempt ? 1 : 0, record.nextAttempt?.seconds,
                    record.keepClaim, record.keepClaim, record.id, claimer.description,
                ])
                if record.state == .delivered && db.changesCount > 0 { try dropBody.execute(arguments: [record.id]) }
            }
        }
    }

    public func deliveries(state: DeliveryState?) throws -> [OutboxDelivery] {
        try database.read { db in
            var history: [Int64: [DeliveryAttempt]] = [:]
            // Every state, or the one asked for (`?` bound to NULL matches all).
            let arguments: StatementArguments = [state?.rawValue, state?.rawValue]
            for row in try Row.fetchAll(db, sql: """
                SELECT attempt.* FROM attempt JOIN outbox ON outbox.id = attempt.outbox_id
                WHERE ? IS NULL OR outbox.state = ? ORDER BY attempt.id
                """, arguments: arguments) {
                history[row["outbox_id"], default: []].append(DeliveryAttempt(
                    at: Instant(seconds: row["at"]), outcome: DeliveryAttempt.Outcome(rawValue: row["outcome"]) ?? .temporary,
                    code: row["code"], message: row["message"]))
            }
            return try Row.fetchAll(db, sql: "SELECT * FROM outbox WHERE ? IS NULL OR state = ? ORDER BY id", arguments: arguments)
                .outboxDeliveries { history[$0] ?? [] }
        }
    }

    public func retry(_ ids: [Int64]?, now: Instant) throws -> (queued: [Int64], notFailed: [Int64]) {
        try database.write { db in
            let failed = try Int64.fetchAll(db, sql: "SELECT id FROM outbox WHERE state = 'failed' ORDER BY id")
            let selected = ids ?? failed
            let known = Set(failed)
            let notFailed = selected.filter { !known.contains($0) }
            guard notFailed.isEmpty else { return ([], notFailed) }
            let queue = try db.cachedStatement(sql: """
                UPDATE outbox SET state = 'queued', attempts = 0, queued_at = ?, next_attempt = ?, claimed_by = NULL, claim_expires = NULL
                WHERE id = ?
                """)
            for id in selected { try queue.execute(arguments: [now.seconds, now.seconds, id]) }
            return (selected, [])
        }
    }

}

extension [Row] {
    /// The deliveries of outbox rows (one statement's), without their bodies, each with the
    /// history `history` gives for its id; read by position (``ColumnPositions``).
    fileprivate func outboxDeliveries(history: (Int64) -> [DeliveryAttempt]) -> [OutboxDelivery] {
        guard let position = ColumnPositions(self) else { return [] }
        let id = position["id"], deliveryID = position["delivery_id"], identifier = position["identifier"], recipient = position["recipient"]
        let channel = position["channel"], address = position["address"], state = position["state"], attempts = position["attempts"]
        let queuedAt = position["queued_at"], nextAttempt = position["next_attempt"]
        return map { row in
            OutboxDelivery(
                id: row[id], deliveryID: row[deliveryID], identifier: row[identifier], recipient: row[recipient],
                channel: row[channel], address: row[address], body: [],
                state: DeliveryState(rawValue: row[state]) ?? .queued, attempts: row[attempts],
                queuedAt: Instant(seconds: row[queuedAt]), nextAttempt: Instant(seconds: row[nextAttempt]), history: history(row[id]))
        }
    }
}
