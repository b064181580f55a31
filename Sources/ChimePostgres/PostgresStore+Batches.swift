import ChimeCore
import Foundation
import PostgresNIO

/// Notifications parked for digests and thread groups, and the batches that send them:
/// each parked notification taken by exactly one batch, one digest per recipient and slot,
/// across workers.
extension PostgresStore {
    public func parked(recipient: String) throws -> [ParkedNotification] {
        try read { session in
            try await session.rows("""
                SELECT * FROM parked WHERE recipient = \(recipient) AND thread IS NULL AND digest IS NULL ORDER BY fire_date, delivery_id
                """).map(Self.parked)
        }
    }

    public func hasDigest(recipient: String, slot: Instant) throws -> Bool {
        try read { session in
            try await session.value("SELECT EXISTS (SELECT 1 FROM batch WHERE recipient = \(recipient) AND slot = \(slot.seconds) AND thread = '')",
                                    as: Bool.self) ?? false
        }
    }

    /// Exactly once: the batch row is inserted with `ON CONFLICT DO NOTHING` against its
    /// id and the unique (recipient, slot) of digests, so of two runs starting one digest
    /// or one group at once, the second waits for the first's insert and then inserts
    /// nothing (nil). The parked rows are taken by a conditional update (`digest IS NULL`),
    /// tested again on each row's newest version, so no row goes into two batches.
    public func claimBatch(id: String, recipient: String, thread: String?, slot: Instant, claimer: Claimer, at: Instant) throws -> MessageBatch? {
        try write { session in
            let inserted = try await session.execute("""
                INSERT INTO batch (id, recipient, thread, slot, claimed_by, created_at)
                VALUES (\(id), \(recipient), \(thread ?? ""), \(slot.seconds), \(claimer.description), \(at.seconds))
                ON CONFLICT DO NOTHING
                """)
            guard inserted > 0 else { return nil }
            try await session.execute("""
                UPDATE parked SET digest = \(id) WHERE recipient = \(recipient) AND thread IS NOT DISTINCT FROM \(thread)::text AND digest IS NULL
                    AND (\(thread != nil) OR fire_date <= \(slot.seconds))
                """)
            return MessageBatch(id: id, recipient: recipient, thread: thread, claimer: claimer, createdAt: at,
                                items: try await Self.items(of: id, session))
        }
    }

    public func waitingGroups() throws -> [WaitingGroup] {
        try read { session in
            var groups: [WaitingGroup] = []
            var seen = Set<[String]>()
            for row in try await session.rows("""
                SELECT recipient, thread, fire_date, delivery_id FROM parked WHERE thread IS NOT NULL AND digest IS NULL
                ORDER BY fire_date, delivery_id
                """) {
                let recipient: String = try row.get("recipient")
                let thread: String = try row.get("thread")
                guard seen.insert([recipient, thread]).inserted else { continue }
                groups.append(WaitingGroup(recipient: recipient, thread: thread, first: Instant(seconds: try row.get("fire_date")),
                                           firstDeliveryID: try row.get("delivery_id")))
            }
            return groups
        }
    }

    public func unfinishedBatches(digests: Bool) throws -> [MessageBatch] {
        try read { session in
            try await session.rows("SELECT * FROM batch WHERE sent_at IS NULL AND (thread = '') = \(digests) ORDER BY created_at, id").map { row in
                let thread: String = try row.get("thread")
                return MessageBatch(id: try row.get("id"), recipient: try row.get("recipient"), thread: thread.isEmpty ? nil : thread,
                                    claimer: try row.optional("claimed_by", as: String.self).flatMap(Claimer.init),
                                    createdAt: Instant(seconds: try row.get("created_at")), items: [])
            }
        }
    }

    /// Exactly once: a conditional update from the claimer the caller saw; of two runs
    /// taking one batch over at once, the second waits for the first's update, finds
    /// another claimer on the row's newest version, and gets nil.
    public func takeOver(_ batch: MessageBatch, claimer: Claimer) throws -> MessageBatch? {
        try write { session in
            let taken = try await session.execute("""
                UPDATE batch SET claimed_by = \(claimer.description)
                WHERE id = \(batch.id) AND sent_at IS NULL AND claimed_by IS NOT DISTINCT FROM \(batch.claimer?.description)::text
                """)
            guard taken > 0 else { return nil }
            var mine = batch
            mine.claimer = claimer
            mine.items = try await Self.items(of: batch.id, session)
            return mine
        }
    }

    /// Exactly once: the batch is marked sent by a conditional update (`sent_at IS NULL`),
    /// and its deliveries queued only by the run whose update took.
    public func finishBatch(_ batch: MessageBatch, queued: [QueuedDelivery], at: Instant) throws {
        try write { session in
            let finished = try await session.execute("UPDATE batch SET sent_at = \(at.seconds) WHERE id = \(batch.id) AND sent_at IS NULL")
            guard finished > 0 else { return }
            try await Self.enqueue(queued, deliveryID: batch.id, identifier: batch.id, recipient: batch.recipient, at: at, in: session)
        }
    }

    private static func items(of batch: String, _ session: Session) async throws -> [ParkedNotification] {
        try await session.rows("SELECT * FROM parked WHERE digest = \(batch) ORDER BY fire_date, delivery_id").map(parked)
    }

    static func parked(_ row: PostgresRandomAccessRow) throws -> ParkedNotification {
        let deliveryID: String = try row.get("delivery_id")
        return ParkedNotification(deliveryID: deliveryID, request: try NotificationRequest(storedJSON: row.get("request"), table: .parked, identifier: deliveryID),
                                  fireDate: Instant(seconds: try row.get("fire_date")))
    }
}
