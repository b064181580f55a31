import ChimeCore
import GRDB

extension SQLiteStore {
    /// The schema, as named migrations applied once each, in order, never edited after
    /// release: a change is a new migration.
    static var migrator: SchemaMigrator {
        var migrator = SchemaMigrator()
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
        migrator.registerMigration("v3 outbox and attempts") { db in
            // One row per network destination of a fired notification; the bytes sent
            // every time it is tried in outbox_body (apart, so recording an attempt does
            // not rewrite them; dropped once delivered); each try in attempt. A delivery
            // is marked delivered only after the server took it.
            try db.execute(sql: """
                CREATE TABLE outbox (
                    id INTEGER PRIMARY KEY,
                    delivery_id TEXT NOT NULL,
                    identifier TEXT NOT NULL,
                    recipient TEXT NOT NULL,
                    channel TEXT NOT NULL,
                    address TEXT NOT NULL,
                    state TEXT NOT NULL,
                    attempts INTEGER NOT NULL DEFAULT 0,
                    queued_at INTEGER NOT NULL,
                    next_attempt INTEGER NOT NULL,
                    claimed_by TEXT,
                    claim_expires INTEGER
                );
                CREATE UNIQUE INDEX outbox_destination ON outbox (delivery_id, channel, address);
                CREATE INDEX outbox_due ON outbox (state, next_attempt);
                CREATE INDEX outbox_claimed_by ON outbox (claimed_by);
                CREATE TABLE outbox_body (
                    outbox_id INTEGER PRIMARY KEY REFERENCES outbox (id) ON DELETE CASCADE,
                    body BLOB NOT NULL
                );
                CREATE TABLE attempt (
                    id INTEGER PRIMARY KEY,
                    outbox_id INTEGER NOT NULL REFERENCES outbox (id) ON DELETE CASCADE,
                    at INTEGER NOT NULL,
                    outcome TEXT NOT NULL,
                    code INTEGER NOT NULL,
                    message TEXT NOT NULL
                );
                CREATE INDEX attempt_outbox ON attempt (outbox_id);
                """)
        }
        migrator.registerMigration("v4 replies") { db in
            // The signing key (when not given by $CHIME_SECRET_KEY), every response, and
            // every inbound message with what became of it. A response is unique per
            // delivery and action: a replayed reply is recorded as such, not again.
            try db.execute(sql: """
                CREATE TABLE setting (
                    name TEXT PRIMARY KEY NOT NULL,
                    value BLOB NOT NULL
                );
                CREATE TABLE response (
                    id INTEGER PRIMARY KEY,
                    delivery_id TEXT NOT NULL,
                    identifier TEXT NOT NULL,
                    recipient TEXT NOT NULL,
                    action TEXT NOT NULL,
                    user_text TEXT,
                    channel TEXT NOT NULL,
                    responder TEXT NOT NULL,
                    at INTEGER NOT NULL,
                    status TEXT NOT NULL
                );
                CREATE UNIQUE INDEX response_once ON response (delivery_id, action);
                CREATE TABLE inbound (
                    id INTEGER PRIMARY KEY,
                    at INTEGER NOT NULL,
                    message_id TEXT NOT NULL,
                    sender TEXT NOT NULL,
                    outcome TEXT NOT NULL,
                    detail TEXT NOT NULL,
                    delivery_id TEXT
                );
                CREATE INDEX delivered_delivery ON delivered (delivery_id);
                """)
        }
        migrator.registerMigration("v5 carrying out") { db in
            // What carrying out a response gave (hooks' exits), and the addresses hard
            // bounces named, which nothing is sent to any more.
            try db.execute(sql: """
                ALTER TABLE response ADD COLUMN result TEXT NOT NULL DEFAULT '';
                CREATE TABLE undeliverable (
                    address TEXT PRIMARY KEY NOT NULL,
                    at INTEGER NOT NULL,
                    reason TEXT NOT NULL
                );
                """)
        }
        migrator.registerMigration("v6 chat threads") { db in
            // A chat message's thread (Slack's ts) and the signed token of the notification
            // it shows: how a text typed in that thread finds its notification.
            try db.execute(sql: """
                CREATE TABLE chat_thread (
                    channel TEXT NOT NULL,
                    thread TEXT NOT NULL,
                    token TEXT NOT NULL,
                    at INTEGER NOT NULL,
                    PRIMARY KEY (channel, thread)
                );
                """)
        }
        migrator.registerMigration("v7 delivery policy") { db in
            // What each fired notification's route was (sent, kept for the digest, turned
            // off); notifications held by quiet hours until an instant; preferences the
            // recipients changed; notifications kept for digests, and the digests, one
            // per recipient and daily slot.
            try db.execute(sql: """
                ALTER TABLE sent ADD COLUMN route TEXT NOT NULL DEFAULT 'sent';
                ALTER TABLE pending ADD COLUMN not_before INTEGER;
                CREATE TABLE preference (
                    recipient TEXT NOT NULL,
                    category TEXT NOT NULL,
                    deliver TEXT NOT NULL,
                    at INTEGER NOT NULL,
                    PRIMARY KEY (recipient, category)
                );
                CREATE TABLE parked (
                    delivery_id TEXT PRIMARY KEY NOT NULL,
                    recipient TEXT NOT NULL,
                    request TEXT NOT NULL,
                    fire_date INTEGER NOT NULL,
                    digest TEXT
                );
                CREATE INDEX parked_recipient ON parked (recipient, digest);
                CREATE TABLE digest (
                    id TEXT PRIMARY KEY NOT NULL,
                    recipient TEXT NOT NULL,
                    slot INTEGER NOT NULL,
                    claimed_by TEXT,
                    created_at INTEGER NOT NULL,
                    sent_at INTEGER,
                    UNIQUE (recipient, slot)
                );
                """)
        }
        migrator.registerMigration("v8 thread groups") { db in
            // Notifications parked to go out with the others of their thread (`thread` set;
            // NULL: kept for the digest), and batches for those groups beside the daily
            // digests: one digest per recipient and slot; one group per first notification
            // (its id made from that notification's).
            try db.execute(sql: """
                ALTER TABLE parked ADD COLUMN thread TEXT;
                CREATE INDEX parked_thread ON parked (thread, digest) WHERE thread IS NOT NULL;
                CREATE TABLE batch (
                    id TEXT PRIMARY KEY NOT NULL,
                    recipient TEXT NOT NULL,
                    thread TEXT NOT NULL DEFAULT '',
                    slot INTEGER NOT NULL,
                    claimed_by TEXT,
                    created_at INTEGER NOT NULL,
                    sent_at INTEGER
                );
                CREATE UNIQUE INDEX batch_digest_slot ON batch (recipient, slot) WHERE thread = '';
                -- Every chime run looks for unfinished batches: found without reading the sent ones.
                CREATE INDEX batch_unfinished ON batch (created_at) WHERE sent_at IS NULL;
                INSERT INTO batch (id, recipient, slot, claimed_by, created_at, sent_at)
                    SELECT id, recipient, slot, claimed_by, created_at, sent_at FROM digest;
                DROP TABLE digest;
                """)
        }
        migrator.registerMigration("v9 recipient settings") { db in
            // What a person changed for themselves on the preferences page (NULL: the
            // configuration's value).
            try db.execute(sql: """
                CREATE TABLE recipient_setting (
                    recipient TEXT PRIMARY KEY NOT NULL,
                    locale TEXT,
                    show_previews TEXT,
                    quiet_hours TEXT,
                    authorization TEXT,
                    at INTEGER NOT NULL
                );
                """)
        }
        migrator.registerMigration("v10 opt-in") { db in
            // The recipients asked to opt in (double opt-in), once each, with the request
            // their confirm link's token names.
            try db.execute(sql: """
                CREATE TABLE opt_in (
                    recipient TEXT PRIMARY KEY NOT NULL,
                    delivery_id TEXT NOT NULL UNIQUE,
                    request TEXT NOT NULL,
                    asked_at INTEGER NOT NULL
                );
                """)
        }
        migrator.registerMigration("v11 waiting groups index") { db in
            // Every chime run looks for threads waiting to go out: found in fire order among
            // the waiting rows alone, not among every grouped row ever sent.
            try db.execute(sql: """
                CREATE INDEX parked_waiting ON parked (fire_date, delivery_id) WHERE thread IS NOT NULL AND digest IS NULL;
                DROP INDEX parked_thread;
                """)
        }
        migrator.registerMigration("v12 quiet-hours hold index") { db in
            // chime serve asks every second when the next thing is due, held ones included.
            try db.execute(sql: "CREATE INDEX pending_not_before ON pending (not_before) WHERE not_before IS NOT NULL")
        }
        migrator.registerMigration("v13 idempotency keys") { db in
            // POST /v1/requests with an Idempotency-Key: the first answer, replayed.
            try db.execute(sql: """
                CREATE TABLE idempotency (
                    owner TEXT NOT NULL,
                    key TEXT NOT NULL,
                    request_digest TEXT NOT NULL,
                    status INTEGER NOT NULL,
                    body BLOB NOT NULL,
                    created_at INTEGER NOT NULL,
                    PRIMARY KEY (owner, key)
                )
                """)
        }
        migrator.registerMigration("v14 claimed rows index") { db in
            // Only claimed rows are ever looked up by claimer; the others, a million
            // pending and every delivery sent, were entries under NULL that each claim and
            // settling stepped through a deeper tree for, and each new row wrote to.
            try db.execute(sql: """
                DROP INDEX pending_claimed_by;
                CREATE INDEX pending_claimed_by ON pending (claimed_by) WHERE claimed_by IS NOT NULL;
                DROP INDEX outbox_claimed_by;
                CREATE INDEX outbox_claimed_by ON outbox (claimed_by) WHERE claimed_by IS NOT NULL;
                """)
        }
        migrator.registerMigration("v15 delivered by recipient, with delivery ids") { db in
            // Each answer to a reply counts the recipient's reminders still open: their
            // delivery ids, by recipient. With the ids in the index, the count reads it alone
            // instead of each delivered row too (69 to 38 µs for 30 rows; the count had been
            // a tenth of `chime ingest`'s instructions, all of it holding the store). It
            // still lists a recipient's newest first.
            try db.execute(sql: """
                CREATE INDEX delivered_recipient_ids ON delivered (recipient, delivered_at, delivery_id);
                DROP INDEX delivered_recipient;
                """)
        }
        migrator.registerMigration("v16 carried-out responses index") { db in
            // The same count asks, for each of those delivery ids, whether a response to it
            // was carried out: with the carried-out ones alone in an index, it reads no
            // response row (45 to 26 µs for 50 deliveries; it was a fifth of `chime ingest`'s
            // instructions). ``outstanding(recipient:)`` names the status as this does.
            try db.execute(sql: "CREATE INDEX response_carried_out ON response (delivery_id) WHERE status = '\(StoredResponse.carriedOut)'")
        }
        migrator.registerMigration("v17 answered deliveries") { db in
            // That count still asked about each of the recipient's deliveries, however old:
            // the more a recipient had answered, the longer each answer took. A delivery
            // whose response was carried out is flagged `answered` (``finish(response:status:result:)``),
            // and the count reads the others alone, from an index of them.
            try db.execute(sql: """
                ALTER TABLE delivered ADD COLUMN answered INTEGER NOT NULL DEFAULT 0;
                UPDATE delivered SET answered = 1 WHERE EXISTS
                    (SELECT 1 FROM response r WHERE r.delivery_id = delivered.delivery_id AND r.status = '\(StoredResponse.carriedOut)');
                CREATE INDEX delivered_unanswered ON delivered (recipient, delivery_id) WHERE answered = 0;
                """)
        }
        migrator.registerMigration("v18 answered inbound messages") { db in
            // A reply answered once, delivered again (an MTA's retry, an IMAP message
            // fetched again), was answered again: an inbound message is flagged `answered`
            // once its answer is queued or written (``markAnswered(_:)``), and found by its
            // Message-ID and delivery.
            try db.execute(sql: """
                ALTER TABLE inbound ADD COLUMN answered INTEGER NOT NULL DEFAULT 0;
                CREATE INDEX inbound_message ON inbound (message_id, delivery_id);
                """)
        }
        migrator.registerMigration("v19 idempotency keys by age") { db in
            // Answers kept for Idempotency-Keys are forgotten after a day
            // (``IdempotentAnswer/keptFor``), found by when they were kept.
            try db.execute(sql: "CREATE INDEX idempotency_created ON idempotency (created_at)")
        }
        migrator.registerMigration("v20 delivered by time") { db in
            // `GET /v1/delivered` without a recipient lists the newest first, a page at a
            // time: with no index in that order, each page read every delivered row and
            // sorted them all. This one is in the listing's order (``ListingKey``), so a page
            // is read from its cursor on.
            try db.execute(sql: "CREATE INDEX delivered_time ON delivered (delivered_at DESC, identifier)")
        }
        return migrator
    }
}

/// Runs named, forward-only migrations once each, in order, and records them in
/// `grdb_migrations` (the table GRDB's `DatabaseMigrator` kept them in, so stores made
/// before keep their history).
///
/// Unlike GRDB's migrator, which reads what was applied and then runs each migration in a
/// transaction of its own, this one reads and runs them all in one `BEGIN IMMEDIATE`
/// transaction: the check and the migrations are one, so processes opening a new store at
/// the same moment (cron and a daemon on a fresh install) run each migration once. The
/// others wait on SQLite's lock (the busy timeout), then find nothing left to do. Without
/// it, 6 processes opening a new store together failed about 4 times in 48 with
/// "duplicate column name: route".
struct SchemaMigrator {
    private var migrations: [(identifier: String, migrate: (Database) throws -> Void)] = []

    /// Every migration's identifier, in order.
    var identifiers: [String] { migrations.map(\.identifier) }

    /// Adds a migration after those registered.
    mutating func registerMigration(_ identifier: String, migrate: @escaping (Database) throws -> Void) {
        precondition(!identifiers.contains(identifier), "migration registered twice: \(identifier)")
        migrations.append((identifier, migrate))
    }

    /// Runs the migrations not yet applied; returns their identifiers, in order (none when
    /// the store was up to date, or another process migrated it meanwhile).
    @discardableResult
    func migrate(_ database: DatabaseQueue) throws -> [String] {
        // A store up to date is only read: opening it takes no write lock.
        if try database.read({ db in try unapplied(db) }).isEmpty { return [] }
        return try database.writeWithoutTransaction { db in
            var ran: [String] = []
            try db.inTransaction(.immediate) {
                try db.execute(sql: "CREATE TABLE IF NOT EXISTS grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY)")
                for migration in try unapplied(db) {
                    try migration.migrate(db)
                    try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES (?)", arguments: [migration.identifier])
                    ran.append(migration.identifier)
                }
                try db.checkForeignKeys()
                return .commit
            }
            return ran
        }
    }

    /// Whether `db` holds Chime's record of migrations (false for a new, empty store).
    /// - Throws: when it holds none and has tables: they are another program's, and the
    ///   file is left as it is.
    static func recordsMigrations(_ db: Database) throws -> Bool {
        // Not `db.tableExists`, which reads and caches the whole schema: a third of the
        // time `chime run` spends opening a store when nothing is due. One statement, so
        // one snapshot: ``SQLiteStore/useWAL(_:)`` asks outside a transaction, where two
        // statements each see the file as it is when they run. A process that switched
        // the new store to WAL and migrated it in between (cron and a daemon starting
        // together) made the second find `grdb_migrations` where the first had found no
        // table, and the store was refused as another program's (1 process in 160 in a
        // CI run of MigrationRaceTests).
        let first = try String.fetchOne(db, sql: """
            SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'
            ORDER BY name <> 'grdb_migrations' LIMIT 1
            """)
        switch first {
        case nil: return false
        case "grdb_migrations": return true
        case let table?: throw StoreOwnership.anotherProgram(table: table)
        }
    }

    /// The registered migrations `db` has not recorded, in order.
    private func unapplied(_ db: Database) throws -> [(identifier: String, migrate: (Database) throws -> Void)] {
        guard try Self.recordsMigrations(db) else { return migrations }
        let applied = Set(try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations"))
        if let newer = StoreOwnership.newer(applied: applied, known: identifiers) {
            throw newer
        }
        return migrations.filter { !applied.contains($0.identifier) }
    }
}
