import ChimeCore
import GRDB

extension SQLiteStore {
    public func gauges(now: Instant) throws -> StoreGauges {
        try database.read { db in
            var gauges = StoreGauges()
            // Each by an index: pending_next_fire, outbox_due (state, next_attempt).
            if let row = try Row.fetchOne(db, sql: """
                SELECT COUNT(*) AS total, COUNT(CASE WHEN next_fire <= ? THEN 1 END) AS due,
                       MIN(next_fire) AS earliest FROM pending
                """, arguments: [now.seconds]) {
                gauges.pending = row["total"]
                gauges.overdue = row["due"]
                if gauges.overdue > 0, let earliest: Int64 = row["earliest"] { gauges.oldestOverdue = Instant(seconds: earliest) }
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
