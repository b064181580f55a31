import ChimeCore
import Foundation
import PostgresNIO

/// One recipient's stored policy, read and forgotten part by part.
extension PostgresStore {
    public func recipientPolicy(_ recipient: String, addresses: [String]) throws -> RecipientPolicy {
        try readSnapshot { session in try await Self.recipientPolicy(recipient, addresses: addresses, session) }
    }

    public func resetRecipientPolicy(_ recipient: String, _ parts: RecipientPolicy.Parts, addresses: [String]) throws -> RecipientPolicy {
        try write { session in
            if parts.contains(.settings) {
                try await session.execute("UPDATE recipient_setting SET locale = NULL, show_previews = NULL, quiet_hours = NULL WHERE recipient = \(recipient)")
            }
            if parts.contains(.optIn) {
                try await session.execute("UPDATE recipient_setting SET \"authorization\" = NULL WHERE recipient = \(recipient)")
                // The round is marked reset first, its row locked and its id read in one
                // statement, then that round's rows go: read by each statement (READ
                // COMMITTED), a round a run recorded meanwhile was marked reset while the
                // rows of the round before were deleted, its request sent with links that
                // confirmed nothing. Bodies and attempts go with their rows (ON DELETE CASCADE).
                if let asked = try await session.value("""
                    UPDATE opt_in SET asked_at = \(OptIn.resetMark) WHERE recipient = \(recipient) RETURNING delivery_id
                    """, as: String.self) {
                    try await session.execute("DELETE FROM outbox WHERE delivery_id = \(asked) AND recipient = \(recipient)")
                    try await session.execute("DELETE FROM response WHERE delivery_id = \(asked) AND recipient = \(recipient)")
                }
            }
            try await session.execute("""
                DELETE FROM recipient_setting WHERE recipient = \(recipient) AND locale IS NULL AND show_previews IS NULL
                    AND quiet_hours IS NULL AND "authorization" IS NULL
                """)
            if parts.contains(.preferences) {
                try await session.execute("DELETE FROM preference WHERE recipient = \(recipient)")
            }
            if parts.contains(.undeliverable) {
                try await session.execute("DELETE FROM undeliverable WHERE address = ANY(\(addresses.map { $0.lowercased() }))")
            }
            return try await Self.recipientPolicy(recipient, addresses: addresses, session)
        }
    }

    private static func recipientPolicy(_ recipient: String, addresses: [String], _ session: Session) async throws -> RecipientPolicy {
        var policy = RecipientPolicy()
        if let row = try await session.rows("SELECT * FROM recipient_setting WHERE recipient = \(recipient)").first {
            policy.settings = RecipientSettings(
                locale: try row.optional("locale"),
                showPreviews: try row.optional("show_previews", as: String.self).flatMap(Recipient.ShowPreviews.init),
                quietHours: try row.optional("quiet_hours"),
                authorization: try row.optional("authorization", as: String.self).flatMap(Recipient.Authorization.init))
            policy.settingsChangedAt = Instant(seconds: try row.get("at"))
        }
        for row in try await session.rows("SELECT category, deliver, at FROM preference WHERE recipient = \(recipient)") {
            if let deliver = DeliveryPreference(rawValue: try row.get("deliver")) {
                policy.preferences[try row.get("category")] = RecipientPolicy.ChosenPreference(deliver: deliver, at: Instant(seconds: try row.get("at")))
            }
        }
        policy.askedToOptInAt = try await session.value("SELECT asked_at FROM opt_in WHERE recipient = \(recipient) AND asked_at >= 0", as: Int64.self)
            .map(Instant.init(seconds:))
        let wanted = Set(addresses.map { $0.lowercased() }).sorted()
        policy.undeliverable = try await session.rows("SELECT address, at, reason FROM undeliverable WHERE address = ANY(\(wanted)) ORDER BY address").map {
            UndeliverableMark(address: try $0.get("address"), at: Instant(seconds: try $0.get("at")), reason: try $0.get("reason"))
        }
        return policy
    }
}
