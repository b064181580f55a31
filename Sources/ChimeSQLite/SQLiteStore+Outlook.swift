import ChimeCore
import Foundation
import GRDB

extension SQLiteStore {
    public func runOutlook(now: Instant) throws -> RunOutlook {
        try database.read { db in
            // Each EXISTS stops at its first row, found by an index (pending_next_fire,
            // pending_claimed_by, outbox_due, outbox_claimed_by) or in a table that is
            // empty between runs (sent, parked threads, unfinished batches).
            let row = try Row.fetchOne(db, sql: """
                SELECT EXISTS (SELECT 1 FROM pending WHERE next_fire <= :now AND (not_before IS NULL OR not_before <= :now))
                    OR EXISTS (SELECT 1 FROM pending WHERE claimed_by IS NOT NULL)
                    OR EXISTS (SELECT 1 FROM sent)
                    OR EXISTS (SELECT 1 FROM outbox WHERE state = 'queued' AND next_attempt <= :now)
                    OR EXISTS (SELECT 1 FROM outbox WHERE claimed_by IS NOT NULL)
                    OR EXISTS (SELECT 1 FROM parked WHERE thread IS NOT NULL AND digest IS NULL)
                    OR EXISTS (SELECT 1 FROM batch WHERE sent_at IS NULL AND thread <> '') AS work,
                    (SELECT value FROM setting WHERE name = :name) AS followed
                """, arguments: ["now": now.seconds, "name": RunOutlook.settingName])
            let followed = (row?["followed"] as Data?).map { String(decoding: $0, as: UTF8.self) }
            return RunOutlook(hasWork: row?["work"] ?? true, followedConfiguration: followed)
        }
    }

    public func keepFollowedConfiguration(_ fingerprint: String, zones: [String: String]) throws {
        try database.write { db in
            guard RunOutlook.zones(try Self.recipientZones(db), follow: zones) else { return try Self.forgetFollowedConfiguration(db) }
            try db.execute(sql: """
                INSERT INTO setting (name, value) VALUES (?, ?)
                ON CONFLICT (name) DO UPDATE SET value = excluded.value WHERE value IS NOT excluded.value
                """, arguments: [RunOutlook.settingName, Data(fingerprint.utf8)])
        }
    }

    /// Forgets the configuration followed: a recipient was moved or added.
    static func forgetFollowedConfiguration(_ db: Database) throws {
        try db.execute(sql: "DELETE FROM setting WHERE name = ?", arguments: [RunOutlook.settingName])
    }
}
