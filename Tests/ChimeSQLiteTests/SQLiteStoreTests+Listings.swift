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
        let ran = try Self.statements(of: store) {
            for recipient in [nil, "alice"] {
                for after in [nil, ListingKey(seconds: 1_000, identifier: "m")] {
                    if table == "pending" {
                        _ = try store.pending(recipient: recipient, limits: [:], after: after, count: 11)
                    } else {
                        _ = try store.delivered(recipient: recipient, after: after, count: 11)
                    }
                }
            }
        }
        let pages = ran.filter { $0.hasPrefix("SELECT * FROM \(table) ") }
        #expect(pages.count == 4, "\(ran)")
        for sql in pages {
            let plan = try Self.plan(of: sql, in: store)
            #expect(plan.contains("USING INDEX") || plan.contains("USING COVERING INDEX"), "\(sql): \(plan)")
            // A sort of every row read (rather than of rows with one instant, for a recipient).
            #expect(!plan.contains("TEMP B-TREE FOR ORDER BY"), "\(sql): \(plan)")
        }
    }

    @Test("a page of failed or queued deliveries reads those alone, from the index whose state comes first; delivered ones and all of them are read from the primary key, not by sorting the outbox")
    func deliveryPlans() throws {
        let store = try store()
        var plans: [DeliveryState?: [String]] = [:]
        for state in [nil] + DeliveryState.allCases.map(Optional.some) {
            for after: Int64? in [nil, 1_000] {
                let ran = try Self.statements(of: store) { _ = try store.deliveries(state: state, after: after, count: 11) }
                let page = try #require(ran.first { $0.hasPrefix("SELECT id, delivery_id") })
                plans[state, default: []].append(try Self.plan(of: page, in: store))
            }
        }
        // The rows of that state alone, sorted.
        for plan in plans[.failed]! + plans[.queued]! { #expect(plan.contains("USING INDEX outbox_due (state=?)"), "\(plan)") }
        for plan in plans[.delivered]! + plans[nil]! {
            #expect(plan.contains("INTEGER PRIMARY KEY"), "\(plan)")
            #expect(!plan.contains("TEMP B-TREE"), "\(plan)")
        }
    }

    /// The statements `store` ran during `body` (SQLite's trace), as run.
    private static func statements(of store: SQLiteStore, during body: () throws -> Void) throws -> [String] {
        let ran = Mutex<[String]>([])
        try store.database.read { db in
            db.trace(options: .statement) { event in
                if case let .statement(statement) = event { ran.withLock { $0.append(statement.expandedSQL) } }
            }
        }
        defer { try? store.database.read { db in db.trace(options: [], nil) } }
        try body()
        return ran.withLock { $0 }
    }

    /// What SQLite plans for `sql`, its steps joined by "; ".
    private static func plan(of sql: String, in store: SQLiteStore) throws -> String {
        try store.database.read { db in try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + sql) }.map { $0["detail"] as String }.joined(separator: "; ")
    }
}
