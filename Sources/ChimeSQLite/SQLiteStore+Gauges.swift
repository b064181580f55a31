import ChimeCore
import GRDB

extension SQLiteStore {
    public func gauges(now: Instant) throws -> StoreGauges {
        try database.read { db in
            var gauges = StoreGauges()
            // Each by an index: pending_next_fire, outbox_due (state, next_attempt).
            gauges.pending = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM pending") ?? 0
            // Overdue: due, and not held by quiet hours past now (whose hold is no failure to
            // fire: counted, a reminder held overnight raised the README's "nothing fires"
            // alert every night); overdue since its hold ended, when it had one.
            if let row = try Row.fetchOne(db, sql: """
                SELECT COUNT(*) AS due, MIN(MAX(next_fire, COALESCE(not_before, next_fire))) AS since FROM pending
                WHERE next_fire <= ? AND (not_before IS NULL OR not_before <= ?)
                """, arguments: [now.seconds, now.seconds]) {
                gauges.overdue = row["due"]
                if gauges.overdue > 0, let since: Int64 = row["since"] { gauges.oldestOverdue = Instant(seconds: since) }
            }
            let outbox = "SELECT COUNT(*) AS n, MIN(queued_at) AS oldest FROM outbox WHERE state = ?"
            if let row = try Row.fetchOne(db, sql: outbox, arguments: [DeliveryState.queued.rawValue]) {
                gauges.outboxQueued = row["n"]
                gauges.oldestQueued = (row["oldest"] as Int64?).map { Instant(seconds: $0) }
            }
            gauges.outboxFailed = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM outbox WHERE state = ?",
                                                   arguments: [DeliveryState.failed.rawValue]) ?? 0
            return gauges
        }
    }
}
