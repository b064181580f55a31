import ChimeCore
import Foundation
import GRDB

/// Claim, mark sent, settle: the store's side of firing each notification once.
extension SQLiteStore {
    public func due(now: Instant, limit: Int, limits: [String: Int]) throws -> [PendingNotification] {
        try database.read { db in
            var found: [PendingNotification] = []
            for selection in try Self.dueSelections(db, now: now, free: { _ in ("1 = 1", []) }, limits: limits) where found.count < limit {
                found += try Self.pending(Row.fetchAll(db.cachedStatement(sql: "SELECT * FROM pending WHERE identifier IN (\(selection.sql) LIMIT ?)"),
                                                       arguments: selection.arguments + [limit - found.count]))
            }
            return found.sorted(by: Self.soonestFirst)
        }
    }

    public func claimDue(now: Instant, limit: Int, claimer: Claimer, leaseNow: Instant, leaseUntil: Instant,
                         limits: [String: Int]) throws -> [PendingNotification] {
        // The rows are read back in the transaction and their requests decoded after it:
        // decoding is most of a claim's time, and the store's one connection is not held
        // for it (a claim ahead would make the firing thread wait to write its marks).
        let rows = try database.write { db in
            var claimed: [[Row]] = []
            var count = 0
            for selection in try Self.dueSelections(db, now: now, free: Self.free(leaseNow: leaseNow), limits: limits) where count < limit {
                // Every value a parameter, so that the statement is prepared once a run.
                let rows = try Row.fetchAll(db.cachedStatement(sql: """
                    UPDATE pending SET claimed_by = ?, claim_expires = ?
                    WHERE identifier IN (\(selection.sql) LIMIT ?)
                    RETURNING *
                    """), arguments: [claimer.description, leaseUntil.seconds] + selection.arguments + [limit - count])
                claimed.append(rows)
                count += rows.count
            }
            return claimed
        }
        return try rows.flatMap(Self.pending).sorted(by: Self.soonestFirst)
    }

    public func hasClaimableDue(now: Instant, limits: [String: Int]) throws -> Bool {
        try database.read { db in
            try Self.dueSelections(db, now: now, free: Self.free(leaseNow: now), limits: limits).contains { selection in
                try Bool.fetchOne(db, sql: "SELECT EXISTS (\(selection.sql))", arguments: selection.arguments) ?? false
            }
        }
    }

    /// The condition for a row of the named table to be free of claims: never claimed, or
    /// its claimer's lease ran out by `leaseNow`. A row marked sent by a claimer whose
    /// lease ran out waits for that mark to be settled rather than being sent again.
    private static func free(leaseNow: Instant) -> (String) -> (sql: String, arguments: StatementArguments) {
        { table in ("""
            (\(table).claimed_by IS NULL OR (\(table).claim_expires <= ? AND NOT EXISTS (
                SELECT 1 FROM sent WHERE sent.identifier = \(table).identifier AND sent.generation = \(table).generation)))
            """, [leaseNow.seconds]) }
    }

    public func earliestDue(after now: Instant) throws -> Instant? {
        try database.read { db in
            // Three index lookups: pending_next_fire, pending_not_before, outbox_due.
            try Int64.fetchOne(db, sql: """
                SELECT MIN(t) FROM (
                    SELECT MIN(next_fire) AS t FROM pending WHERE next_fire > ?
                    UNION ALL SELECT MIN(not_before) FROM pending WHERE not_before > ?
                    UNION ALL SELECT MIN(next_attempt) FROM outbox WHERE state = 'queued' AND next_attempt > ?)
                """, arguments: [now.seconds, now.seconds, now.seconds]).map(Instant.init(seconds:))
        }
    }

    /// Subqueries selecting the identifiers of due, free notifications, soonest first:
    /// one over everything when no recipient has a pending limit; else one per due
    /// recipient, a limited one looking only at its soonest `limit` requests.
    /// `free` gives the condition for a row of the named table to be claimable. Values are
    /// parameters (the text depends only on the shape), so statements can be cached.
    private static func dueSelections(_ db: Database, now: Instant, free: (String) -> (sql: String, arguments: StatementArguments),
                                      limits: [String: Int]) throws -> [(sql: String, arguments: StatementArguments)] {
        // Free, and not held by quiet hours past now.
        func ready(_ table: String) -> (sql: String, arguments: StatementArguments) {
            let free = free(table)
            return ("\(free.sql) AND (\(table).not_before IS NULL OR \(table).not_before <= ?)", free.arguments + [now.seconds])
        }
        let pending = ready("pending")
        guard !limits.isEmpty else {
            return [("SELECT identifier FROM pending WHERE next_fire <= ? AND \(pending.sql) ORDER BY next_fire", [now.seconds] + pending.arguments)]
        }
        let recipients = try String.fetchAll(db, sql: "SELECT DISTINCT recipient FROM pending WHERE next_fire <= ? AND \(pending.sql)",
                                             arguments: [now.seconds] + pending.arguments)
        return recipients.sorted().map { recipient in
            guard let window = limits[recipient] else {
                return ("SELECT identifier FROM pending WHERE recipient = ? AND next_fire <= ? AND \(pending.sql) ORDER BY next_fire",
                        [recipient, now.seconds] + pending.arguments)
            }
            // The window's own columns, so the condition does not reach out to the rows
            // being updated (which would make SQLite evaluate it once per row).
            let allowed = ready("allowed")
            return ("""
                SELECT identifier FROM (
                    SELECT identifier, generation, next_fire, claimed_by, claim_expires, not_before FROM pending WHERE recipient = ?
                    ORDER BY next_fire, identifier LIMIT ?) AS allowed
                WHERE next_fire <= ? AND \(allowed.sql) ORDER BY next_fire
                """, [recipient, window, now.seconds] + allowed.arguments)
        }
    }

    private static func soonestFirst(_ a: PendingNotification, _ b: PendingNotification) -> Bool {
        (a.nextFire.seconds, a.request.identifier) < (b.nextFire.seconds, b.request.identifier)
    }

    public func markSent(_ marks: [SentMark], claimer: Claimer) throws {
        guard !marks.isEmpty else { return }
        let rows = try Self.markRows(marks)
        try database.write { db in try Self.write(marks, rows: rows, claimer: claimer, in: db) }
    }

    public func settle(claimer: Claimer) throws -> Int {
        try database.write { db in try Self.settle(claimer: claimer, in: db) }
    }

    /// The marks settled as they are written, without a row in `sent`: what ``settle(claimer:)``
    /// would make of them, in the same transaction as the marks written earlier in the
    /// batch, which are settled first (a request marked twice is moved once, by its first
    /// mark). A `sent` row written and deleted in one transaction never reached the log,
    /// but its insert, the settling's join and its delete still cost their CPU: sending
    /// 5,000 emails, `chime run` took 498–536 ms of CPU without them against 556–562 ms.
    public func markSentAndSettle(_ marks: [SentMark], claimer: Claimer) throws {
        let me = claimer.description
        let rows = try Self.markRows(marks)
        try database.write { db in
            _ = try Self.settle(claimer: claimer, in: db)
            let deliver = try db.cachedStatement(sql: """
                INSERT INTO delivered (identifier, recipient, request, fire_date, delivered_at, delivery_id, coalesced)
                VALUES (?, ?, ?, ?, ?, ?, ?) \(Self.replacingDelivered)
                """)
            let moveOn = try db.cachedStatement(sql: """
                UPDATE pending SET next_fire = ?, anchor = ?, fired_count = fired_count + 1,
                    claimed_by = NULL, claim_expires = NULL, not_before = NULL
                WHERE identifier = ? AND generation = ? AND claimed_by = ?
                """)
            let remove = try db.cachedStatement(sql: "DELETE FROM pending WHERE identifier = ? AND generation = ? AND claimed_by = ?")
            let park = try Self.parkStatement(db)
            var moved = Set<[String]>()
            for (mark, row) in zip(marks, rows) {
                let delivered = mark.delivered
                let identifier = delivered.request.identifier
                if mark.route != .suppressed {
                    try deliver.run([.text(identifier), .text(delivered.request.recipient), row.request, .integer(delivered.fireDate.seconds),
                                     .integer(delivered.deliveredAt.seconds), .text(delivered.deliveryID), .integer(delivered.coalesced)], in: db)
                }
                if moved.insert([identifier, mark.notification.generation]).inserted {
                    let key: [BoundValue] = [.text(identifier), .text(mark.notification.generation), .text(me)]
                    if let next = mark.next {
                        try moveOn.run([.integer(next.seconds), .integer(mark.anchor.seconds)] + key, in: db)
                    } else {
                        try remove.run(key, in: db)
                    }
                }
                if let parked = row.parked { try park.run(parked, in: db) }
                try Self.enqueue(mark, in: db)
            }
        }
    }

    /// What of each mark's rows takes work to make: its request's JSON (kept from the
    /// claim, else encoded), and its row in `parked` when it is kept for a digest or its
    /// thread; made before the store's one connection is taken: the thread claiming the
    /// next batch waits for it meanwhile (6,800 instructions a mark).
    private static func markRows(_ marks: [SentMark]) throws -> [MarkRow] {
        try marks.map { mark in
            let delivered = mark.delivered
            let request = BoundValue.text(try mark.notification.encodedRequest ?? delivered.request.storedJSON())
            guard mark.route == .digest || mark.route == .grouped else { return MarkRow(request: request, parked: nil) }
            return MarkRow(request: request,
                           parked: [.text(delivered.deliveryID), .text(delivered.request.recipient), request, .integer(delivered.fireDate.seconds),
                                    .text(mark.route == .grouped ? delivered.request.content.threadIdentifier : nil)])
        }
    }

    /// A request delivered again (a repeating one) replaces its row in `delivered`.
    private static let replacingDelivered = """
        ON CONFLICT (identifier) DO UPDATE SET
            recipient = excluded.recipient, request = excluded.request, fire_date = excluded.fire_date,
            delivered_at = excluded.delivered_at, delivery_id = excluded.delivery_id, coalesced = excluded.coalesced
        """

    private struct MarkRow {
        let request: BoundValue
        let parked: [BoundValue]?
    }

    private static func parkStatement(_ db: Database) throws -> Statement {
        try db.cachedStatement(sql: """
            INSERT INTO parked (delivery_id, recipient, request, fire_date, thread) VALUES (?, ?, ?, ?, ?)
            ON CONFLICT (delivery_id) DO NOTHING
            """)
    }

    /// Queues a mark's network deliveries, in the caller's transaction.
    private static func enqueue(_ mark: SentMark, in db: Database) throws {
        guard !mark.queued.isEmpty else { return }
        let delivered = mark.delivered
        try enqueue(mark.queued, deliveryID: delivered.deliveryID, identifier: delivered.request.identifier,
                    recipient: delivered.request.recipient, at: delivered.deliveredAt, in: db)
    }

    /// Writes the marks' rows in `sent`, and queues the deliveries of each, in the
    /// caller's transaction.
    private static func write(_ marks: [SentMark], rows: [MarkRow], claimer: Claimer, in db: Database) throws {
        let me = claimer.description
        let insert = try db.cachedStatement(sql: """
            INSERT INTO sent (claimed_by, identifier, generation, recipient, request, fire_date, delivered_at, delivery_id, coalesced, next_fire, anchor, route)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        let park = try parkStatement(db)
        for (mark, row) in zip(marks, rows) {
            let delivered = mark.delivered
            try insert.run([
                .text(me), .text(delivered.request.identifier), .text(mark.notification.generation), .text(delivered.request.recipient),
                row.request, .integer(delivered.fireDate.seconds), .integer(delivered.deliveredAt.seconds), .text(delivered.deliveryID),
                .integer(delivered.coalesced), .integer(mark.next?.seconds), .integer(mark.anchor.seconds), .text(mark.route.rawValue),
            ], in: db)
            if let parked = row.parked { try park.run(parked, in: db) }
            try enqueue(mark, in: db)
        }
    }

    /// Settles the claimer's marks in the caller's transaction (``settle(claimer:)``).
    private static func settle(claimer: Claimer, in db: Database) throws -> Int {
        let mine: StatementArguments = ["claimer": claimer.description]
        let count = try Int.fetchOne(db.cachedStatement(sql: "SELECT COUNT(*) FROM sent WHERE claimed_by = :claimer"), arguments: mine) ?? 0
        guard count > 0 else { return 0 }
        try db.cachedStatement(sql: """
            INSERT INTO delivered (identifier, recipient, request, fire_date, delivered_at, delivery_id, coalesced)
            SELECT identifier, recipient, request, fire_date, delivered_at, delivery_id, coalesced FROM sent
            WHERE claimed_by = :claimer AND route != 'suppressed' ORDER BY id
            \(Self.replacingDelivered)
            """).execute(arguments: mine)
        // Each request by its first mark (a request marked twice moved once, as the
        // first left it), in two statements: on to its next fire, or out when it does
        // not repeat, unless it was replaced (another generation) or taken over
        // (another claimer) meanwhile.
        let first = "SELECT * FROM sent WHERE id IN (SELECT MIN(id) FROM sent WHERE claimed_by = :claimer GROUP BY identifier, generation)"
        try db.cachedStatement(sql: """
            UPDATE pending SET next_fire = s.next_fire, anchor = s.anchor, fired_count = pending.fired_count + 1,
                claimed_by = NULL, claim_expires = NULL, not_before = NULL
            FROM (\(first)) AS s
            WHERE s.next_fire IS NOT NULL AND pending.identifier = s.identifier AND pending.generation = s.generation
              AND pending.claimed_by = :claimer
            """).execute(arguments: mine)
        try db.cachedStatement(sql: """
            DELETE FROM pending WHERE claimed_by = :claimer
              AND (identifier, generation) IN (SELECT identifier, generation FROM (\(first)) WHERE next_fire IS NULL)
            """).execute(arguments: mine)
        try db.cachedStatement(sql: "DELETE FROM sent WHERE claimed_by = :claimer").execute(arguments: mine)
        return count
    }

    public func claimers() throws -> [(claimer: Claimer, leaseEnds: Instant?)] {
        try database.read { db in
            var leases: [String: Int64?] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT claimed_by, MAX(claim_expires) AS ends FROM pending WHERE claimed_by IS NOT NULL GROUP BY claimed_by") {
                leases[row["claimed_by"]] = row["ends"] as Int64?
            }
            for row in try Row.fetchAll(db, sql: "SELECT claimed_by, MAX(claim_expires) AS ends FROM outbox WHERE claimed_by IS NOT NULL GROUP BY claimed_by") {
                let ends = row["ends"] as Int64?
                let known = leases[row["claimed_by"]] ?? nil
                leases[row["claimed_by"]] = .some([known, ends].compactMap { $0 }.max())
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
            let count = db.changesCount
            try db.execute(sql: "UPDATE outbox SET claimed_by = NULL, claim_expires = NULL WHERE claimed_by = ?", arguments: [claimer.description])
            return count + db.changesCount
        }
    }

    public func postpone(_ notification: PendingNotification, until: Instant, claimer: Claimer) throws {
        try database.write { db in
            try db.execute(sql: """
                UPDATE pending SET not_before = ?, claimed_by = NULL, claim_expires = NULL
                WHERE identifier = ? AND generation = ? AND claimed_by = ?
                """, arguments: [until.seconds, notification.request.identifier, notification.generation, claimer.description])
        }
    }
}
