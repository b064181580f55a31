import ChimeCore
import Foundation
import GRDB

/// Preferences recipients changed, notifications held by quiet hours, and digests: each
/// parked notification taken by exactly one digest, claimed in one transaction.
extension SQLiteStore {
    public func preferences() throws -> [String: [String: DeliveryPreference]] {
        try database.read { db in
            var found: [String: [String: DeliveryPreference]] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT recipient, category, deliver FROM preference") {
                if let preference = DeliveryPreference(rawValue: row["deliver"]) { found[row["recipient"], default: [:]][row["category"]] = preference }
            }
            return found
        }
    }

    public func setPreference(recipient: String, category: String, _ preference: DeliveryPreference, at: Instant) throws {
        try database.write { db in try Self.setPreference(recipient: recipient, category: category, preference, at: at, db) }
    }

    private static func setPreference(recipient: String, category: String, _ preference: DeliveryPreference, at: Instant, _ db: Database) throws {
        try db.execute(sql: """
            INSERT INTO preference (recipient, category, deliver, at) VALUES (?, ?, ?, ?)
            ON CONFLICT (recipient, category) DO UPDATE SET deliver = excluded.deliver, at = excluded.at
            """, arguments: [recipient, category, preference.rawValue, at.seconds])
    }

    public func recipientSettings() throws -> [String: RecipientSettings] {
        try database.read { db in
            var found: [String: RecipientSettings] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT * FROM recipient_setting") {
                found[row["recipient"]] = RecipientSettings(
                    locale: row["locale"], showPreviews: (row["show_previews"] as String?).flatMap(Recipient.ShowPreviews.init),
                    quietHours: row["quiet_hours"], authorization: (row["authorization"] as String?).flatMap(Recipient.Authorization.init))
            }
            return found
        }
    }

    public func saveSettings(recipient: String, _ settings: RecipientSettings, preferences: [String: DeliveryPreference], at: Instant) throws {
        try database.write { db in
            try db.execute(sql: """
                INSERT INTO recipient_setting (recipient, locale, show_previews, quiet_hours, authorization, at) VALUES (?, ?, ?, ?, ?, ?)
                ON CONFLICT (recipient) DO UPDATE SET locale = excluded.locale, show_previews = excluded.show_previews,
                    quiet_hours = excluded.quiet_hours, authorization = excluded.authorization, at = excluded.at
                """, arguments: [recipient, settings.locale, settings.showPreviews?.rawValue, settings.quietHours,
                                 settings.authorization?.rawValue, at.seconds])
            for (category, preference) in preferences {
                try Self.setPreference(recipient: recipient, category: category, preference, at: at, db)
            }
        }
    }

    public func askedToOptIn() throws -> Set<String> {
        try database.read { db in Set(try String.fetchAll(db, sql: "SELECT recipient FROM opt_in")) }
    }

    public func recordOptIn(_ request: NotificationRequest, deliveryID: String, queued: [QueuedDelivery], at: Instant) throws -> Bool {
        let json = try Self.encode(request)
        return try database.write { db in
            try db.execute(sql: "INSERT INTO opt_in (recipient, delivery_id, request, asked_at) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING",
                           arguments: [request.recipient, deliveryID, json, at.seconds])
            guard db.changesCount > 0 else { return false }
            try Self.enqueue(queued, deliveryID: deliveryID, identifier: request.identifier, recipient: request.recipient, at: at, in: db)
            return true
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
            try db.execute(sql: "UPDATE parked SET digest = ? WHERE recipient = ? AND thread IS ? AND digest IS NULL",
                           arguments: [id, recipient, thread])
            return MessageBatch(id: id, recipient: recipient, thread: thread, slot: slot, claimer: claimer, createdAt: at,
                               items: try Self.items(of: id, db))
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
                return MessageBatch(id: row["id"], recipient: row["recipient"], thread: thread.isEmpty ? nil : thread, slot: Instant(seconds: row["slot"]),
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
        ParkedNotification(deliveryID: row["delivery_id"], request: try decode(row["request"]), fireDate: Instant(seconds: row["fire_date"]))
    }
}
