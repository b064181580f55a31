import ChimeCore
import Foundation
import GRDB

/// Claim, give back, postpone: the store's side of taking up each due notification once
/// (its marks and their settling: SQLiteStore+Marks.swift).
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

    public func claimDueRows(now: Instant, limit: Int, claimer: Claimer, leaseNow: Instant, leaseUntil: Instant,
                             limits: [String: Int]) throws -> ClaimedDue {
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
        var claimed = Self.readPending(rows.flatMap { $0 })
        claimed.notifications.sort(by: Self.soonestFirst)
        return claimed
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
            // Index lookups: pending_next_fire, pending_not_before, outbox_due, and the
            // claims (partial indexes): a dead worker's claims are free once its lease
            // ends, and are taken up then rather than at the next minute's round.
            try Int64.fetchOne(db, sql: """
                SELECT MIN(t) FROM (
                    SELECT MIN(next_fire) AS t FROM pending WHERE next_fire > ?
                    UNION ALL SELECT MIN(not_before) FROM pending WHERE not_before > ?
                    UNION ALL SELECT MIN(next_attempt) FROM outbox WHERE state = 'queued' AND next_attempt > ?
                    UNION ALL SELECT MIN(claim_expires) FROM pending WHERE claimed_by IS NOT NULL AND claim_expires > ?
                    UNION ALL SELECT MIN(claim_expires) FROM outbox WHERE claimed_by IS NOT NULL AND claim_expires > ?)
                """, arguments: [now.seconds, now.seconds, now.seconds, now.seconds, now.seconds]).map(Instant.init(seconds:))
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

    public func postpone(identifier: String, generation: String, until: Instant, claimer: Claimer) throws {
        try database.write { db in
            try db.execute(sql: """
                UPDATE pending SET not_before = ?, claimed_by = NULL, claim_expires = NULL
                WHERE identifier = ? AND generation = ? AND claimed_by = ?
                """, arguments: [until.seconds, identifier, generation, claimer.description])
        }
    }
}
