import ChimeCore
import Foundation
import PostgresNIO

/// What recipients changed for themselves (preferences, settings), whether they were asked
/// to opt in, and the addresses marked undeliverable.
extension PostgresStore {
    public func preferences() throws -> [String: [String: DeliveryPreference]] {
        try read { session in
            var found: [String: [String: DeliveryPreference]] = [:]
            for row in try await session.rows("SELECT recipient, category, deliver FROM preference") {
                if let preference = DeliveryPreference(rawValue: try row.get("deliver")) {
                    found[try row.get("recipient"), default: [:]][try row.get("category")] = preference
                }
            }
            return found
        }
    }

    public func setPreference(recipient: String, category: String, _ preference: DeliveryPreference, at: Instant) throws {
        try write { session in try await Self.setPreference(recipient: recipient, category: category, preference, at: at, session) }
    }

    private static func setPreference(recipient: String, category: String, _ preference: DeliveryPreference, at: Instant,
                                      _ session: Session) async throws {
        try await session.execute("""
            INSERT INTO preference (recipient, category, deliver, at) VALUES (\(recipient), \(category), \(preference.rawValue), \(at.seconds))
            ON CONFLICT (recipient, category) DO UPDATE SET deliver = excluded.deliver, at = excluded.at
            """)
    }

    public func recipientSettings() throws -> [String: RecipientSettings] {
        try read { session in
            var found: [String: RecipientSettings] = [:]
            for row in try await session.rows("SELECT * FROM recipient_setting") {
                found[try row.get("recipient")] = RecipientSettings(
                    locale: try row.optional("locale"),
                    showPreviews: try row.optional("show_previews", as: String.self).flatMap(Recipient.ShowPreviews.init),
                    quietHours: try row.optional("quiet_hours"),
                    authorization: try row.optional("authorization", as: String.self).flatMap(Recipient.Authorization.init))
            }
            return found
        }
    }

    public func saveSettings(recipient: String, _ settings: RecipientSettings, preferences: [String: DeliveryPreference], at: Instant) throws {
        try write { session in
            try await session.execute("""
                INSERT INTO recipient_setting (recipient, locale, show_previews, quiet_hours, "authorization", at)
                VALUES (\(recipient), \(settings.locale), \(settings.showPreviews?.rawValue), \(settings.quietHours),
                        \(settings.authorization?.rawValue), \(at.seconds))
                ON CONFLICT (recipient) DO UPDATE SET locale = COALESCE(excluded.locale, recipient_setting.locale),
                    show_previews = COALESCE(excluded.show_previews, recipient_setting.show_previews),
                    quiet_hours = COALESCE(excluded.quiet_hours, recipient_setting.quiet_hours),
                    "authorization" = COALESCE(excluded."authorization", recipient_setting."authorization"), at = excluded.at
                """)
            for (category, preference) in preferences {
                try await Self.setPreference(recipient: recipient, category: category, preference, at: at, session)
            }
        }
    }

    public func askedToOptIn() throws -> Set<String> {
        try read { session in Set(try await session.rows("SELECT recipient FROM opt_in WHERE asked_at >= 0").map { try $0.get("recipient", as: String.self) }) }
    }

    public func lastOptIn(recipient: String) throws -> (deliveryID: String, reset: Bool)? {
        try read { session in
            try await session.rows("SELECT delivery_id, asked_at FROM opt_in WHERE recipient = \(recipient)").first
                .map { (try $0.get("delivery_id", as: String.self), try $0.get("asked_at", as: Int64.self) < 0) }
        }
    }

    /// Exactly once, or once again after a reset under another round's id (an asker that
    /// read the row before the reset would otherwise reuse the round the reset ended,
    /// whose links would then confirm). A reset row is taken by an `UPDATE`, which a
    /// second asker waits for and then finds no longer reset; a new row is inserted with
    /// `ON CONFLICT DO NOTHING` on every unique index: with `ON CONFLICT (recipient)`, two
    /// workers inserting one recipient's row at the same moment both passed that index's
    /// check, and the second failed on the delivery id's (23505).
    public func recordOptIn(_ request: NotificationRequest, deliveryID: String, queued: [QueuedDelivery], at: Instant) throws -> Bool {
        let json = try request.storedJSON()
        return try write { session in
            var asked = try await session.execute("""
                UPDATE opt_in SET delivery_id = \(deliveryID), request = \(json), asked_at = \(at.seconds)
                    WHERE recipient = \(request.recipient) AND asked_at < 0 AND delivery_id <> \(deliveryID)
                """)
            if asked == 0 {
                asked = try await session.execute("""
                    INSERT INTO opt_in (recipient, delivery_id, request, asked_at) VALUES (\(request.recipient), \(deliveryID), \(json), \(at.seconds))
                    ON CONFLICT DO NOTHING
                    """)
            }
            guard asked > 0 else { return false }
            try await Self.enqueue(queued, deliveryID: deliveryID, identifier: request.identifier, recipient: request.recipient, at: at, in: session)
            return true
        }
    }

    public func markUndeliverable(_ addresses: [String], reason: String, at: Instant) throws {
        guard !addresses.isEmpty else { return }
        try write { session in
            for address in addresses {
                try await session.execute("""
                    INSERT INTO undeliverable (address, at, reason) VALUES (\(address.lowercased()), \(at.seconds), \(reason))
                    ON CONFLICT (address) DO UPDATE SET at = excluded.at, reason = excluded.reason
                    """)
            }
        }
    }

    public func undeliverable() throws -> Set<String> {
        try read { session in Set(try await session.rows("SELECT address FROM undeliverable").map { try $0.get("address", as: String.self) }) }
    }

    public func undeliverableMarks() throws -> [UndeliverableMark] {
        try read { session in
            try await session.rows("SELECT address, at, reason FROM undeliverable ORDER BY address").map {
                UndeliverableMark(address: try $0.get("address"), at: Instant(seconds: try $0.get("at")), reason: try $0.get("reason"))
            }
        }
    }

    @discardableResult
    public func clearUndeliverable(_ addresses: [String]) throws -> [String] {
        let wanted = addresses.map { $0.lowercased() }
        guard !wanted.isEmpty else { return [] }
        let cleared = try write { session in
            Set(try await session.rows("DELETE FROM undeliverable WHERE address = ANY(\(wanted)) RETURNING address")
                .map { try $0.get("address", as: String.self) })
        }
        var left = cleared
        return wanted.filter { left.remove($0) != nil }
    }
}
