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
            try insert.run([.text(deliveryID), .text(identifier), .text(recipient), .text(delivery.channel), .text(delivery.address),
                            .integer(at.seconds), .integer(at.seconds)], in: db)
            if db.changesCount > 0 { try body.run([.integer(db.lastInsertedRowID), .blob(delivery.body)], in: db) }
        }
    }

    public func claimOutbox(now: Instant, limit: Int, claimer: Claimer, leaseNow: Instant, leaseUntil: Instant) throws -> [OutboxDelivery] {
        // Asked often while a run is still firing: a read when nothing is due, no write.
        let anything = try database.read { db in
            try Bool.fetchOne(db, sql: "SELECT 1 FROM outbox WHERE state = 'queued' AND next_attempt <= ? LIMIT 1", arguments: [now.seconds]) != nil
        }
        guard anything else { return [] }
        return try database.write { db in
            var claimed: [OutboxDelivery] = []
            let claim = try db.cachedStatement(sql: """
                UPDATE outbox SET claimed_by = ?, claim_expires = ?
                WHERE id IN (
                    SELECT id FROM outbox WHERE state = 'queued' AND next_attempt <= ?
                    AND (claimed_by IS NULL OR claim_expires <= ?)
                    ORDER BY next_attempt, id LIMIT ?)
                RETURNING \(Self.outboxColumns)
                """)
            try claim.run([.text(claimer.description), .integer(leaseUntil.seconds), .integer(now.seconds), .integer(leaseNow.seconds),
                           .integer(limit)], in: db) { claimed.append(Self.outboxDelivery($0, history: [])) }
            claimed.sort { $0.id < $1.id }
            let body = try db.cachedStatement(sql: "SELECT body FROM outbox_body WHERE outbox_id = ?")
            for index in claimed.indices {
                try body.run([.integer(claimed[index].id)], in: db) { claimed[index].body = $0.blob(0) }
            }
            return claimed
        }
    }

    public func record(_ records: [AttemptRecord], claimer: Claimer) throws {
        guard !records.isEmpty else { return }
        let me = claimer.description
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
                try attempt.run([.integer(record.id), .integer(record.attempt.at.seconds), .text(record.attempt.outcome.rawValue),
                                 .integer(record.attempt.code), .text(record.attempt.message)], in: db)
                try update.run([.text(record.state.rawValue), .integer(record.countsAsAttempt ? 1 : 0), .integer(record.nextAttempt?.seconds),
                                .boolean(record.keepClaim), .boolean(record.keepClaim), .integer(record.id), .text(me)], in: db)
                if record.state == .delivered && db.changesCount > 0 { try dropBody.run([.integer(record.id)], in: db) }
            }
        }
    }

    public func deliveries(state: DeliveryState?, after: Int64?, count: Int?) throws -> [OutboxDelivery] {
        try database.read { db in
            // The page's rows by the primary key from `after` on, in the state asked for;
            // then the attempts of the same rows (the page's selection again, in the same
            // transaction).
            let page = "FROM outbox WHERE \(DeliveryState.listingCondition(state)) AND id > ? ORDER BY id LIMIT ?"
            let arguments: [BoundValue] = [.integer(after ?? 0), .integer(Int64(count ?? -1))]
            var deliveries: [OutboxDelivery] = []
            try db.makeStatement(sql: "SELECT \(Self.outboxColumns) \(page)").run(arguments, in: db) { row in
                deliveries.append(Self.outboxDelivery(row, history: []))
            }
            guard !deliveries.isEmpty else { return [] }
            deliveries.attach(try Row.fetchAll(db, sql: "SELECT * FROM attempt WHERE outbox_id IN (SELECT id \(page)) ORDER BY id",
                                               arguments: [after ?? 0, count ?? -1])
                .map { row in (row["outbox_id"], DeliveryAttempt(at: Instant(seconds: row["at"]), outcome: DeliveryAttempt.Outcome(rawValue: row["outcome"]) ?? .temporary,
                                                                 code: row["code"], message: row["message"])) })
            return deliveries
        }
    }

    /// The columns of an outbox row that make an ``OutboxDelivery`` (its body aside), in
    /// the order ``outboxDelivery(_:history:)`` reads them.
    private static let outboxColumns = "id, delivery_id, identifier, recipient, channel, address, state, attempts, queued_at, next_attempt"

    /// The delivery of a row of ``outboxColumns``, without its body.
    private static func outboxDelivery(_ row: SQLiteRow, history: [DeliveryAttempt]) -> OutboxDelivery {
        OutboxDelivery(
            id: row.integer(0), deliveryID: row.text(1), identifier: row.text(2), recipient: row.text(3),
            channel: row.text(4), address: row.text(5), body: [],
            state: DeliveryState(rawValue: row.text(6)) ?? .queued, attempts: Int(row.integer(7)),
            queuedAt: Instant(seconds: row.integer(8)), nextAttempt: Instant(seconds: row.integer(9)), history: history)
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
