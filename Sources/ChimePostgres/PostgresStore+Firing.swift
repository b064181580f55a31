import ChimeCore
import Foundation
import PostgresNIO

/// Claim, mark sent, settle: the store's side of firing each notification once, with any
/// number of workers taking from one table.
extension PostgresStore {
    public func due(now: Instant, limit: Int, limits: [String: Int]) throws -> [PendingNotification] {
        try read { session in
            var found: [PendingNotification] = []
            for selection in try await Self.dueSelections(session, now: now, leaseNow: nil, limits: limits) where found.count < limit {
                found += try await session.rows("""
                    SELECT * FROM pending WHERE identifier IN (\(unescaped: selection) LIMIT \(limit - found.count))
                    """).map(Self.pending)
            }
            return found.sorted(by: Self.soonestFirst)
        }
    }

    /// Exactly once across workers: the rows are chosen and locked in one statement by
    /// `FOR UPDATE SKIP LOCKED`, then marked with this claimer in the same transaction. A
    /// worker claiming at the same moment skips the rows locked here instead of waiting
    /// for them, and once this commits it finds them claimed: READ COMMITTED tests the
    /// condition again on the newest version of a row it locks, so a claim committed
    /// after its snapshot is seen. A dead worker's claims come free when their lease ends,
    /// as in SQLite, unless it marked the occurrence sent (then its mark is settled
    /// instead).
    public func claimDueRows(now: Instant, limit: Int, claimer: Claimer, leaseNow: Instant, leaseUntil: Instant,
                             limits: [String: Int]) throws -> ClaimedDue {
        try write { session in
            // No JIT for the claim, in its transaction alone: on a large table whose
            // statistics are not gathered yet the planner's estimates pass
            // `jit_above_cost`, and compiling the claim took 130–200 ms for a query that
            // runs in 4 ms (`auto_explain`). Not a startup parameter of the session:
            // PgBouncer refuses the ones it does not know.
            try await session.execute("SELECT set_config('jit', 'off', true)")
            var claimed = ClaimedDue()
            for selection in try await Self.dueSelections(session, now: now, leaseNow: leaseNow, limits: limits) where claimed.count < limit {
                for row in try await session.rows("""
                    WITH picked AS MATERIALIZED (\(unescaped: selection) LIMIT \(limit - claimed.count) FOR UPDATE SKIP LOCKED)
                    UPDATE pending SET claimed_by = \(claimer.description), claim_expires = \(leaseUntil.seconds)
                    FROM picked WHERE pending.identifier = picked.identifier
                    RETURNING pending.*
                    """) {
                    do {
                        claimed.notifications.append(try Self.pending(row))
                    } catch let unreadable as UnreadableStoredRequest {
                        claimed.unreadable.append(unreadable)
                    }
                }
            }
            claimed.notifications.sort(by: Self.soonestFirst)
            return claimed
        }
    }

    public func hasClaimableDue(now: Instant, limits: [String: Int]) throws -> Bool {
        try read { session in
            for selection in try await Self.dueSelections(session, now: now, leaseNow: now, limits: limits) {
                if try await session.value("SELECT EXISTS (\(unescaped: selection))", as: Bool.self) == true { return true }
            }
            return false
        }
    }

    public func earliestDue(after now: Instant) throws -> Instant? {
        try read { session in
            // Index lookups: pending_next_fire, pending_not_before, outbox_due, and the
            // claims (partial indexes): a dead worker's claims are free once its lease
            // ends, and are taken up then rather than at the next minute's round.
            try await session.value("""
                SELECT MIN(t) FROM (
                    SELECT MIN(next_fire) AS t FROM pending WHERE next_fire > \(now.seconds)
                    UNION ALL SELECT MIN(not_before) FROM pending WHERE not_before > \(now.seconds)
                    UNION ALL SELECT MIN(next_attempt) FROM outbox WHERE state = 'queued' AND next_attempt > \(now.seconds)
                    UNION ALL SELECT MIN(claim_expires) FROM pending WHERE claimed_by IS NOT NULL AND claim_expires > \(now.seconds)
                    UNION ALL SELECT MIN(claim_expires) FROM outbox WHERE claimed_by IS NOT NULL AND claim_expires > \(now.seconds)) AS soonest
                """, as: Int64.self).map(Instant.init(seconds:))
        }
    }

    /// Queries selecting the identifiers of due notifications, soonest first, to be given
    /// a LIMIT: one over everything when no recipient has a pending limit; else one per
    /// due recipient, a limited one looking only at its soonest `limit` requests. With
    /// `leaseNow`, only rows free of claims (never claimed, or the lease ran out and the
    /// occurrence was not marked sent); without, every due row (a dry run). The numbers
    /// are written into the text: they are integers, and the text is given a LIMIT and a
    /// locking clause after it.
    private static func dueSelections(_ session: Session, now: Instant, leaseNow: Instant?, limits: [String: Int]) async throws -> [String] {
        var condition = "pending.next_fire <= \(now.seconds) AND (pending.not_before IS NULL OR pending.not_before <= \(now.seconds))"
        if let leaseNow {
            condition += """
                 AND (pending.claimed_by IS NULL OR (pending.claim_expires <= \(leaseNow.seconds) AND NOT EXISTS (
                    SELECT 1 FROM sent WHERE sent.identifier = pending.identifier AND sent.generation = pending.generation)))
                """
        }
        guard !limits.isEmpty else {
            return ["SELECT identifier FROM pending WHERE \(condition) ORDER BY next_fire"]
        }
        let recipients = try await session.rows(PostgresQuery(unsafeSQL: "SELECT DISTINCT recipient FROM pending WHERE \(condition)"))
            .map { try $0.get("recipient", as: String.self) }
        return recipients.sorted().map { recipient in
            let quoted = "'" + recipient.replacingOccurrences(of: "'", with: "''") + "'"
            guard let window = limits[recipient] else {
                return "SELECT identifier FROM pending WHERE recipient = \(quoted) AND \(condition) ORDER BY next_fire"
            }
            return """
                SELECT identifier FROM pending WHERE identifier IN (
                    SELECT identifier FROM pending WHERE recipient = \(quoted) ORDER BY next_fire, identifier LIMIT \(window))
                AND \(condition) ORDER BY next_fire
                """
        }
    }

    private static func soonestFirst(_ a: PendingNotification, _ b: PendingNotification) -> Bool {
        (a.nextFire.seconds, a.request.identifier) < (b.nextFire.seconds, b.request.identifier)
    }

    /// Parked and queued rows are inserted with `ON CONFLICT DO NOTHING`: a delivery parked
    /// or queued by a run that died before it settled is not parked or queued twice.
    ///
    /// A mark is written once per notification delivered locally (Maildir, `file:`), the
    /// moment it is delivered, so it must cost little:
    /// - it commits without waiting for the server's disk (`synchronous_commit` off for its
    ///   transaction alone): as durable as SQLite's marks (WAL, `synchronous = NORMAL`). A
    ///   killed `chime` loses nothing, the server has the commit; a crash of the database's
    ///   machine may lose its last fraction of a second of marks, whose messages are then
    ///   sent again with their delivery id;
    /// - one mark with nothing to park or queue is one statement, its own transaction: one
    ///   round trip instead of four (BEGIN, SET, INSERT, COMMIT).
    /// 10,000 due into `file:` (`chime-bench --store postgres`, 2 loaded cores): 23.8 s
    /// waiting for the disk, 16.7 s with four round trips, 11.9 s so (README, "Benchmark").
    public func markSent(_ marks: [SentMark], claimer: Claimer) throws {
        guard !marks.isEmpty else { return }
        let requests = try marks.map { try $0.notification.encodedRequest ?? $0.delivered.request.storedJSON() }
        if marks.count == 1, marks[0].queued.isEmpty, marks[0].route != .digest, marks[0].route != .grouped {
            _ = try read { session in try await session.execute(Self.insertSent(marks[0], request: requests[0], claimer: claimer)) }
            return
        }
        // A batch's marks (those of notifications only queued for sending, written when the
        // firing batch ends): every mark in one statement, every delivery queued in one and
        // their bodies in one, rather than three statements a notification.
        try write { session in
            try await session.execute(Self.insertSent(marks, requests: requests, claimer: claimer))
            for (mark, request) in zip(marks, requests) where mark.route == .digest || mark.route == .grouped {
                let delivered = mark.delivered
                let thread = mark.route == .grouped ? delivered.request.content.threadIdentifier : nil
                try await session.execute("""
                    INSERT INTO parked (delivery_id, recipient, request, fire_date, thread)
                    VALUES (\(delivered.deliveryID), \(delivered.request.recipient), \(request), \(delivered.fireDate.seconds), \(thread))
                    ON CONFLICT (delivery_id) DO NOTHING
                    """)
            }
            try await Self.enqueue(marks, in: session)
        }
    }

    /// The insert of many marks, in their order, from one array a column (`UNNEST`); like
    /// ``insertSent(_:request:claimer:)``, without waiting for the disk.
    private static func insertSent(_ marks: [SentMark], requests: [String], claimer: Claimer) -> PostgresQuery {
        let delivered = marks.map(\.delivered)
        return """
            INSERT INTO sent (claimed_by, identifier, generation, recipient, request, fire_date, delivered_at, delivery_id, coalesced, next_fire, anchor, route)
            SELECT \(claimer.description), m.identifier, m.generation, m.recipient, m.request, m.fire_date, m.delivered_at, m.delivery_id,
                   m.coalesced, CASE WHEN m.has_next THEN m.next_fire END, m.anchor, m.route
            FROM UNNEST(\(delivered.map(\.request.identifier)), \(marks.map(\.notification.generation)), \(delivered.map(\.request.recipient)),
                        \(requests), \(delivered.map(\.fireDate.seconds)), \(delivered.map(\.deliveredAt.seconds)), \(delivered.map(\.deliveryID)),
                        \(delivered.map(\.coalesced)), \(marks.map { $0.next != nil }), \(marks.map { $0.next?.seconds ?? 0 }),
                        \(marks.map(\.anchor.seconds)), \(marks.map(\.route.rawValue)))
                 WITH ORDINALITY AS m(identifier, generation, recipient, request, fire_date, delivered_at, delivery_id, coalesced, has_next, next_fire, anchor, route, n),
                 (SELECT set_config('synchronous_commit', 'off', true)) AS without_waiting_for_disk
            ORDER BY m.n
            """
    }

    /// The insert of one mark, which also turns `synchronous_commit` off until its
    /// transaction ends (`set_config(…, true)`; the setting is read when the transaction
    /// commits, so this holds for a statement that is its own transaction too).
    private static func insertSent(_ mark: SentMark, request: String, claimer: Claimer) -> PostgresQuery {
        let delivered = mark.delivered
        return """
            INSERT INTO sent (claimed_by, identifier, generation, recipient, request, fire_date, delivered_at, delivery_id, coalesced, next_fire, anchor, route)
            SELECT \(claimer.description), \(delivered.request.identifier), \(mark.notification.generation), \(delivered.request.recipient),
                   \(request), \(delivered.fireDate.seconds), \(delivered.deliveredAt.seconds), \(delivered.deliveryID), \(delivered.coalesced),
                   \(mark.next?.seconds), \(mark.anchor.seconds), \(mark.route.rawValue)
            FROM (SELECT set_config('synchronous_commit', 'off', true)) AS without_waiting_for_disk
            """
    }

    /// One statement: the claimer's marks are deleted first, and everything else is done
    /// with the rows that delete returned. Two processes settling one dead claimer's marks
    /// at once cannot both move its requests on: the second waits for the first's delete
    /// and then finds nothing left to delete. A request is moved on or removed only while
    /// the claimer still holds it (one replaced or taken over meanwhile is left as it is),
    /// and of two marks of one identifier the later one is what `delivered` keeps.
    ///
    /// The claimer test on `pending` is written `IS NOT DISTINCT FROM`, which no index
    /// serves, so that the planner joins each taken row by its key. Statistics gathered
    /// while nothing was claimed (as they mostly are) put the claimer's rows at one, and
    /// with `= claimer` the planner read them through `pending_claimed` and compared each
    /// with every taken row: 500 × 500, 66–104 ms a batch instead of 2.4 ms.
    public func settle(claimer: Claimer) throws -> Int {
        try write { session in
            try await session.value("""
                WITH taken AS (DELETE FROM sent WHERE claimed_by = \(claimer.description) RETURNING *),
                recorded AS (
                    INSERT INTO delivered (identifier, recipient, request, fire_date, delivered_at, delivery_id, coalesced)
                    SELECT DISTINCT ON (identifier) identifier, recipient, request, fire_date, delivered_at, delivery_id, coalesced
                    FROM taken WHERE route <> 'suppressed' ORDER BY identifier, id DESC
                    ON CONFLICT (identifier) DO UPDATE SET
                        recipient = excluded.recipient, request = excluded.request, fire_date = excluded.fire_date,
                        delivered_at = excluded.delivered_at, delivery_id = excluded.delivery_id, coalesced = excluded.coalesced,
                        answered = 0
                    RETURNING 1),
                moved AS (
                    UPDATE pending SET next_fire = taken.next_fire, anchor = taken.anchor, fired_count = pending.fired_count + 1,
                        claimed_by = NULL, claim_expires = NULL, not_before = NULL
                    FROM taken
                    WHERE taken.next_fire IS NOT NULL AND pending.identifier = taken.identifier AND pending.generation = taken.generation
                      AND pending.claimed_by IS NOT DISTINCT FROM \(claimer.description)
                    RETURNING 1),
                removed AS (
                    DELETE FROM pending USING taken
                    WHERE taken.next_fire IS NULL AND pending.identifier = taken.identifier AND pending.generation = taken.generation
                      AND pending.claimed_by IS NOT DISTINCT FROM \(claimer.description)
                    RETURNING 1)
                SELECT COUNT(*) FROM taken
                """, as: Int.self) ?? 0
        }
    }

    public func claimers() throws -> [(claimer: Claimer, leaseEnds: Instant?)] {
        // One snapshot for the three tables: read one by one, a worker that claimed, sent
        // and marked between two of them would look as if it held marks only (abandoned),
        // and its fresh claims would be released to another worker.
        let found = try readSnapshot { session in
            var leases: [String: Int64?] = [:]
            for row in try await session.rows("SELECT claimed_by, MAX(claim_expires) AS ends FROM pending WHERE claimed_by IS NOT NULL GROUP BY claimed_by") {
                leases[try row.get("claimed_by")] = try row.optional("ends", as: Int64.self)
            }
            for row in try await session.rows("SELECT claimed_by, MAX(claim_expires) AS ends FROM outbox WHERE claimed_by IS NOT NULL GROUP BY claimed_by") {
                let name: String = try row.get("claimed_by")
                let ends = try row.optional("ends", as: Int64.self)
                let known = leases[name] ?? nil
                leases[name] = .some([known, ends].compactMap { $0 }.max())
            }
            for row in try await session.rows("SELECT DISTINCT claimed_by FROM sent") {
                let name: String = try row.get("claimed_by")
                if leases[name] == nil { leases[name] = .some(nil) }
            }
            return leases.map { LeaseEnd(claimer: $0.key, ends: $0.value) }
        }
        return found.sorted { $0.claimer < $1.claimer }.compactMap { lease in
            Claimer(lease.claimer).map { ($0, lease.ends.map(Instant.init(seconds:))) }
        }
    }

    /// What the released rows were waiting for is due again: NOTIFY.
    public func releaseClaims(of claimer: Claimer) throws -> Int {
        try write { session in
            let pending = try await session.execute("UPDATE pending SET claimed_by = NULL, claim_expires = NULL WHERE claimed_by = \(claimer.description)")
            let outbox = try await session.execute("UPDATE outbox SET claimed_by = NULL, claim_expires = NULL WHERE claimed_by = \(claimer.description)")
            if pending + outbox > 0 { try await Self.notifyDue(session) }
            return pending + outbox
        }
    }

    public func postpone(identifier: String, generation: String, until: Instant, claimer: Claimer) throws {
        try write { session in
            try await session.execute("""
                UPDATE pending SET not_before = \(until.seconds), claimed_by = NULL, claim_expires = NULL
                WHERE identifier = \(identifier) AND generation = \(generation) AND claimed_by = \(claimer.description)
                """)
        }
    }
}

/// A claimer as stored and the end of its latest lease (nil: it holds only marks).
private struct LeaseEnd: Sendable {
    var claimer: String
    var ends: Int64?
}
