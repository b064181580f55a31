import ChimeCore
@testable import ChimeSQLite
import GRDB
import Synchronization
import Testing

/// The HTTP API's listings read a page from an index at its cursor: on a store of a
/// million rows a page costs what it costs on one of ten. What SQLite plans for the
/// statements the store runs (caught with SQLite's trace) shows it without timing anything.
extension SQLiteStoreTests {
    @Test("each page of pending and delivered, with or without a recipient and a cursor, is read from an index in the listing's order, never by sorting the table", arguments: [
        "pending", "delivered",
    ])
    func listingPlans(table: String) throws {
        let store = try store()
        let ran = Mutex<[String]>([])
        try store.database.read { db in
            db.trace(options: .statement) { event in
                if case let .statement(statement) = event { ran.withLock { $0.append(statement.expandedSQL) } }
            }
        }
        defer { try? store.database.read { db in db.trace(options: [], nil) } }
        for recipient in [nil, "alice"] {
            for after in [nil, ListingKey(seconds: 1_000, identifier: "m")] {
                if table == "pending" {
                    _ = try store.pending(recipient: recipient, limits: [:], after: after, count: 11)
                } else {
                    _ = try store.delivered(recipient: recipient, after: after, count: 11)
                }
            }
        }
        let pages = ran.withLock { $0 }.filter { $0.hasPrefix("SELECT * FROM \(table) ") }
        #expect(pages.count == 4, "\(ran.withLock { $0 })")
        for sql in pages {
            let plan = try store.database.read { db in try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + sql) }
                .map { $0["detail"] as String }.joined(separator: "; ")
            #expect(plan.contains("USING INDEX") || plan.contains("USING COVERING INDEX"), "\(sql): \(plan)")
            // A sort of every row read (rather than of rows with one instant, for a recipient).
            #expect(!plan.contains("TEMP B-TREE FOR ORDER BY"), "\(sql): \(plan)")
        }
    }
}
