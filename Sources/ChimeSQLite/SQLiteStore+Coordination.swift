import ChimeCore
import Foundation
import GRDB

/// What every process sharing the store agrees on, kept in `setting`: the signing key,
/// turns (`turn:` names) and channels' paces (`pace:` names).
extension SQLiteStore {
    public func secretKey(keeping candidate: [UInt8]) throws -> [UInt8] {
        // Read first: once the key exists, nothing waits for the write lock to learn it.
        if let kept = try database.read({ db in try Data.fetchOne(db, sql: "SELECT value FROM setting WHERE name = 'secret_key'") }) {
            return [UInt8](kept)
        }
        return try database.write { db in
            try db.execute(sql: "INSERT INTO setting (name, value) VALUES ('secret_key', ?) ON CONFLICT (name) DO NOTHING",
                           arguments: [Data(candidate)])
            return [UInt8](try Data.fetchOne(db, sql: "SELECT value FROM setting WHERE name = 'secret_key'") ?? Data(candidate))
        }
    }

    public func takeTurn(_ name: String, at: Instant, every seconds: Int64) throws -> Bool {
        try database.write { db in
            let key = "turn:" + name
            if let when = try Self.text(db, of: key).flatMap({ Int64($0) }), at.seconds - when < seconds {
                return false
            }
            try Self.keep(db, String(at.seconds), as: key)
            return true
        }
    }

    /// Read and moved in one write transaction, which SQLite gives one process at a time.
    public func pace(_ name: String, _ ask: PaceAsk) throws -> Int64 {
        let key = "pace:" + name
        return try database.write { db in
            let (value, kept) = PaceState(text: try Self.text(db, of: key)).answer(ask)
            if let kept { try Self.keep(db, kept.text, as: key) }
            return value
        }
    }

    /// A setting kept as text (turns, paces), or nil.
    private static func text(_ db: Database, of key: String) throws -> String? {
        try Data.fetchOne(db, sql: "SELECT value FROM setting WHERE name = ?", arguments: [key]).map { String(decoding: $0, as: UTF8.self) }
    }

    /// Keeps `text` as the setting `key`, in place of what was kept.
    private static func keep(_ db: Database, _ text: String, as key: String) throws {
        try db.execute(sql: "INSERT INTO setting (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value",
                       arguments: [key, Data(text.utf8)])
    }
}
