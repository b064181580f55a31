import ChimeCore
import Foundation
import GRDB

/// The embedded default store: one SQLite file through GRDB, in WAL mode so that a
/// `chime run` and a `chime schedule` can work at the same time.
///
/// The SQL is kept portable (no SQLite-only syntax beyond `ON CONFLICT` and
/// `RETURNING`, which PostgreSQL shares) so the PostgreSQL store can follow it.
public final class SQLiteStore: NotificationStore {
    /// Why a store could not be opened or created (exit 73).
    public struct OpenError: Error, CustomStringConvertible {
        public var path: String
        public var message: String
        public var description: String { "\(path): error: cannot open the store: \(message)" }
    }

    private let database: DatabaseQueue

    /// Opens (creating when needed) the store at `path` and brings its schema up to date.
    public init(path: String) throws {
        var configuration = Configuration()
        configuration.busyMode = .timeout(30)
        configuration.prepareDatabase { db in
            // WAL lets readers and one writer work together; NORMAL synchronous is
            // durable across a killed process, which is what exactly-once relies on.
            try db.execute(sql: "PRAGMA journal_mode = WAL")
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
        }
        do {
            database = try DatabaseQueue(path: path, configuration: configuration)
            try Self.migrator.migrate(database)
        } catch let error as DatabaseError {
            throw OpenError(path: path, message: error.message ?? "\(error)")
        }
    }

    /// The schema, as named migrations applied once each, in order, never edited after
    /// release: a change is a new migration.
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1 pending and delivered notifications") { db in
            try db.execute(sql: """
                CREATE TABLE pending (
                    identifier TEXT PRIMARY KEY NOT NULL,
                    recipient TEXT NOT NULL,
                    request TEXT NOT NULL,
                    added_at INTEGER NOT NULL,
                    next_fire INTEGER NOT NULL,
                    anchor INTEGER NOT NULL,
                    zone TEXT NOT NULL,
                    floating INTEGER NOT NULL,
                    generation TEXT NOT NULL,
                    fired_count INTEGER NOT NULL DEFAULT 0,
                    claimed_by TEXT,
                    claim_expires INTEGER
                );
                CREATE INDEX pending_next_fire ON pending (next_fire);
                CREATE INDEX pending_recipient ON pending (recipient, next_fire);
                CREATE INDEX pending_claimed_by ON pending (claimed_by);
                CREATE TABLE delivered (
                    identifier TEXT PRIMARY KEY NOT NULL,
                    recipient TEXT NOT NULL,
                    request TEXT NOT NULL,
                    fire_date INTEGER NOT NULL,
                    delivered_at INTEGER NOT NULL,
                    delivery_id TEXT NOT NULL,
                    coalesced INTEGER NOT NULL
                );
                CREATE INDEX delivered_recipient ON delivered (recipient, delivered_at);
                CREATE TABLE recipient_zone (
                    recipient TEXT PRIMARY KEY NOT NULL,
                    zone TEXT NOT NULL
                );
                """)
        }
        migrator.registerMigration("v2 sent marks") { db in
            // One small row per delivery, written the moment the destination accepted
            // it; settled into delivered and pending once per batch. Keeps the per-message
            // commit to a page or two, and the record exact if the process dies.
            try db.execute(sql: """
                CREATE TABLE sent (
                    id INTEGER PRIMARY KEY,
                    claimed_by TEXT NOT NULL,
                    identifier TEXT NOT NULL,
                    generation TEXT NOT NULL,
                    recipient TEXT NOT NULL,
                    request TEXT NOT NULL,
                    fire_date INTEGER NOT NULL,
                    delivered_at INTEGER NOT NULL,
                    delivery_id TEXT NOT NULL,
                    coalesced INTEGER NOT NULL,
                    next_fire INTEGER,
                    anchor INTEGER NOT NULL
                )
                """)
        }
        return migrator
    }

    // MARK: Pending

    public func upsert(_ notifications: [PendingNotification]) throws {
        try database.write { db in
            let statement = try db.makeStatement(sql: """
                INSERT INTO pending (identifier, recipient, request, added_at, next_fire, anchor, zone, floating, generation, claimed_by, claim_expires)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, NULL)
                ON CONFLICT (identifier) DO UPDATE SET
                    recipient = excluded.recipient, request = excluded.request, added_at = excluded.added_at,
                    next_fire = excluded.next_fire, anchor = excluded.anchor, zone = excluded.zone,
                    floating = excluded.floating, generation = excluded.generation, fired_count = 0,
                    claimed_by = NULL, claim_expires = NULL
                """)
            for notification in notifications {
                try statement.execute(arguments: [
                    notification.request.identifier, notification.request.recipient, try Self.encode(notification.request),
                    notification.added.seconds, notification.nextFire.seconds, notification.anchor.seconds,
                    notification.zone, notification.request.trigger.isFloating ? 1 : 0, notification.generation,
                ])
                if notification.request.trigger.isFloating {
                    try db.execute(sql: "INSERT INTO recipient_zone (recipient, zone) VALUES (?, ?) ON CONFLICT (recipient) DO NOTHING",
                                   arguments: [notification.request.recipient, notification.zone])
                }
            }
        }
    }

    public func pending(recipient: String?, limits: [String: Int]) throws -> [PendingNotification] {
        var notifications = try database.read { db in
            let rows: [Row]
            if let recipient {
                rows = try Row.fetchAll(db, sql: "SELECT * FROM pending WHERE recipient = ? ORDER BY next_fire, identifier", arguments: [recipient])
            } else {
                rows = try Row.fetchAll(db, sql: "SELECT * FROM pending ORDER BY next_fire, identifier")
            }
            return try rows.map(Self.pending)
        }
        var counts: [String: Int] = [:]
        for index in notifications.indices {
            let recipient = notifications[index].request.recipient
            counts[recipient, default: 0] += 1
            if let limit = limits[recipient], counts[recipient]! > limit {
                notifications[index].isSetAside = true
            }
        }
        return notifications
    }

    public func pending(identifier: String) throws -> PendingNotification? {
        try database.read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM pending WHERE identifier = ?", arguments: [identifier]).map(Self.pending)
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
            try identifiers.filter { identifier in
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

    public func delivered(recipient: String?) throws -> [DeliveredNotification] {
        try database.read { db in
            let rows: [Row]
            if let recipient {
                rows = try Row.fetchAll(db, sql: "SELECT * FROM delivered WHERE recipient = ? ORDER BY delivered_at DESC, identifier", arguments: [recipient])
            } else {
                rows = try Row.fetchAll(db, sql: "SELECT * FROM delivered ORDER BY delivered_at DESC, identifier")
            }
            return try rows.map { row in
                DeliveredNotification(
                    request: try Self.decode(row["request"]),
                    fireDate: Instant(seconds: row["fire_date"]),
                    deliveredAt: Instant(seconds: row["delivered_at"]),
                    deliveryID: row["delivery_id"],
                    coalesced: row["coalesced"])
            }
        }
    }

    public func removeDelivered(_ identifiers: [String]) throws -> [String] {
        try delete(identifiers, from: "delivered")
    }

    public func removeAllDelivered() throws -> Int {
        try deleteAll(from: "delivered")
    }

    // MARK: Firing

    public func due(now: Instant, limit: Int, limits: [String: Int]) throws -> [PendingNotification] {
        try database.read { db in
            var found: [PendingNotification] = []
            for selection in try Self.dueSelections(db, now: now, free: { _ in "1 = 1" }, limits: limits) where found.count < limit {
                found += try Row.fetchAll(db, sql: "SELECT * FROM pending WHERE identifier IN (\(selection.sql) LIMIT \(limit - found.count))",
                                          arguments: selection.arguments).map(Self.pending)
            }
            return found.sorted(by: Self.soonestFirst)
        }
    }

    public func claimDue(now: Instant, limit: Int, claimer: Claimer, leaseNow: Instant, leaseUntil: Instant,
                         limits: [String: Int]) throws -> [PendingNotification] {
        try database.write { db in
            // Free of claims: never claimed, or the claimer's lease ran out.
            // A row marked sent by a claimer whose lease ran out waits for that mark to be
            // settled rather than being sent again.
            let free = { (table: String) in """
                (\(table).claimed_by IS NULL OR (\(table).claim_expires <= \(leaseNow.seconds) AND NOT EXISTS (
                    SELECT 1 FROM sent WHERE sent.identifier = \(table).identifier AND sent.generation = \(table).generation)))
                """ }
            var claimed: [PendingNotification] = []
            for selection in try Self.dueSelections(db, now: now, free: free, limits: limits) where claimed.count < limit {
                claimed += try Row.fetchAll(db, sql: """
                    UPDATE pending SET claimed_by = ?, claim_expires = ?
                    WHERE identifier IN (\(selection.sql) LIMIT \(limit - claimed.count))
                    RETURNING *
                    """, arguments: [claimer.description, leaseUntil.seconds] + selection.arguments).map(Self.pending)
            }
            return claimed.sorted(by: Self.soonestFirst)
        }
    }

    /// Subqueries selecting the identifiers of due, free notifications, soonest first:
    /// one over everything when no recipient has a pending limit; else one per due
    /// recipient, a limited one looking only at its soonest `limit` requests.
    /// `free` gives the condition for a row of the named table to be claimable.
    private static func dueSelections(_ db: Database, now: Instant, free: (String) -> String, limits: [String: Int]) throws
        -> [(sql: String, arguments: StatementArguments)] {
        guard !limits.isEmpty else {
            return [("SELECT identifier FROM pending WHERE next_fire <= ? AND \(free("pending")) ORDER BY next_fire", [now.seconds])]
        }
        let recipients = try String.fetchAll(db, sql: "SELECT DISTINCT recipient FROM pending WHERE next_fire <= ? AND \(free("pending"))", arguments: [now.seconds])
        return recipients.sorted().map { recipient in
            guard let window = limits[recipient] else {
                return ("SELECT identifier FROM pending WHERE recipient = ? AND next_fire <= ? AND \(free("pending")) ORDER BY next_fire", [recipient, now.seconds])
            }
            // The window's own columns, so the condition does not reach out to the rows
            // being updated (which would make SQLite evaluate it once per row).
            return ("""
                SELECT identifier FROM (
                    SELECT identifier, generation, next_fire, claimed_by, claim_expires FROM pending WHERE recipient = ?
                    ORDER BY next_fire, identifier LIMIT ?) AS allowed
                WHERE next_fire <= ? AND \(free("allowed")) ORDER BY next_fire
                """, [recipient, window, now.seconds])
        }
    }

    private static func soonestFirst(_ a: PendingNotification, _ b: PendingNotification) -> Bool {
        (a.nextFire.seconds, a.request.identifier) < (b.nextFire.seconds, b.request.identifier)
    }

    public func markSent(_ notification: PendingNotification, claimer: Claimer, delivered: DeliveredNotification, next: Instant?, anchor: Instant) throws {
        let request = try notification.encodedRequest ?? Self.encode(delivered.request)
        try database.write { db in
            try db.cachedStatement(sql: """
                INSERT INTO sent (claimed_by, identifier, generation, recipient, request, fire_date, delivered_at, delivery_id, coalesced, next_fire, anchor)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """).execute(arguments: [
                    claimer.description, delivered.request.identifier, notification.generation, delivered.request.recipient, request,
                    delivered.fireDate.seconds, delivered.deliveredAt.seconds, delivered.deliveryID, delivered.coalesced, next?.seconds,
                    anchor.seconds,
                ])
        }
    }

    public func settle(claimer: Claimer) throws -> Int {
        try database.write { db in
            let rows = try Row.fetchAll(db, sql: "SELECT identifier, generation, next_fire, anchor FROM sent WHERE claimed_by = ? ORDER BY id",
                                        arguments: [claimer.description])
            guard !rows.isEmpty else { return 0 }
            try db.execute(sql: """
                INSERT INTO delivered (identifier, recipient, request, fire_date, delivered_at, delivery_id, coalesced)
                SELECT identifier, recipient, request, fire_date, delivered_at, delivery_id, coalesced FROM sent
                WHERE claimed_by = ? ORDER BY id
                ON CONFLICT (identifier) DO UPDATE SET
                    recipient = excluded.recipient, request = excluded.request, fire_date = excluded.fire_date,
                    delivered_at = excluded.delivered_at, delivery_id = excluded.delivery_id, coalesced = excluded.coalesced
                """, arguments: [claimer.description])
            let move = try db.cachedStatement(sql: """
                UPDATE pending SET next_fire = ?, anchor = ?, fired_count = fired_count + 1, claimed_by = NULL, claim_expires = NULL
                WHERE identifier = ? AND generation = ? AND claimed_by = ?
                """)
            let remove = try db.cachedStatement(sql: "DELETE FROM pending WHERE identifier = ? AND generation = ? AND claimed_by = ?")
            for row in rows {
                let mine: StatementArguments = [row["identifier"] as String, row["generation"] as String, claimer.description]
                if let next = row["next_fire"] as Int64? {
                    try move.execute(arguments: [next, row["anchor"] as Int64] + mine)
                } else {
                    try remove.execute(arguments: mine)
                }
            }
            try db.execute(sql: "DELETE FROM sent WHERE claimed_by = ?", arguments: [claimer.description])
            return rows.count
        }
    }

    public func release(_ notification: PendingNotification, claimer: Claimer) throws {
        try database.write { db in
            try db.execute(sql: "UPDATE pending SET claimed_by = NULL, claim_expires = NULL WHERE identifier = ? AND generation = ? AND claimed_by = ?",
                           arguments: [notification.request.identifier, notification.generation, claimer.description])
        }
    }

    public func claimers() throws -> [(claimer: Claimer, leaseEnds: Instant?)] {
        try database.read { db in
            var leases: [String: Int64?] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT claimed_by, MAX(claim_expires) AS ends FROM pending WHERE claimed_by IS NOT NULL GROUP BY claimed_by") {
                leases[row["claimed_by"]] = row["ends"] as Int64?
            }
            for name in try String.fetchAll(db, sql: "SELECT DISTINCT claimed_by FROM sent") where leases[name] == nil {
                leases[name] = .some(nil)
            }
            return leases.sorted { $0.key < $1.key }.compactMap { name, ends in
                Claimer(name).map { ($0, ends.map(Instant.init(seconds:))) }
            }
        }
    }

    public func releaseClaims(of claimer: Claimer) throws -> Int {
        try database.write { db in
            try db.execute(sql: "UPDATE pending SET claimed_by = NULL, claim_expires = NULL WHERE claimed_by = ?", arguments: [claimer.description])
            return db.changesCount
        }
    }

    // MARK: Floating triggers

    public func recipientZones() throws -> [String: String] {
        try database.read { db in
            Dictionary(uniqueKeysWithValues: try Row.fetchAll(db, sql: "SELECT recipient, zone FROM recipient_zone").map { ($0["recipient"], $0["zone"]) })
        }
    }

    public func floatingPending(recipient: String) throws -> [PendingNotification] {
        try database.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM pending WHERE recipient = ? AND floating = 1", arguments: [recipient]).map(Self.pending)
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
        }
    }

    // MARK: Rows

    private static func pending(_ row: Row) throws -> PendingNotification {
        let json: String = row["request"]
        var notification = PendingNotification(
            request: try decode(json),
            added: Instant(seconds: row["added_at"]),
            nextFire: Instant(seconds: row["next_fire"]),
            anchor: Instant(seconds: row["anchor"]),
            zone: row["zone"],
            generation: row["generation"])
        notification.firedCount = row["fired_count"]
        notification.encodedRequest = json
        return notification
    }

    private static func encode(_ request: NotificationRequest) throws -> String {
        let encoder = JSONEncoder()
        encoder.userInfo[.storedJSON] = true
        return String(decoding: try encoder.encode(request), as: UTF8.self)
    }

    private static func decode(_ text: String) throws -> NotificationRequest {
        let decoder = JSONDecoder()
        decoder.userInfo[.storedJSON] = true
        return try decoder.decode(NotificationRequest.self, from: Data(text.utf8))
    }
}
