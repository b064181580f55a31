import ChimeCore
import Foundation
import PostgresNIO

/// Pending and delivered notifications, and the zones floating requests follow.
extension PostgresStore {
    /// Each row one `INSERT … ON CONFLICT DO UPDATE`, which PostgreSQL makes atomic: of two
    /// processes adding one identifier at once, the second waits for the first's row and
    /// then replaces it, so each request is in the table once and the second reports the
    /// replacement. Whether a row was replaced is read from the statement itself (`xmax`
    /// is 0 on a row it inserted), not from a read before it, which another process could
    /// make stale. A `NOTIFY chime_due` in the same transaction wakes every waiting
    /// `chime serve` once it commits: what was added may be due sooner than they wait for.
    @discardableResult
    public func upsert(_ notifications: [PendingNotification]) throws -> [String] {
        guard !notifications.isEmpty else { return [] }
        let rows = try notifications.map { ($0, try $0.request.storedJSON()) }
        return try write { session in
            var replaced: [String] = []
            for (notification, json) in rows {
                let request = notification.request
                let wasThere = try await session.value("""
                    INSERT INTO pending (identifier, recipient, request, added_at, next_fire, anchor, zone, floating, generation, claimed_by, claim_expires)
                    VALUES (\(request.identifier), \(request.recipient), \(json), \(notification.added.seconds), \(notification.nextFire.seconds),
                            \(notification.anchor.seconds), \(notification.zone), \(request.trigger.isFloating ? 1 : 0), \(notification.generation), NULL, NULL)
                    ON CONFLICT (identifier) DO UPDATE SET
                        recipient = excluded.recipient, request = excluded.request, added_at = excluded.added_at,
                        next_fire = excluded.next_fire, anchor = excluded.anchor, zone = excluded.zone,
                        floating = excluded.floating, generation = excluded.generation, fired_count = 0, not_before = NULL,
                        claimed_by = NULL, claim_expires = NULL
                    RETURNING xmax <> 0
                    """, as: Bool.self)
                if wasThere == true { replaced.append(request.identifier) }
                if request.trigger.isFloating {
                    let added = try await session.value("""
                        INSERT INTO recipient_zone (recipient, zone) VALUES (\(request.recipient), \(notification.zone))
                        ON CONFLICT (recipient) DO NOTHING RETURNING 1
                        """, as: Int32.self)
                    if added != nil { try await Self.forgetFollowedConfiguration(session) }
                }
            }
            try await Self.notifyDue(session)
            return replaced
        }
    }

    public func pending(recipient: String?, limits: [String: Int], after: ListingKey?, count: Int?) throws -> [PendingNotification] {
        guard Self.canBeText(recipient, after) else { return [] }
        // One snapshot: a page's set-aside marks come from the same state as the page.
        return try readSnapshot { session in
            // By pending_next_fire (or pending_recipient) from `after` on: the `>=` is
            // the index's range (PostgreSQL takes none from the OR).
            let (seconds, identifier, count) = (after?.seconds, after?.identifier, count.map(Int64.init))
            var notifications = try await session.rows("""
                SELECT * FROM pending WHERE (\(recipient)::text IS NULL OR recipient = \(recipient))
                    AND (\(seconds)::bigint IS NULL OR (next_fire >= \(seconds)
                         AND (next_fire > \(seconds) OR (next_fire = \(seconds) AND identifier > \(identifier)))))
                ORDER BY next_fire, identifier LIMIT \(count)::bigint
                """).map(Self.pending)
            var boundaries: [[UInt8]: ListingKey]?
            if after != nil || count != nil {
                boundaries = [:]
                for (recipient, limit) in notifications.limitedRecipients(limits) {
                    boundaries?[[UInt8](recipient.utf8)] = try await session.rows("""
                        SELECT next_fire, identifier FROM pending WHERE recipient = \(recipient) ORDER BY next_fire, identifier LIMIT 1 OFFSET \(limit - 1)
                        """).first.map { ListingKey(seconds: try $0.get("next_fire"), identifier: try $0.get("identifier")) }
                }
            }
            notifications.setAside(beyond: limits, boundaries: boundaries)
            return notifications
        }
    }

    /// Whether a listing's recipient and cursor can be PostgreSQL text, which holds no NUL:
    /// one that holds one names nothing stored (`?recipient=%00` was a 500, the server
    /// refusing the bytes, where SQLite finds nothing).
    private static func canBeText(_ recipient: String?, _ after: ListingKey?) -> Bool {
        NotificationRequest.canBeIdentifier(recipient ?? "") && NotificationRequest.canBeIdentifier(after?.identifier ?? "")
    }

    public func pending(identifier: String) throws -> PendingNotification? {
        guard NotificationRequest.canBeIdentifier(identifier) else { return nil }
        return try read { session in
            try await session.rows("SELECT * FROM pending WHERE identifier = \(identifier)").first.map(Self.pending)
        }
    }

    public func cancel(_ identifiers: [String]) throws -> [String] {
        let identifiers = identifiers.filter(NotificationRequest.canBeIdentifier)
        let removed = try write { session in
            Set(try await session.rows("DELETE FROM pending WHERE identifier = ANY(\(identifiers)) RETURNING identifier")
                .map { try $0.get("identifier", as: String.self) })
        }
        var left = removed
        return identifiers.filter { left.remove($0) != nil }
    }

    public func cancelAll() throws -> Int {
        try write { session in try await session.execute("DELETE FROM pending") }
    }

    // MARK: Delivered

    public func delivered(recipient: String?, after: ListingKey?, count: Int?) throws -> [DeliveredNotification] {
        guard Self.canBeText(recipient, after) else { return [] }
        return try read { session in
            let (seconds, identifier, count) = (after?.seconds, after?.identifier, count.map(Int64.init))
            return try await session.rows("""
                SELECT * FROM delivered WHERE (\(recipient)::text IS NULL OR recipient = \(recipient))
                    AND (\(seconds)::bigint IS NULL OR (delivered_at <= \(seconds)
                         AND (delivered_at < \(seconds) OR (delivered_at = \(seconds) AND identifier > \(identifier)))))
                ORDER BY delivered_at DESC, identifier LIMIT \(count)::bigint
                """).map { row in
                let key: String = try row.get("identifier")
                return DeliveredNotification(
                    request: try NotificationRequest(storedJSON: row.get("request"), table: .delivered, identifier: key),
                    fireDate: Instant(seconds: try row.get("fire_date")),
                    deliveredAt: Instant(seconds: try row.get("delivered_at")),
                    deliveryID: try row.get("delivery_id"),
                    coalesced: try row.get("coalesced"))
            }
        }
    }

    /// A removed notification still waiting for its digest or its thread's message is
    /// taken out of it too.
    public func removeDelivered(_ identifiers: [String]) throws -> [String] {
        let identifiers = identifiers.filter(NotificationRequest.canBeIdentifier)
        let removed = try write { session in
            // Every occurrence parked: delivered keeps only the latest, and a repeating
            // request parks one each time, under its generation (`GENERATION.FIRE`): each
            // generation's parked ids are read by the primary key's order (COLLATE "C").
            var generations = Set<String>()
            for row in try await session.rows("SELECT delivery_id FROM delivered WHERE identifier = ANY(\(identifiers))") {
                generations.insert(PendingNotification.parts(ofDelivery: try row.get("delivery_id", as: String.self)).generation)
            }
            for row in try await session.rows("SELECT generation FROM pending WHERE identifier = ANY(\(identifiers))") {
                generations.insert(try row.get("generation", as: String.self))
            }
            for generation in generations {
                let range = PendingNotification.deliveryIDs(ofGeneration: generation)
                let ids = try await session.rows("""
                    SELECT delivery_id FROM parked WHERE delivery_id >= \(range.from) AND delivery_id < \(range.upTo) AND digest IS NULL
                    """).map { try $0.get("delivery_id", as: String.self) }
                    .filter { PendingNotification.isOccurrence($0, of: generation) }
                if !ids.isEmpty { try await session.execute("DELETE FROM parked WHERE delivery_id = ANY(\(ids)) AND digest IS NULL") }
            }
            return Set(try await session.rows("DELETE FROM delivered WHERE identifier = ANY(\(identifiers)) RETURNING identifier")
                .map { try $0.get("identifier", as: String.self) })
        }
        var left = removed
        return identifiers.filter { left.remove($0) != nil }
    }

    public func removeAllDelivered() throws -> Int {
        try write { session in
            try await session.execute("DELETE FROM parked WHERE digest IS NULL")
            return try await session.execute("DELETE FROM delivered")
        }
    }

    // MARK: Floating triggers

    public func recipientZones() throws -> [String: String] {
        try read { session in try await Self.recipientZones(session) }
    }

    /// `locking`: under a share lock, so that a move committing meanwhile waits for the
    /// transaction that read them.
    static func recipientZones(_ session: Session, locking: Bool = false) async throws -> [String: String] {
        let query: PostgresQuery = locking ? "SELECT recipient, zone FROM recipient_zone FOR SHARE" : "SELECT recipient, zone FROM recipient_zone"
        return Dictionary(try await session.rows(query).map { (try $0.get("recipient"), try $0.get("zone")) }, uniquingKeysWith: { first, _ in first })
    }

    public func floatingPending(recipient: String) throws -> [PendingNotification] {
        try read { session in
            try await session.rows("SELECT * FROM pending WHERE recipient = \(recipient) AND floating = 1").map(Self.pending)
        }
    }

    /// Each row moved only if it is still the generation computed (one replaced meanwhile
    /// keeps its own instant). A request may come due sooner in the new zone: NOTIFY.
    public func moveRecipient(_ recipient: String, to zone: String, updated: [PendingNotification]) throws {
        try write { session in
            for notification in updated {
                try await session.execute("""
                    UPDATE pending SET next_fire = \(notification.nextFire.seconds), zone = \(notification.zone)
                    WHERE identifier = \(notification.request.identifier) AND generation = \(notification.generation)
                    """)
            }
            try await session.execute("""
                INSERT INTO recipient_zone (recipient, zone) VALUES (\(recipient), \(zone)) ON CONFLICT (recipient) DO UPDATE SET zone = excluded.zone
                """)
            try await Self.forgetFollowedConfiguration(session)
            try await Self.notifyDue(session)
        }
    }

    // MARK: Rows

    static func pending(_ row: PostgresRandomAccessRow) throws -> PendingNotification {
        let json: String = try row.get("request")
        let identifier: String = try row.get("identifier"), generation: String = try row.get("generation")
        var notification = PendingNotification(
            request: try NotificationRequest(storedJSON: json, table: .pending, identifier: identifier, generation: generation),
            added: Instant(seconds: try row.get("added_at")),
            nextFire: Instant(seconds: try row.get("next_fire")),
            anchor: Instant(seconds: try row.get("anchor")),
            zone: try row.get("zone"),
            generation: generation)
        notification.firedCount = try row.get("fired_count")
        notification.encodedRequest = json
        return notification
    }
}
