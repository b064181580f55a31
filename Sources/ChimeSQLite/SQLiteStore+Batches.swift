import ChimeCore
import Foundation
import GRDB

/// Notifications parked for digests and thread groups, and the batches that send them:
/// each parked notification taken by exactly one batch, claimed in one transaction.
extension SQLiteStore {
    public func parked(recipient: String) throws -> [ParkedNotification] {
        try database.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM parked WHERE recipient = ? AND thread IS NULL AND digest IS NULL ORDER BY fire_date, delivery_id",
                             arguments: [recipient]).map(Self.parked)
        }
    }

    public func claimBatch(id: String, recipient: String, thread: String?, slot: Instant, claimer: Claimer, at: Instant) throws -> MessageBatch? {
        try database.write { db in
            try db.execute(sql: """
                INSERT INTO batch (id, recipient, thread, slot, claimed_by, created_at) VALUES (?, ?, ?, ?, ?, ?)
                ON CONFLICT DO NOTHING
                """, arguments: [id, recipient, thread ?? "", slot.seconds, claimer.description, at.seconds])
            guard db.changesCount > 0 else { return nil }
            try db.execute(sql: "UPDATE parked SET digest = ? WHERE recipient = ? AND thread IS ? AND digest IS NULL AND (? OR fire_date <= ?)",
                           arguments: [id, recipient, thread, thread != nil, slot.seconds])
            return MessageBatch(id: id, recipient: recipient, thread: thread, claimer: claimer, createdAt: at,
                               items: try Self.items(of: id, db))
        }
    }

    public func hasDigest(recipient: String, slot: Instant) throws -> Bool {
        try database.read { db in
            try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM batch WHERE recipient = ? AND slot = ? AND thread = '')",
                              arguments: [recipient, slot.seconds]) ?? false
        }
    }

    public func waitingGroups() throws -> [WaitingGroup] {
        try database.read { db in
            var groups: [WaitingGroup] = []
            var seen = Set<[String]>()
            for row in try Row.fetchAll(db, sql: """
                SELECT recipient, thread, fire_date, delivery_id FROM parked WHERE thread IS NOT NULL AND digest IS NULL
                ORDER BY fire_date, delivery_id
                """) where seen.insert([row["recipient"], row["thread"]]).inserted {
                groups.append(WaitingGroup(recipient: row["recipient"], thread: row["thread"], first: Instant(seconds: row["fire_date"]),
                                           firstDeliveryID: row["delivery_id"]))
            }
            return groups
        }
    }

    public func unfinishedBatches(digests: Bool) throws -> [MessageBatch] {
        try database.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM batch WHERE sent_at IS NULL AND (thread = '') = ? ORDER BY created_at, id",
                             arguments: [digests]).map { row in
                let thread: String = row["thread"]
                return MessageBatch(id: row["id"], recipient: row["recipient"], thread: thread.isEmpty ? nil : thread,
                            claimer: (row["claimed_by"] as String?).flatMap(Claimer.init), createdAt: Instant(seconds: row["created_at"]),
                            items: [])
            }
        }
    }

    public func takeOver(_ batch: MessageBatch, claimer: Claimer) throws -> MessageBatch? {
        try database.write { db in
            try db.execute(sql: "UPDATE batch SET claimed_by = ? WHERE id = ? AND sent_at IS NULL AND claimed_by IS ?",
                           arguments: [claimer.description, batch.id, batch.claimer?.description])
            guard db.changesCount > 0 else { return nil }
            var taken = batch
            taken.claimer = claimer
            taken.items = try Self.items(of: batch.id, db)
            return taken
        }
    }

    public func finishBatch(_ batch: MessageBatch, queued: [QueuedDelivery], at: Instant) throws {
        try database.write { db in
            try db.execute(sql: "UPDATE batch SET sent_at = ? WHERE id = ? AND sent_at IS NULL", arguments: [at.seconds, batch.id])
            guard db.changesCount > 0 else { return }
            try Self.enqueue(queued, deliveryID: batch.id, identifier: batch.id, recipient: batch.recipient, at: at, in: db)
        }
    }

    private static func items(of digest: String, _ db: Database) throws -> [ParkedNotification] {
        try Row.fetchAll(db, sql: "SELECT * FROM parked WHERE digest = ? ORDER BY fire_date, delivery_id", arguments: [digest]).map(parked)
    }

    static func parked(_ row: Row) throws -> ParkedNotification {
        let deliveryID: String = row["delivery_id"]
        return ParkedNotification(deliveryID: deliveryID, request: try NotificationRequest(storedJSON: row["request"], table: .parked, identifier: deliveryID),
                                  fireDate: Instant(seconds: row["fire_date"]))
    }
}
