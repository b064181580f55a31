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
/// thread joins the one transaction it opened: a write (or a nested ``together(_:)``) in
/// a savepoint of its own (so that a write whose error is caught leaves nothing behind),
/// a read as it is.
///
/// Transactions and savepoints are begun and ended by statements compiled once a
/// connection (see ``bracketed(_:_:_:_:undo:)``).
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

    /// The open transaction of ``together(_:)`` on this connection, when the caller is in
    /// one.
    /// - Throws: `SQLITE_ABORT` when SQLite has rolled that transaction back by itself
    ///   (a full disk, an I/O error) and the body caught the error and went on: what it
    ///   read or wrote next would otherwise be outside of the transaction, each statement
    ///   committed on its own. (GRDB's own transactions guard their body the same way.)
    private func joined() throws -> Database? {
        guard let open = Self.open, open.queue == ObjectIdentifier(queue) else { return nil }
        guard open.db.isInsideTransaction else {
            throw DatabaseError(resultCode: .SQLITE_ABORT, message: "Transaction was aborted")
        }
        return open.db
    }

    /// Runs `body` in a deferred (read) transaction.
    func read<T>(_ body: (Database) throws -> T) throws -> T {
        if let db = try joined() { return try body(db) }
        return try queue.unsafeRead { db in try Self.transaction(db, "BEGIN DEFERRED TRANSACTION", body) }
    }

    /// Runs `updates` in an immediate transaction (as GRDB's `write` does); inside
    /// ``together(_:)``, in a savepoint of that transaction.
    func write<T>(_ updates: (Database) throws -> T) throws -> T {
        if let db = try joined() { return try Self.savepoint(db, "chime", updates) }
        return try immediate(updates)
    }

    /// Runs `body`, whose reads and writes of this connection (on this thread) make one
    /// write transaction: one lock, one commit. Nested, it is a savepoint of the open one:
    /// what `body` wrote is undone when it throws, and what the outer body did before it
    /// stands (`chime ingest` takes many replies in one transaction, each in its own).
    func together<T>(_ body: () throws -> T) throws -> T {
        if let db = try joined() { return try Self.savepoint(db, "chime_together") { _ in try body() } }
        return try immediate { db in try Self.$open.withValue(Open(db, on: queue)) { try body() } }
    }

    /// `body` in a savepoint `name` of the open transaction: released when it returns,
    /// rolled back to when it throws.
    private static func savepoint<T>(_ db: Database, _ name: String, _ body: (Database) throws -> T) throws -> T {
        try bracketed(db, "SAVEPOINT \(name)", "RELEASE SAVEPOINT \(name)", body) { db in
            // Both fail harmlessly when SQLite already rolled the whole transaction back.
            try? db.cachedStatement(sql: "ROLLBACK TO SAVEPOINT \(name)").execute()
            try? db.cachedStatement(sql: "RELEASE SAVEPOINT \(name)").execute()
        }
    }

    /// `body` in an immediate (write) transaction of its own, as GRDB's `write` begins one.
    private func immediate<T>(_ body: (Database) throws -> T) throws -> T {
        try queue.writeWithoutTransaction { db in try Self.transaction(db, "BEGIN IMMEDIATE TRANSACTION", body) }
    }

    /// `body` in a transaction begun by `begin`: committed when it returns, rolled back
    /// when it throws.
    private static func transaction<T>(_ db: Database, _ begin: String, _ body: (Database) throws -> T) throws -> T {
        // GRDB's `rollback` only when SQLite has not rolled back by itself already.
        try bracketed(db, begin, "COMMIT TRANSACTION", body) { db in try? db.rollback() }
    }

    /// Runs `body` between `begin` and `end`, or `begin` and `undo` when it (or `end`)
    /// throws.
    ///
    /// Written here rather than with GRDB's `inTransaction` and `inSavepoint`, which
    /// compile their statements afresh each time, with the parsing of SQL text around
    /// them: `chime ingest` spent a tenth of its instructions there, 11 statements a reply
    /// at 5,000 to 34,000 instructions each, all of it holding the store (callgrind).
    /// These are compiled once a connection. The store's reads and writes let any error
    /// out at once; in ``together(_:)``, whose body may catch one and go on, ``joined()``
    /// keeps what follows from running outside of the transaction.
    private static func bracketed<T>(_ db: Database, _ begin: String, _ end: String, _ body: (Database) throws -> T,
                                     undo: (Database) -> Void) throws -> T {
        try db.cachedStatement(sql: begin).execute()
        do {
            let result = try body(db)
            try db.cachedStatement(sql: end).execute()
            return result
        } catch {
            undo(db)
            throw error
        }
    }

    /// Runs `updates` outside of any transaction (GRDB's `writeWithoutTransaction`).
    func writeWithoutTransaction<T>(_ updates: (Database) throws -> T) rethrows -> T {
        try queue.writeWithoutTransaction(updates)
    }
}
