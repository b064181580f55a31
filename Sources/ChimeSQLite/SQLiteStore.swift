import CChimeSQLiteVFS
import ChimeCore
import Foundation
import GRDB

/// The embedded default store: one SQLite file through GRDB, in WAL mode so that a
/// `chime run` and a `chime schedule` can work at the same time.
///
/// The SQL is kept portable (no SQLite-only syntax beyond `ON CONFLICT` and
/// `RETURNING`, which PostgreSQL shares) so the PostgreSQL store can follow it.
public final class SQLiteStore: NotificationStore, StoreMigrating {
    let database: StoreConnection

    /// The migrations opening this store ran (``StoreMigrating``).
    public let migrationsRun: [String]

    /// Checkpoints the log off the writing thread (none for an in-memory store).
    private let checkpointer: WALCheckpointer?

    /// Opens (creating when needed) the store at `path` and brings its schema up to date.
    /// - Throws: ``StoreFailure`` saying what is wrong and what to do.
    public init(path: String) throws {
        // Each frame of the log in one pwrite (CChimeSQLiteVFS), for every store the
        // process opens; when it cannot be registered, SQLite's own VFS does as before.
        _ = chime_wal_frames_register()
        let checkpointer = path == ":memory:" ? nil : WALCheckpointer(path: path)
        self.checkpointer = checkpointer
        var configuration = Configuration()
        configuration.busyMode = .timeout(30)
        configuration.prepareDatabase { db in
            checkpointer?.watch(db)
            // WAL lets readers and one writer work together; NORMAL synchronous is
            // durable across a killed process, which is what exactly-once relies on.
            try Self.useWAL(db)
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
            // 32 MiB of pages kept (SQLite's default is 2 MiB): firing 10,000 notifications from
            // a store of a million read 31,000 pages from the kernel one pread at a time,
            // the indexes of pending and delivered not fitting in 2 MiB. Only what is read
            // is kept: a tick with nothing to do stays as small.
            try db.execute(sql: "PRAGMA cache_size = -32768")
            // Debian builds SQLite to zero every deleted byte (SQLITE_SECURE_DELETE), so
            // each delivered email's body, dropped from the outbox, was written again as
            // zeros: 22,400 page writes for 2,000 emails against 15,900 with FAST, which
            // zeroes only pages being written anyway. A free page then keeps no more than
            // a reader of the file finds in the rest of it: the outbox's bodies still to
            // send, with their tokens, and every delivered request.
            try db.execute(sql: "PRAGMA secure_delete = FAST")
            // What a statement inside a transaction might have to undo (its statement
            // journal) kept in memory rather than spilled to a file in /var/tmp once past
            // 64 KiB: settling a batch of 500 moves rows on hundreds of pages, and firing
            // 10,000 into `file:` wrote 13 MB to 19 such files, 5,800 `pwrite`s, each
            // file deleted at the statement's end. A statement's journal is at most the
            // pages it changes, and Chime's statements change at most a batch's rows (a
            // `DELETE` of every row, as `chime cancel --all` runs, needs none: a million
            // pending cancelled at a peak of 64 MiB, 61 before); none outlives its
            // statement. SQLite's sorter spills to files whatever this says.
            try db.execute(sql: "PRAGMA temp_store = MEMORY")
        }
        // A new store is made readable by its owner only: it holds the signing key, and
        // SQLite gives its -wal and -shm files the database file's mode.
        if path != ":memory:", !FileManager.default.fileExists(atPath: path) {
            let descriptor = open(path, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o600)
            if descriptor >= 0 { Glibc.close(descriptor) }
        }
        do {
            let queue = try DatabaseQueue(path: path, configuration: configuration)
            checkpointer?.checkpointsBetweenTransactions(of: queue)
            migrationsRun = try Self.migrator.migrate(queue)
            database = StoreConnection(queue: queue)
        } catch {
            // A migration may have written enough to start the checkpoint thread, and a
            // store that failed to open is never deinitialized.
            checkpointer?.stop()
            throw StoreFailure(error, path: path) ?? error
        }
    }

    deinit {
        checkpointer?.stop()
    }

    /// Closes the store now: the last connection to a store checkpoints its log into the
    /// file and removes the `-wal` and `-shm` files. `chime serve` ends so, as its
    /// services may still hold the store when the process exits (a copy of `chime.sqlite`
    /// alone then lacked what was in the log).
    public func close() {
        checkpointer?.stop()
        try? database.queue.close()
    }

    /// Puts the store in WAL mode (once for good: the mode is kept in the file).
    ///
    /// Switching a new store's journal mode takes an exclusive lock for which SQLite does
    /// not call the busy handler: when several processes open a new store at the same
    /// moment (cron and a daemon on a fresh install), all but one get `SQLITE_BUSY` at
    /// once (2 in 160 openings in CI). So the switch is tried again, within the same 30 s
    /// as any other lock, and skipped when another process has made it meanwhile.
    static func useWAL(_ db: Database) throws {
        let deadline = ContinuousClock.now + .seconds(30)
        while true {
            do {
                if try String.fetchOne(db, sql: "PRAGMA journal_mode")?.lowercased() == "wal" { return }
                // Another program's database is refused before the switch, which is kept
                // in its file.
                _ = try SchemaMigrator.recordsMigrations(db)
                try db.execute(sql: "PRAGMA journal_mode = WAL")
                return
            } catch let error as DatabaseError where error.resultCode.primaryResultCode == .SQLITE_BUSY && ContinuousClock.now < deadline {
                Thread.sleep(forTimeInterval: 0.005)
            }
        }
    }

    // MARK: Pending

    @discardableResult
    public func upsert(_ notifications: [PendingNotification]) throws -> [String] {
        // Encoded before the store's one connection is taken: JSONEncoder is most of an
        // upsert's time (69,000 instructions a request), which other threads (`chime
        // ingest`'s workers, `chime serve`'s requests) would wait through.
        let requests = try notifications.map { try $0.request.storedJSON() }
        return try database.write { db in
            var replaced: [String] = []
            // Cached: `POST /v1/requests` upserts one request a call, and preparing these
            // two each time was most of the call's SQLite time.
            let existing = try db.cachedStatement(sql: "SELECT 1 FROM pending WHERE identifier = ?")
            let statement = try db.cachedStatement(sql: """
                INSERT INTO pending (identifier, recipient, request, added_at, next_fire, anchor, zone, floating, generation, claimed_by, claim_expires)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, NULL)
                ON CONFLICT (identifier) DO UPDATE SET
                    recipient = excluded.recipient, request = excluded.request, added_at = excluded.added_at,
                    next_fire = excluded.next_fire, anchor = excluded.anchor, zone = excluded.zone,
                    floating = excluded.floating, generation = excluded.generation, fired_count = 0, not_before = NULL,
                    claimed_by = NULL, claim_expires = NULL
                """)
            for (notification, request) in zip(notifications, requests) {
                if try Bool.fetchOne(existing, arguments: [notification.request.identifier]) != nil {
                    replaced.append(notification.request.identifier)
                }
                try statement.execute(arguments: [
                    notification.request.identifier, notification.request.recipient, request,
                    notification.added.seconds, notification.nextFire.seconds, notification.anchor.seconds,
                    notification.zone, notification.request.trigger.isFloating ? 1 : 0, notification.generation,
                ])
                if notification.request.trigger.isFloating {
                    try db.execute(sql: "INSERT INTO recipient_zone (recipient, zone) VALUES (?, ?) ON CONFLICT (recipient) DO NOTHING",
                                   arguments: [notification.request.recipient, notification.zone])
                    if db.changesCount > 0 { try Self.forgetFollowedConfiguration(db) }
                }
            }
            return replaced
        }
    }

    public func pending(recipient: String?, limits: [String: Int], after: ListingKey?, count: Int?) throws -> [PendingNotification] {
        try database.read { db in
            // By pending_next_fire (or pending_recipient) from `after` on: SQLite sorts
            // only the requests of one instant by identifier.
            let page = Self.page(recipient: recipient, after: after, descending: false, time: "next_fire", count: count)
            var notifications = try Self.pending(Row.fetchAll(db, sql: "SELECT * FROM pending" + page.sql, arguments: page.arguments))
            var boundaries: [[UInt8]: ListingKey]?
            if after != nil || count != nil {
                boundaries = [:]
                for (recipient, limit) in notifications.limitedRecipients(limits) {
                    boundaries?[[UInt8](recipient.utf8)] = try Row.fetchOne(db, sql: """
                        SELECT next_fire, identifier FROM pending WHERE recipient = ? ORDER BY next_fire, identifier LIMIT 1 OFFSET ?
                        """, arguments: [recipient, limit - 1]).map { ListingKey(seconds: $0[0], identifier: $0[1]) }
                }
            }
            notifications.setAside(beyond: limits, boundaries: boundaries)
            return notifications
        }
    }

    /// The `WHERE … ORDER BY … LIMIT` of a page of a listing sorted by the column `time`
    /// (the newest first when `descending`), then by identifier, all or one recipient's.
    static func page(recipient: String?, after: ListingKey?, descending: Bool, time: String, count: Int?) -> (sql: String, arguments: StatementArguments) {
        var conditions: [String] = []
        var arguments: StatementArguments = []
        if let recipient {
            conditions.append("recipient = ?")
            arguments += [recipient]
        }
        if let after {
            // The first condition alone is what SQLite reads the index's range by (it does
            // not from the OR, whose two `?` it takes for two values): else each page
            // walked the index from its start to the cursor.
            conditions.append("\(time) \(descending ? "<=" : ">=") ? AND (\(time) \(descending ? "<" : ">") ? OR (\(time) = ? AND identifier > ?))")
            arguments += [after.seconds, after.seconds, after.seconds, after.identifier]
        }
        arguments += [count ?? -1]
        return ((conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND "))
                + " ORDER BY \(time)\(descending ? " DESC" : ""), identifier LIMIT ?", arguments)
    }

    public func together<T>(_ body: () throws -> T) throws -> T {
        try database.together(body)
    }

    public func pending(identifier: String) throws -> PendingNotification? {
        guard NotificationRequest.canBeIdentifier(identifier) else { return nil }
        return try database.read { db in
            // Cached: a reply's snooze asks it once per reply.
            try Row.fetchOne(db.cachedStatement(sql: "SELECT * FROM pending WHERE identifier = ?"), arguments: [identifier]).map(Self.pending)
        }
    }

    public func cancel(_ identifiers: [String]) throws -> [String] {
        try delete(identifiers, from: "pending")
    }

    public func cancelAll() throws -> Int {
        try deleteAll(from: "pending")
    }

    /// Deletes rows by identifier; returns the identifiers that were there.
    private func delete(_ identifiers: [String], from table: String) throws -> [String] {
        try database.write { db in
            try identifiers.filter(NotificationRequest.canBeIdentifier).filter { identifier in
                try db.execute(sql: "DELETE FROM \(table) WHERE identifier = ?", arguments: [identifier])
                return db.changesCount > 0
            }
        }
    }

    private func deleteAll(from table: String) throws -> Int {
        try database.write { db in
            try db.execute(sql: "DELETE FROM \(table)")
            return db.changesCount
        }
    }

    // MARK: Delivered

    public func delivered(recipient: String?, after: ListingKey?, count: Int?) throws -> [DeliveredNotification] {
        try database.read { db in
            let page = Self.page(recipient: recipient, after: after, descending: true, time: "delivered_at", count: count)
            return try Row.fetchAll(db, sql: "SELECT * FROM delivered" + page.sql, arguments: page.arguments).map { row in
                DeliveredNotification(
                    request: try NotificationRequest(storedJSON: row["request"], table: .delivered, identifier: row["identifier"]),
                    fireDate: Instant(seconds: row["fire_date"]),
                    deliveredAt: Instant(seconds: row["delivered_at"]),
                    deliveryID: row["delivery_id"],
                    coalesced: row["coalesced"])
            }
        }
    }

    /// A removed notification still waiting for its digest or its thread's message is
    /// taken out of it too.
    public func removeDelivered(_ identifiers: [String]) throws -> [String] {
        try database.write { db in
            try identifiers.filter(NotificationRequest.canBeIdentifier).filter { identifier in
                // Every occurrence parked: delivered keeps only the latest, and a repeating
                // request parks one each time, under its generation (`GENERATION.FIRE`):
                // each generation's parked ids are read by the primary key's order.
                let generations = try Set(String.fetchAll(db, sql: "SELECT delivery_id FROM delivered WHERE identifier = ?", arguments: [identifier])
                    .map { PendingNotification.parts(ofDelivery: $0).generation })
                    .union(String.fetchAll(db, sql: "SELECT generation FROM pending WHERE identifier = ?", arguments: [identifier]))
                for generation in generations {
                    let range = PendingNotification.deliveryIDs(ofGeneration: generation)
                    let ids = try String.fetchAll(db, sql: "SELECT delivery_id FROM parked WHERE delivery_id >= ? AND delivery_id < ? AND digest IS NULL",
                                                  arguments: [range.from, range.upTo])
                    for id in ids where PendingNotification.isOccurrence(id, of: generation) {
                        try db.execute(sql: "DELETE FROM parked WHERE delivery_id = ? AND digest IS NULL", arguments: [id])
                    }
                }
                try db.execute(sql: "DELETE FROM delivered WHERE identifier = ?", arguments: [identifier])
                return db.changesCount > 0
            }
        }
    }

    public func removeAllDelivered() throws -> Int {
        try database.write { db in
            try db.execute(sql: "DELETE FROM parked WHERE digest IS NULL")
            try db.execute(sql: "DELETE FROM delivered")
            return db.changesCount
        }
    }

    // MARK: Floating triggers

    public func recipientZones() throws -> [String: String] {
        try database.read(Self.recipientZones)
    }

    static func recipientZones(_ db: Database) throws -> [String: String] {
        Dictionary(uniqueKeysWithValues: try Row.fetchAll(db, sql: "SELECT recipient, zone FROM recipient_zone").map { ($0["recipient"], $0["zone"]) })
    }

    public func floatingPending(recipient: String) throws -> [PendingNotification] {
        try database.read { db in
            try Self.pending(Row.fetchAll(db, sql: "SELECT * FROM pending WHERE recipient = ? AND floating = 1", arguments: [recipient]))
        }
    }

    public func moveRecipient(_ recipient: String, to zone: String, updated: [PendingNotification]) throws {
        try database.write { db in
            for notification in updated {
                try db.execute(sql: "UPDATE pending SET next_fire = ?, zone = ? WHERE identifier = ? AND generation = ?",
                               arguments: [notification.nextFire.seconds, notification.zone, notification.request.identifier, notification.generation])
            }
            try db.execute(sql: "INSERT INTO recipient_zone (recipient, zone) VALUES (?, ?) ON CONFLICT (recipient) DO UPDATE SET zone = excluded.zone",
                           arguments: [recipient, zone])
            try Self.forgetFollowedConfiguration(db)
        }
    }

    // MARK: Rows

    static func pending(_ row: Row) throws -> PendingNotification {
        try pending([row])[0]
    }

    /// Rows of one statement selecting `pending`'s columns; the first whose request cannot
    /// be read is the error.
    static func pending(_ rows: [Row]) throws -> [PendingNotification] {
        let read = readPending(rows)
        if let unreadable = read.unreadable.first { throw unreadable }
        return read.notifications
    }

    /// Rows of one statement selecting `pending`'s columns, read by position
    /// (``ColumnPositions``; a claim reads eight values a row), those whose request cannot
    /// be read apart.
    static func readPending(_ rows: [Row]) -> ClaimedDue {
        var read = ClaimedDue()
        guard let position = ColumnPositions(rows) else { return read }
        let identifier = position["identifier"], request = position["request"], added = position["added_at"], nextFire = position["next_fire"]
        let anchor = position["anchor"], zone = position["zone"], generation = position["generation"], firedCount = position["fired_count"]
        read.notifications.reserveCapacity(rows.count)
        for row in rows {
            let json: String = row[request]
            let generation: String = row[generation]
            do throws(UnreadableStoredRequest) {
                var notification = PendingNotification(
                    request: try NotificationRequest(storedJSON: json, table: .pending, identifier: row[identifier], generation: generation),
                    added: Instant(seconds: row[added]),
                    nextFire: Instant(seconds: row[nextFire]),
                    anchor: Instant(seconds: row[anchor]),
                    zone: row[zone],
                    generation: generation)
                notification.firedCount = row[firedCount]
                notification.encodedRequest = json
                read.notifications.append(notification)
            } catch {
                read.unreadable.append(error)
            }
        }
        return read
    }
}
