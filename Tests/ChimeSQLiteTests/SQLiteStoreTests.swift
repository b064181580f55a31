import CChimeSQLiteVFS
import ChimeCore
import ChimeSQLite
import ChimeTestSupport
import Foundation
import GRDB
import Testing

/// What is SQLite's own: the file, its mode, its migrations. What every store does is
/// specified once in ChimeStoreConformanceTests.
@Suite("The SQLite store")
struct SQLiteStoreTests {
    /// Each test's folder, gone with it.
    private let folder = TemporaryFolder("chime-sqlite")
    private var directory: URL { folder.url }

    private var path: String { directory.appendingPathComponent("chime.sqlite").path }

    /// A new store in a folder of this test's own (the connection's tests share it).
    func store() throws -> SQLiteStore {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return try SQLiteStore(path: path)
    }

    static let migrations = [
        "v1 pending and delivered notifications", "v2 sent marks", "v3 outbox and attempts", "v4 replies", "v5 carrying out",
        "v6 chat threads", "v7 delivery policy", "v8 thread groups", "v9 recipient settings", "v10 opt-in", "v11 waiting groups index",
        "v12 quiet-hours hold index", "v13 idempotency keys", "v14 claimed rows index",
        "v15 delivered by recipient, with delivery ids", "v16 carried-out responses index", "v17 answered deliveries",
        "v18 answered inbound messages", "v19 idempotency keys by age", "v20 delivered by time",
    ]

    @Test("the file is in WAL mode, with the migrations recorded, the next-fire index, claimers indexed for claimed rows only, delivered rows by recipient with their ids, and carried-out responses by delivery")
    func schema() throws {
        _ = try store()
        let lines = try Self.python("""
            import sqlite3, sys
            db = sqlite3.connect(sys.argv[1])
            print(db.execute("PRAGMA journal_mode").fetchone()[0])
            print(",".join(r[0] for r in db.execute("SELECT identifier FROM grdb_migrations")))
            print(",".join(sorted(r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'index' AND name LIKE 'pending_%'"))))
            print(db.execute("SELECT sql FROM sqlite_master WHERE name = 'pending_claimed_by'").fetchone()[0])
            print(db.execute("SELECT sql FROM sqlite_master WHERE name = 'outbox_claimed_by'").fetchone()[0])
            print(",".join(sorted(r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'delivered'"))))
            print(db.execute("SELECT sql FROM sqlite_master WHERE name = 'delivered_recipient_ids'").fetchone()[0])
            print(db.execute("SELECT sql FROM sqlite_master WHERE name = 'response_carried_out'").fetchone()[0])
            """, path).split(separator: "\n")
        #expect(lines.map(String.init) == [
            "wal", Self.migrations.joined(separator: ","), "pending_claimed_by,pending_next_fire,pending_not_before,pending_recipient",
            "CREATE INDEX pending_claimed_by ON pending (claimed_by) WHERE claimed_by IS NOT NULL",
            "CREATE INDEX outbox_claimed_by ON outbox (claimed_by) WHERE claimed_by IS NOT NULL",
            // The recipient's delivery ids in the index: counting what is still open reads no row.
            "delivered_delivery,delivered_recipient_ids,delivered_time,delivered_unanswered,sqlite_autoindex_delivered_1",
            "CREATE INDEX delivered_recipient_ids ON delivered (recipient, delivered_at, delivery_id)",
            // Whether a delivery's response was carried out, answered from the index alone.
            "CREATE INDEX response_carried_out ON response (delivery_id) WHERE status = 'carried out'",
        ])
    }

    @Test("opening a new store runs every migration, in order; opening it again runs none")
    func migrationsRun() throws {
        #expect(try store().migrationsRun == Self.migrations)
        #expect(try SQLiteStore(path: path).migrationsRun.isEmpty)
    }

    @Test("eight stores opened on a new file at once: each migration runs once, every open succeeds")
    func concurrentOpens() throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let ran = RanBox()
        DispatchQueue.concurrentPerform(iterations: 8) { [path] _ in
            ran.add(Result { try SQLiteStore(path: path).migrationsRun })
        }
        let all = try ran.results.flatMap { try $0.get() }
        #expect(all.sorted() == Self.migrations.sorted())
    }

    @Test("a long run of commits is checkpointed beside the writer: the file takes the pages while the store is open, the log stays bounded, and closing removes it")
    func checkpointsBesideTheWriter() throws {
        var store: SQLiteStore? = try self.store()
        let fileSize = { (path: String) in ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int) ?? 0 }
        // 1,000 requests of 2 KB, rewritten 60 times: about 33,000 pages of log without
        // checkpoints.
        let filler = String(repeating: "x", count: 2000)
        var largestLog = 0
        for round in 0..<60 {
            try store?.upsert((0..<1000).map { index in
                PendingNotification(
                    request: NotificationRequest(identifier: "r\(index)", recipient: "alice",
                                                 content: NotificationContent(title: "\(round) \(filler)", categoryIdentifier: "reminder"),
                                                 trigger: .timeInterval(seconds: 60, repeats: false)),
                    added: Instant(seconds: 0), nextFire: Instant(seconds: 60), anchor: Instant(seconds: 0), zone: "UTC", generation: "g\(round)")
            })
            largestLog = max(largestLog, fileSize(path + "-wal"))
        }
        // At most the 10,000 frames past which the writer checkpoints itself when the thread
        // beside it falls behind (a busy machine), and the commits that follow while that
        // thread's checkpoint holds the log: 12,108 frames seen in a full run, 15,135 in CI
        // with the test suite on both cores; far from the 33,000 of a log never checkpointed.
        #expect(largestLog < 20_000 * (4_096 + 24), "the log grew to \(largestLog) bytes")
        // The pages reach the database file while the store is still open.
        let deadline = Date().addingTimeInterval(10)
        while fileSize(path) < 2_000_000, Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        #expect(fileSize(path) >= 2_000_000)
        store = nil
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
        #expect(try SQLiteStore(path: path).pending(recipient: "alice", limits: [:]).count == 1000)
    }

    @Test("the log's frames, each header and page written in one pwrite, are read by another SQLite (Python's) while the store is open")
    func framesInOnePwrite() throws {
        let joinedBefore = chime_wal_frames_joined()
        let store = try self.store()
        for round in 0..<3 {
            try store.upsert((0..<100).map { index in
                PendingNotification(
                    request: NotificationRequest(identifier: "r\(round)-\(index)", recipient: "alice",
                                                 content: NotificationContent(title: "Round \(round)", categoryIdentifier: "reminder"),
                                                 trigger: .timeInterval(seconds: 60, repeats: false)),
                    added: Instant(seconds: 0), nextFire: Instant(seconds: 60), anchor: Instant(seconds: 0), zone: "UTC", generation: "g")
            })
        }
        #expect(chime_wal_frames_joined() > joinedBefore, "the store's log is written through CChimeSQLiteVFS")
        // Still open, the log not checkpointed: the rows are in its frames, which Python's
        // SQLite (the stock VFS, checking each frame's checksum) reads.
        #expect(FileManager.default.fileExists(atPath: path + "-wal"))
        let output = try Self.python("""
            import sqlite3, sys
            db = sqlite3.connect(sys.argv[1])
            print(db.execute("SELECT COUNT(*), COUNT(DISTINCT identifier) FROM pending").fetchone())
            print(db.execute("PRAGMA integrity_check").fetchone()[0])
            """, path)
        #expect(output == "(300, 300)\nok\n", "\(output)")
    }

    @Test("a commit that rewrites frames already in the log (a page spilled, then changed) survives a killed process: its files as they are then hold every row")
    func rewrittenFramesSurvive() throws {
        #expect(chime_wal_frames_register() == 0)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let queue = try DatabaseQueue(path: path)
        try queue.writeWithoutTransaction { db in
            _ = try String.fetchOne(db, sql: "PRAGMA journal_mode = WAL")
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
            // A cache of 10 pages spills the transaction's pages into the log before its
            // commit, which changes one of them again: SQLite then rewrites the headers of
            // frames already written (their checksums), the commit frame's last.
            try db.execute(sql: "PRAGMA cache_size = 10")
            try db.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT NOT NULL)")
            try db.inTransaction {
                for _ in 0..<2_000 { try db.execute(sql: "INSERT INTO t (v) VALUES (?)", arguments: [String(repeating: "x", count: 500)]) }
                try db.execute(sql: "UPDATE t SET v = 'changed' WHERE id = 1")
                return .commit
            }
        }
        // What a process killed now leaves: the file and its log as they are (no -shm,
        // so the reader recovers the log), read by Python's SQLite (the stock VFS).
        let copy = directory.appendingPathComponent("killed")
        try FileManager.default.createDirectory(at: copy, withIntermediateDirectories: true)
        for suffix in ["", "-wal"] {
            try FileManager.default.copyItem(atPath: path + suffix, toPath: copy.appendingPathComponent("chime.sqlite" + suffix).path)
        }
        withExtendedLifetime(queue) {}
        let output = try Self.python("""
            import sqlite3, sys
            db = sqlite3.connect(sys.argv[1])
            print(db.execute("SELECT COUNT(*), MIN(v) FROM t").fetchone())
            """, copy.appendingPathComponent("chime.sqlite").path)
        #expect(output == "(2000, 'changed')\n", "\(output)")
    }

    @Test("a store that cannot be created is an open error")
    func unwritable() {
        #expect(throws: StoreFailure.self) { try SQLiteStore(path: "/proc/chime/store.sqlite") }
    }
}

extension SQLiteStoreTests {
    /// What a Python script (`python3 -c`, its SQLite the stock one) prints, given `argument`.
    static func python(_ script: String, _ argument: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script, argument]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        process.waitUntilExit()
        return String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    }
}

private final class RanBox: @unchecked Sendable { // guarded by lock
    private let lock = NSLock()
    private var results_: [Result<[String], any Error>] = []
    func add(_ result: Result<[String], any Error>) { lock.withLock { results_.append(result) } }
    var results: [Result<[String], any Error>] { lock.withLock { results_ } }
}
