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
struct StoreConnection: Sendable {
    let queue: DatabaseQueue

    /// Runs `body` in a deferred (read) transaction.
    func read<T>(_ body: (Database) throws -> T) throws -> T {
        try queue.unsafeRead { db in
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
        try queue.write(updates)
    }

    /// Runs `updates` outside of any transaction (GRDB's `writeWithoutTransaction`).
    func writeWithoutTransaction<T>(_ updates: (Database) throws -> T) rethrows -> T {
        try queue.writeWithoutTransaction(updates)
    }
}
