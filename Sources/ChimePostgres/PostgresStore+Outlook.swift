import ChimeCore
import Foundation
import PostgresNIO

extension PostgresStore {
    public func runOutlook(now: Instant) throws -> RunOutlook {
        try read { session in
            // Each EXISTS stops at its first row, found by an index or in a table that is
            // empty between runs; the same conditions as the SQLite store's.
            guard let row = try await session.rows("""
                SELECT EXISTS (SELECT 1 FROM pending WHERE next_fire <= \(now.seconds) AND (not_before IS NULL OR not_before <= \(now.seconds)))
                    OR EXISTS (SELECT 1 FROM pending WHERE claimed_by IS NOT NULL)
                    OR EXISTS (SELECT 1 FROM sent)
                    OR EXISTS (SELECT 1 FROM outbox WHERE state = 'queued' AND next_attempt <= \(now.seconds))
                    OR EXISTS (SELECT 1 FROM outbox WHERE claimed_by IS NOT NULL)
                    OR EXISTS (SELECT 1 FROM parked WHERE thread IS NOT NULL AND digest IS NULL)
                    OR EXISTS (SELECT 1 FROM batch WHERE sent_at IS NULL AND thread <> '') AS work,
                    (SELECT value FROM setting WHERE name = \(RunOutlook.settingName)) AS followed
                """).first else { return RunOutlook(hasWork: true, followedConfiguration: nil) }
            let followed = try row.optional("followed", as: Data.self).map { String(decoding: $0, as: UTF8.self) }
            return RunOutlook(hasWork: try row.get("work", as: Bool.self), followedConfiguration: followed)
        }
    }

    public func keepFollowedConfiguration(_ fingerprint: String, zones: [String: String]) throws {
        try write { session in
            guard RunOutlook.zones(try await Self.recipientZones(session, locking: true), follow: zones) else {
                return try await Self.forgetFollowedConfiguration(session)
            }
            try await session.execute("""
                INSERT INTO setting (name, value) VALUES (\(RunOutlook.settingName), \(Data(fingerprint.utf8)))
                ON CONFLICT (name) DO UPDATE SET value = excluded.value WHERE setting.value IS DISTINCT FROM excluded.value
                """)
        }
    }

    /// Forgets the configuration followed: a recipient was moved or added.
    static func forgetFollowedConfiguration(_ session: Session) async throws {
        try await session.execute("DELETE FROM setting WHERE name = \(RunOutlook.settingName)")
    }
}
