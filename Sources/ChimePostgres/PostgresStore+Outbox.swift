import ChimeCore
import Foundation
import PostgresNIO

/// The outbox: network deliveries queued when their notification fires, claimed and tried
/// by any worker, each attempt recorded, until delivered or failed.
extension PostgresStore {
    /// Inserts the deliveries of one fired notification (inside the caller's transaction).
    /// A destination already queued for this occurrence is kept as it is: the insert does
    /// nothing on a conflict, waiting first for a process inserting the same row at the
    /// same moment, and only the process whose insert took returns the id, so the body is
    /// written once.
    static func enqueue(_ queued: [QueuedDelivery], deliveryID: String, identifier: String, recipient: String, at: Instant,
                        in session: Session) async throws {
        for delivery in queued {
            let inserted = try await session.value("""
                INSERT INTO outbox (delivery_id, identifier, recipient, channel, address, state, queued_at, next_attempt)
                VALUES (\(deliveryID), \(identifier), \(recipient), \(delivery.channel), \(delivery.address), 'queued', \(at.seconds), \(at.seconds))
                ON CONFLICT (delivery_id, channel, address) DO NOTHING
                RETURNING id
                """, as: Int64.self)
            if let inserted {
                try await session.execute("INSERT INTO outbox_body (outbox_id, body) VALUES (\(inserted), \(Data(delivery.body)))")
            }
        }
    }

    /// ``enqueue(_:deliveryID:identifier:recipient:at:in:)`` for the deliveries of many
    /// marks at once, in their order: one insert into the outbox, then one of the bodies of
    /// the rows it inserted (those it returned).
    static func enqueue(_ marks: [SentMark], in session: Session) async throws {
        let rows = marks.flatMap { mark in mark.queued.map { (mark.delivered, $0) } }
        guard !rows.isEmpty else { return }
        var bodies: [[String]: [UInt8]] = [:]
        for (delivered, delivery) in rows { bodies[[delivered.deliveryID, delivery.channel, delivery.address]] = delivery.body }
        let inserted = try await session.rows("""
            INSERT INTO outbox (delivery_id, identifier, recipient, channel, address, state, queued_at, next_attempt)
            SELECT q.delivery_id, q.identifier, q.recipient, q.channel, q.address, 'queued', q.at, q.at
            FROM UNNEST(\(rows.map(\.0.deliveryID)), \(rows.map(\.0.request.identifier)), \(rows.map(\.0.request.recipient)),
                        \(rows.map(\.1.channel)), \(rows.map(\.1.address)), \(rows.map(\.0.deliveredAt.seconds)))
                 WITH ORDINALITY AS q(delivery_id, identifier, recipient, channel, address, at, n)
            ORDER BY q.n
            ON CONFLICT (delivery_id, channel, address) DO NOTHING
            RETURNING id, delivery_id, channel, address
            """)
        var ids: [Int64] = [], payloads: [ByteBuffer] = []
        for row in inserted {
            let key: [String] = [try row.get("delivery_id"), try row.get("channel"), try row.get("address")]
            ids.append(try row.get("id"))
            payloads.append(ByteBuffer(bytes: bodies[key] ?? []))
        }
        guard !ids.isEmpty else { return }
        try await session.execute("INSERT INTO outbox_body (outbox_id, body) SELECT * FROM UNNEST(\(ids), \(payloads))")
    }

    /// Exactly once across workers as ``claimDue(now:limit:claimer:leaseNow:leaseUntil:limits:)``
    /// is: the rows are chosen and locked by `FOR UPDATE SKIP LOCKED` and claimed in the
    /// same transaction; a worker at the same moment skips them, and after the commit
    /// sees them claimed until their lease ends.
    public func claimOutbox(now: Instant, limit: Int, claimer: Claimer, leaseNow: Instant, leaseUntil: Instant) throws -> [OutboxDelivery] {
        // Asked often while a run is still firing: a read when nothing is due, no write.
        let anything = try read { session in
            try await session.value("SELECT 1 FROM outbox WHERE state = 'queued' AND next_attempt <= \(now.seconds) LIMIT 1", as: Int32.self) != nil
        }
        guard anything else { return [] }
        return try write { session in
            var claimed = try await session.rows("""
                WITH picked AS MATERIALIZED (
                    SELECT id FROM outbox WHERE state = 'queued' AND next_attempt <= \(now.seconds)
                    AND (claimed_by IS NULL OR claim_expires <= \(leaseNow.seconds))
                    ORDER BY next_attempt, id LIMIT \(limit) FOR UPDATE SKIP LOCKED)
                UPDATE outbox SET claimed_by = \(claimer.description), claim_expires = \(leaseUntil.seconds)
                FROM picked WHERE outbox.id = picked.id
                RETURNING outbox.*
                """).map { try Self.outbox($0, history: []) }
                .sorted { $0.id < $1.id }
            guard !claimed.isEmpty else { return [] }
            var bodies: [Int64: Data] = [:]
            for row in try await session.rows("SELECT outbox_id, body FROM outbox_body WHERE outbox_id = ANY(\(claimed.map(\.id)))") {
                bodies[try row.get("outbox_id")] = try row.get("body")
            }
            for index in claimed.indices { claimed[index].body = [UInt8](bodies[claimed[index].id] ?? Data()) }
            return claimed
        }
    }

    /// Only the claimer's own claim is updated: one whose lease ran out and was taken over
    /// leaves the row to its new claimer (the condition is tested again on the row's
    /// newest version once any other writer of it has committed).
    public func record(_ records: [AttemptRecord], claimer: Claimer) throws {
        guard !records.isEmpty else { return }
        try write { session in
            for record in records {
                try await session.execute("""
                    INSERT INTO attempt (outbox_id, at, outcome, code, message)
                    VALUES (\(record.id), \(record.attempt.at.seconds), \(record.attempt.outcome.rawValue), \(record.attempt.code), \(record.attempt.message))
                    """)
                let changed = try await session.execute("""
                    UPDATE outbox SET state = \(record.state.rawValue), attempts = attempts + \(record.countsAsAttempt ? 1 : 0),
                        next_attempt = COALESCE(\(record.nextAttempt?.seconds)::bigint, next_attempt),
                        claimed_by = CASE WHEN \(record.keepClaim) THEN claimed_by ELSE NULL END,
                        claim_expires = CASE WHEN \(record.keepClaim) THEN claim_expires ELSE NULL END
                    WHERE id = \(record.id) AND claimed_by = \(claimer.description)
                    """)
                if record.state == .delivered && changed > 0 {
                    try await session.execute("DELETE FROM outbox_body WHERE outbox_id = \(record.id)")
                }
            }
        }
    }

    public func deliveries(state: DeliveryState?, after: Int64?, count: Int?) throws -> [OutboxDelivery] {
        let (after, count) = (after ?? 0, count.map(Int64.init))
        return try readSnapshot { session in
            // The page's rows by the primary key from `after` on, then the attempts of
            // their ids, in one snapshot.
            var deliveries = try await session.rows("""
                SELECT * FROM outbox WHERE \(unescaped: DeliveryState.listingCondition(state)) AND id > \(after) ORDER BY id LIMIT \(count)::bigint
                """).map { try Self.outbox($0, history: []) }
            guard !deliveries.isEmpty else { return [] }
            deliveries.attach(try await session.rows("SELECT * FROM attempt WHERE outbox_id = ANY(\(deliveries.map(\.id))) ORDER BY id").map { row in
                (try row.get("outbox_id"), DeliveryAttempt(at: Instant(seconds: try row.get("at")),
                                                            outcome: DeliveryAttempt.Outcome(rawValue: try row.get("outcome")) ?? .temporary,
                                                            code: try row.get("code"), message: try row.get("message")))
            })
            return deliveries
        }
    }

    /// The failed rows are locked (`FOR UPDATE`) before they are checked: of two retries
    /// at once, the second waits, then finds them queued and not failed, so a delivery is
    /// queued again once. What is queued is due now: NOTIFY.
    public func retry(_ ids: [Int64]?, now: Instant) throws -> (queued: [Int64], notFailed: [Int64]) {
        let outcome = try write { session in
            let failed = try await session.rows("SELECT id FROM outbox WHERE state = 'failed' ORDER BY id FOR UPDATE")
                .map { try $0.get("id", as: Int64.self) }
            let selected = ids ?? failed
            let known = Set(failed)
            let notFailed = selected.filter { !known.contains($0) }
            guard notFailed.isEmpty else { return RetryOutcome(queued: [], notFailed: notFailed) }
            try await session.execute("""
                UPDATE outbox SET state = 'queued', attempts = 0, queued_at = \(now.seconds), next_attempt = \(now.seconds),
                    claimed_by = NULL, claim_expires = NULL
                WHERE id = ANY(\(selected))
                """)
            if !selected.isEmpty { try await Self.notifyDue(session) }
            return RetryOutcome(queued: selected, notFailed: [])
        }
        return (outcome.queued, outcome.notFailed)
    }

    /// Answers queued by `chime serve` or `chime respond` are due now: NOTIFY.
    public func enqueue(_ queued: [QueuedDelivery], deliveryID: String, identifier: String, recipient: String, at: Instant) throws {
        guard !queued.isEmpty else { return }
        try write { session in
            try await Self.enqueue(queued, deliveryID: deliveryID, identifier: identifier, recipient: recipient, at: at, in: session)
            try await Self.notifyDue(session)
        }
    }

    /// A delivery from its outbox row, without its body.
    private static func outbox(_ row: PostgresRandomAccessRow, history: [DeliveryAttempt]) throws -> OutboxDelivery {
        OutboxDelivery(
            id: try row.get("id"), deliveryID: try row.get("delivery_id"), identifier: try row.get("identifier"),
            recipient: try row.get("recipient"), channel: try row.get("channel"), address: try row.get("address"), body: [],
            state: DeliveryState(rawValue: try row.get("state")) ?? .queued, attempts: try row.get("attempts"),
            queuedAt: Instant(seconds: try row.get("queued_at")), nextAttempt: Instant(seconds: try row.get("next_attempt")), history: history)
    }
}

/// What ``PostgresStore/retry(_:now:)`` did, carried out of its transaction.
private struct RetryOutcome: Sendable {
    var queued: [Int64]
    var notFailed: [Int64]
}
