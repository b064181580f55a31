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
}
