import ChimeCore
import Foundation
import GRDB

/// Mark sent, settle: the store's side of recording each notification fired once, its
/// network deliveries queued with its mark.
extension SQLiteStore {
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
    /// A request delivered again replaces its row: a new delivery, not answered yet.
    private static let replacingDelivered = """
        ON CONFLICT (identifier) DO UPDATE SET
            recipient = excluded.recipient, request = excluded.request, fire_date = excluded.fire_date,
            delivered_at = excluded.delivered_at, delivery_id = excluded.delivery_id, coalesced = excluded.coalesced, answered = 0
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
}
