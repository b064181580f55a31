import ChimeCore
@testable import ChimeSQLite
import Foundation
import GRDB
import Testing

/// The store's one connection: its transactions, and what guards them (in the SQLite
/// store's suite, with its temporary store).
extension SQLiteStoreTests {
    private func pending(_ identifier: String) -> PendingNotification {
        PendingNotification(
            request: NotificationRequest(identifier: identifier, recipient: "alice",
                                         content: NotificationContent(title: identifier, categoryIdentifier: "reminder"),
                                         trigger: .timeInterval(seconds: 60, repeats: false)),
            added: Instant(seconds: 0), nextFire: Instant(seconds: 60), anchor: Instant(seconds: 0), zone: "UTC", generation: "g-\(identifier)")
    }

    @Test("a write that fails midway leaves none of its rows, inside together (where the writes around it commit) or not; an error out of together undoes everything, out of a nested together all of its own")
    func failedWrites() throws {
        let store = try self.store()
        let connection = store.database
        try connection.write { db in try db.execute(sql: "CREATE TABLE scratch (x TEXT NOT NULL)") }
        struct Midway: Error {}
        func write(_ values: [String], failing: Bool = false) throws {
            try connection.write { db in
                for value in values { try db.execute(sql: "INSERT INTO scratch (x) VALUES (?)", arguments: [value]) }
                if failing { throw Midway() }
            }
        }
        let rows = { try connection.read { db in Set(try String.fetchAll(db, sql: "SELECT x FROM scratch")) } }
        try connection.together {
            try write(["before"])
            #expect(throws: Midway.self) { try write(["half", "done"], failing: true) }
            // Twice, so that the savepoint is taken again after one was rolled back to.
            #expect(throws: Midway.self) { try write(["half again"], failing: true) }
            try write(["after"])
            // A nested together (one reply of many in chime ingest's transaction): an error
            // out of it undoes its own writes, however many, and no others.
            #expect(throws: Midway.self) {
                try connection.together {
                    try write(["nested"])
                    try write(["nested too"])
                    throw Midway()
                }
            }
            try connection.together { try write(["kept"]) }
            #expect(try rows() == ["before", "after", "kept"])
        }
        #expect(try rows() == ["before", "after", "kept"])
        // Outside of together, one transaction rolled back.
        #expect(throws: Midway.self) { try write(["alone"], failing: true) }
        #expect(throws: Midway.self) {
            try connection.together {
                try write(["undone"])
                throw Midway()
            }
        }
        #expect(try rows() == ["before", "after", "kept"])
        // The connection is usable after all three, outside together and in it.
        try write(["later"])
        try connection.together { try write(["last"]) }
        #expect(try rows() == ["before", "after", "kept", "later", "last"])
    }

    @Test("once SQLite has rolled the transaction of together back by itself, nothing after it in the body runs outside of it, even when the body catches the error")
    func abortedTogether() throws {
        let store = try self.store()
        let identifiers = { Set(try store.pending(recipient: nil, limits: [:]).map(\.request.identifier)) }
        var caught: [any Error] = []
        #expect(throws: (any Error).self) {
            try store.together {
                try store.upsert([pending("rolled back")])
                // What SQLite does by itself on a full disk or an I/O error.
                try store.database.read { db in try db.execute(sql: "ROLLBACK") }
                // The body catches the store's errors and goes on, as a reply's handling may.
                do { try store.upsert([pending("after")]) } catch { caught.append(error) }
                do { _ = try store.pending(identifier: "rolled back") } catch { caught.append(error) }
            }
        }
        #expect(caught.count == 2)
        #expect(caught.allSatisfy { ($0 as? DatabaseError)?.resultCode == .SQLITE_ABORT })
        #expect(try identifiers().isEmpty)
        // The connection is usable afterwards.
        _ = try store.together { try store.upsert([pending("later")]) }
        #expect(try identifiers() == ["later"])
    }
}
