import GRDB

/// The SQLite store's one connection (a GRDB `DatabaseQueue`), read without
/// `PRAGMA query_only`.
///
/// `DatabaseQueue.read` brackets every read with `PRAGMA query_only = 1` and `= 0`, and
/// SQLite expires every prepared statement of the connection after a flag pragma: each
/// cached statement was compiled again on its next use after any read (14% of
/// `chime ingest`'s time went to `sqlite3Reprepare`). Reads here run in a deferred
/// transaction on the same serialized connection, as consistent as before; only the
/// read-only guard is gone.
///
/// Inside ``together(_:)`` every read and write of this connection made on the same
/// thread joins the one transaction it opened: a write in a savepoint of its own (so
/// that a write whose error is caught leaves nothing behind), a read as it is.
struct StoreConnection: Sendable {
    let queue: DatabaseQueue

    /// The transaction ``together(_:)`` holds open, and the connection it is on.
    private final class Open: @unchecked Sendable { // used only on the thread that opened it
        let db: Database
        let queue: ObjectIdentifier

        init(_ db: Database, on queue: DatabaseQueue) {
            self.db = db
            self.queue = ObjectIdentifier(queue)
        }
    }

    /// Bound on the thread (or task) running a ``together(_:)`` body only.
    @TaskLocal private static var open: Open?

    /// The open transaction of ``together(_:)`` on this connection, when the caller is in one.
    private var joined: Database? {
        guard let open = Self.open, open.queue == ObjectIdentifier(queue) else { return nil }
        return open.db
    }

    /// Runs `body` in a deferred (read) transaction.
    func read<T>(_ body: (Database) throws -> T) throws -> T {
        if let db = joined { return try body(db) }
        return try queue.unsafeRead { db in
            var result: T?
            try db.inTransaction(.deferred) {
                result = try body(db)
                return .commit
            }
            return result!
        }
    }

    /// Runs `updates` in a transaction (GRDB's `write`).
    func write<T>(_ updates: (Database) throws -> T) throws -> T {
        if let db = joined {
            var result: T?
            try db.inSavepoint {
                result = try updates(db)
                return .commit
            }
            return result!
        }
        return try queue.write(updates)
    }

    /// Runs `body`, whose reads and writes of this connection (on this thread) make one
    /// write transaction: one lock, one commit. Nested, it joins the open one.
    func together<T>(_ body: () throws -> T) throws -> T {
        if joined != nil { return try body() }
        return try queue.write { db in try Self.$open.withValue(Open(db, on: queue)) { try body() } }
    }

    /// Runs `updates` outside of any transaction (GRDB's `writeWithoutTransaction`).
    func writeWithoutTransaction<T>(_ updates: (Database) throws -> T) rethrows -> T {
        try queue.writeWithoutTransaction(updates)
    }
}
