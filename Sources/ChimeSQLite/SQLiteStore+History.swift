import ChimeCore
import Foundation
import GRDB

extension SQLiteStore {
    public func forgetHistory(before cutoff: Instant, dryRun: Bool) throws -> ForgottenHistory {
        var forgotten = ForgottenHistory()
        for kind in ForgottenHistory.kinds {
            // By the table's own order (NOT INDEXED: else SQLite read `outbox` by its state's
            // index and sorted what it found, the whole history again for every batch).
            let newest = kind.hasIDs ? " AND rowid < (SELECT MAX(rowid) FROM \(kind.table))" : ""
            if dryRun {
                forgotten[keyPath: kind.count] = try database.read { db in
                    try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(kind.table) NOT INDEXED WHERE \(kind.condition)\(newest)",
                                     arguments: [cutoff.seconds]) ?? 0
                }
                continue
            }
            var after: Int64 = 0
            while true {
                let ids = try database.write { db in
                    let ids = try Int64.fetchAll(db, sql: """
                        SELECT rowid FROM \(kind.table) NOT INDEXED WHERE rowid > ? AND \(kind.condition)\(newest)
                        ORDER BY rowid LIMIT \(kind.rowsAtATime)
                        """, arguments: [after, cutoff.seconds])
                    guard !ids.isEmpty else { return ids }
                    let rows = "rowid IN (" + ids.map(String.init).joined(separator: ",") + ")"
                    for dependent in kind.dependents {
                        try db.execute(sql: dependent.forgetting(of: kind, rows: rows))
                    }
                    if kind.flagsAnswered { try db.execute(sql: ForgottenHistory.flaggingAnswered(rows: rows)) }
                    try db.execute(sql: "DELETE FROM \(kind.table) WHERE \(rows)")
                    return ids
                }
                forgotten[keyPath: kind.count] += ids.count
                guard let last = ids.last, ids.count == kind.rowsAtATime else { break }
                after = last
                // The write lock left free a while: a writer that has waited for it (a run
                // marking what it sent, `chime schedule`) polls it every 25 to 100 ms,
                // and batches one after the other took it back first every time (a
                // `chime schedule` waited 2.8 s beside a prune of 1.4 million rows).
                Thread.sleep(forTimeInterval: Self.pauseBetweenBatches)
            }
        }
        return forgotten
    }

    /// How long the lock is left free between two batches of forgetting: a batch takes a
    /// few milliseconds, so about nine tenths of the time are others'.
    static let pauseBetweenBatches = 0.025
}
