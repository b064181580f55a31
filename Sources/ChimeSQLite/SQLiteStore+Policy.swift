import ChimeCore
import Foundation
import GRDB

/// What recipients changed for themselves (preferences, settings) and whether they were
/// asked to opt in.
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
            // Read for every reply: a cached statement, not compiled again each time.
            for row in try Row.fetchAll(db.cachedStatement(sql: "SELECT * FROM recipient_setting")) {
                found[row["recipient"]] = Self.settings(row)
            }
            return found
        }
    }

    private static func settings(_ row: Row) -> RecipientSettings {
        RecipientSettings(
            locale: row["locale"], showPreviews: (row["show_previews"] as String?).flatMap(Recipient.ShowPreviews.init),
            quietHours: row["quiet_hours"], authorization: (row["authorization"] as String?).flatMap(Recipient.Authorization.init))
    }

    public func saveSettings(recipient: String, _ settings: RecipientSettings, preferences: [String: DeliveryPreference], at: Instant) throws {
        try database.write { db in
            try db.execute(sql: """
                INSERT INTO recipient_setting (recipient, locale, show_previews, quiet_hours, authorization, at) VALUES (?, ?, ?, ?, ?, ?)
                ON CONFLICT (recipient) DO UPDATE SET locale = COALESCE(excluded.locale, locale),
                    show_previews = COALESCE(excluded.show_previews, show_previews), quiet_hours = COALESCE(excluded.quiet_hours, quiet_hours),
                    authorization = COALESCE(excluded.authorization, authorization), at = excluded.at
                """, arguments: [recipient, settings.locale, settings.showPreviews?.rawValue, settings.quietHours,
                                 settings.authorization?.rawValue, at.seconds])
            for (category, preference) in preferences {
                try Self.setPreference(recipient: recipient, category: category, preference, at: at, db)
            }
        }
    }

    public func askedToOptIn() throws -> Set<String> {
        try database.read { db in Set(try String.fetchAll(db, sql: "SELECT recipient FROM opt_in WHERE asked_at >= 0")) }
    }

    public func lastOptIn(recipient: String) throws -> (deliveryID: String, reset: Bool)? {
        try database.read { db in
            try Row.fetchOne(db, sql: "SELECT delivery_id, asked_at FROM opt_in WHERE recipient = ?", arguments: [recipient])
                .map { ($0["delivery_id"], ($0["asked_at"] as Int64) < 0) }
        }
    }

    public func recordOptIn(_ request: NotificationRequest, deliveryID: String, queued: [QueuedDelivery], at: Instant) throws -> Bool {
        let json = try request.storedJSON()
        return try database.write { db in
            // Once, or once again after a reset (the row kept, marked) under another
            // round's id: an asker that read the row before the reset would reuse the
            // round the reset ended, whose links would then confirm. One upsert is
            // enough here: SQLite's one writer runs two askers one after the other, where
            // PostgreSQL's may insert the same row at once (see its store's recordOptIn).
            try db.execute(sql: """
                INSERT INTO opt_in (recipient, delivery_id, request, asked_at) VALUES (?, ?, ?, ?)
                ON CONFLICT (recipient) DO UPDATE SET delivery_id = excluded.delivery_id, request = excluded.request, asked_at = excluded.asked_at
                    WHERE opt_in.asked_at < 0 AND opt_in.delivery_id != excluded.delivery_id
                """, arguments: [request.recipient, deliveryID, json, at.seconds])
            guard db.changesCount > 0 else { return false }
            try Self.enqueue(queued, deliveryID: deliveryID, identifier: request.identifier, recipient: request.recipient, at: at, in: db)
            return true
        }
    }

    public func recipientPolicy(_ recipient: String, addresses: [String]) throws -> RecipientPolicy {
        try database.read { db in try Self.recipientPolicy(recipient, addresses: addresses, db) }
    }

    public func resetRecipientPolicy(_ recipient: String, _ parts: RecipientPolicy.Parts, addresses: [String]) throws -> RecipientPolicy {
        try database.write { db in
            if parts.contains(.settings) {
                try db.execute(sql: "UPDATE recipient_setting SET locale = NULL, show_previews = NULL, quiet_hours = NULL WHERE recipient = ?",
                               arguments: [recipient])
            }
            if parts.contains(.optIn) {
                try db.execute(sql: "UPDATE recipient_setting SET authorization = NULL WHERE recipient = ?", arguments: [recipient])
                let asked = "(SELECT delivery_id FROM opt_in WHERE recipient = ?)"
                // Bodies and attempts go with their rows (ON DELETE CASCADE).
                try db.execute(sql: "DELETE FROM outbox WHERE delivery_id = \(asked) AND recipient = ?", arguments: [recipient, recipient])
                try db.execute(sql: "DELETE FROM response WHERE delivery_id = \(asked) AND recipient = ?", arguments: [recipient, recipient])
                try db.execute(sql: "UPDATE opt_in SET asked_at = ? WHERE recipient = ?", arguments: [OptIn.resetMark, recipient])
            }
            try db.execute(sql: """
                DELETE FROM recipient_setting WHERE recipient = ? AND locale IS NULL AND show_previews IS NULL
                    AND quiet_hours IS NULL AND authorization IS NULL
                """, arguments: [recipient])
            if parts.contains(.preferences) {
                try db.execute(sql: "DELETE FROM preference WHERE recipient = ?", arguments: [recipient])
            }
            if parts.contains(.undeliverable) {
                for address in addresses {
                    try db.execute(sql: "DELETE FROM undeliverable WHERE address = ?", arguments: [address.lowercased()])
                }
            }
            return try Self.recipientPolicy(recipient, addresses: addresses, db)
        }
    }

    private static func recipientPolicy(_ recipient: String, addresses: [String], _ db: Database) throws -> RecipientPolicy {
        var policy = RecipientPolicy()
        if let row = try Row.fetchOne(db, sql: "SELECT * FROM recipient_setting WHERE recipient = ?", arguments: [recipient]) {
            policy.settings = settings(row)
            policy.settingsChangedAt = Instant(seconds: row["at"])
        }
        for row in try Row.fetchAll(db, sql: "SELECT category, deliver, at FROM preference WHERE recipient = ?", arguments: [recipient]) {
            if let deliver = DeliveryPreference(rawValue: row["deliver"]) {
                policy.preferences[row["category"]] = RecipientPolicy.ChosenPreference(deliver: deliver, at: Instant(seconds: row["at"]))
            }
        }
        policy.askedToOptInAt = try Int64.fetchOne(db, sql: "SELECT asked_at FROM opt_in WHERE recipient = ? AND asked_at >= 0", arguments: [recipient])
            .map(Instant.init(seconds:))
        let marks = try db.cachedStatement(sql: "SELECT address, at, reason FROM undeliverable WHERE address = ?")
        for address in Set(addresses.map { $0.lowercased() }).sorted() {
            if let row = try Row.fetchOne(marks, arguments: [address]) {
                policy.undeliverable.append(UndeliverableMark(address: row["address"], at: Instant(seconds: row["at"]), reason: row["reason"]))
            }
        }
        return policy
    }
}
