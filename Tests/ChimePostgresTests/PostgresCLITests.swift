@testable import ChimePostgres
import ChimeTestSupport
import Foundation
import Testing

/// The real `chime` executable with `--store postgres://…`.
@Suite("chime on PostgreSQL")
struct PostgresCLITests {
    /// The `chime` built beside this test binary (or `$CHIME_BIN`).
    static let chime: URL = {
        if let path = ProcessInfo.processInfo.environment["CHIME_BIN"] { return URL(fileURLWithPath: path) }
        return URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent().appendingPathComponent("chime")
    }()

    static let configuration = """
        <chime version="1">
          <categories><category identifier="reminder"><action identifier="done" title="Done"/></category></categories>
          <channels><channel id="box" url="maildir:./outbox"/></channels>
          <recipients><recipient id="carol" timeZone="UTC"><address channel="box">carol@example.org</address></recipient></recipients>
        </chime>
        """

    struct Run {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// Starts `chime` in `folder`; its output goes to files read by ``finish(_:)``.
    static func start(_ arguments: [String], in folder: URL) throws -> (Process, URL, URL) {
        let process = Process()
        process.executableURL = chime
        process.arguments = arguments
        process.currentDirectoryURL = folder
        var environment = ProcessInfo.processInfo.environment
        environment.removeValue(forKey: "CHIME_CONFIG")
        environment.removeValue(forKey: "CHIME_STORE")
        process.environment = environment
        let out = folder.appendingPathComponent("out-\(UUID().uuidString)"), err = folder.appendingPathComponent("err-\(UUID().uuidString)")
        process.standardOutput = try FileHandle.creatingEmpty(at: out)
        process.standardError = try FileHandle.creatingEmpty(at: err)
        process.standardInput = FileHandle.nullDevice
        try process.run()
        return (process, out, err)
    }

    static func finish(_ started: (Process, URL, URL)) throws -> Run {
        started.0.waitUntilExit()
        defer {
            try? FileManager.default.removeItem(at: started.1)
            try? FileManager.default.removeItem(at: started.2)
        }
        return Run(status: started.0.terminationStatus, stdout: try String(contentsOf: started.1, encoding: .utf8),
                   stderr: try String(contentsOf: started.2, encoding: .utf8))
    }

    static func run(_ arguments: [String], in folder: URL) throws -> Run {
        try finish(try start(arguments, in: folder))
    }

    static func workspace() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("chime-pg-ws-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try configuration.write(to: folder.appendingPathComponent("chime.xml"), atomically: true, encoding: .utf8)
        return folder
    }

    @Test("chime schedule, chime pending --json and chime run against postgres://: the reminder lands in the Maildir once")
    func endToEnd() throws {
        let store = try PostgresServer.shared().makeDatabase()
        let folder = try Self.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        let json = (1...3).map {
            #"{"identifier": "tea-\#($0)", "recipient": "carol", "content": {"title": "Tea \#($0)", "body": "Kettle"}, "trigger": {"type": "timeInterval", "seconds": \#(60 * $0)}}"#
        }
        try ("[" + json.joined(separator: ",") + "]").write(to: folder.appendingPathComponent("requests.json"), atomically: true, encoding: .utf8)
        let scheduled = try Self.run(["schedule", "--json", "requests.json", "--store", store, "--now", "2026-11-21T09:00:00Z"], in: folder)
        #expect(scheduled.status == 0, "\(scheduled.stderr)")

        let pending = try Self.run(["pending", "--json", "--store", store], in: folder)
        #expect(pending.status == 0, "\(pending.stderr)")
        let listed = try JSONSerialization.jsonObject(with: Data(pending.stdout.utf8)) as? [[String: Any]] ?? []
        #expect(listed.compactMap { $0["identifier"] as? String } == ["tea-1", "tea-2", "tea-3"])

        // Two runs at once, as two workers: tea-1 and tea-2 are due, each delivered once.
        let runs = try [Self.start(["run", "--store", store, "--now", "2026-11-21T09:02:30Z"], in: folder),
                        Self.start(["run", "--store", store, "--now", "2026-11-21T09:02:30Z"], in: folder)].map(Self.finish)
        for run in runs { #expect(run.status == 0, "\(run.stderr)") }
        let delivered = try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("outbox/new").path)
        #expect(delivered.count == 2)
        let messages = try delivered.map { try String(contentsOf: folder.appendingPathComponent("outbox/new/\($0)"), encoding: .utf8) }
        #expect(messages.filter { $0.contains("Tea 1") }.count == 1)
        #expect(messages.filter { $0.contains("Tea 2") }.count == 1)

        let left = try Self.run(["pending", "--json", "--store", store], in: folder)
        let remaining = try JSONSerialization.jsonObject(with: Data(left.stdout.utf8)) as? [[String: Any]] ?? []
        #expect(remaining.compactMap { $0["identifier"] as? String } == ["tea-3"])
        let listedDelivered = try Self.run(["delivered", "--store", store], in: folder)
        #expect(listedDelivered.stdout.contains("tea-1") && listedDelivered.stdout.contains("tea-2"))
    }

    @Test("at --log-level trace, chime on PostgreSQL logs no row it reads: the signing key kept in the store stays out of the log (PostgresNIO's wire messages are logged at trace, which it is never given)")
    func traceKeepsTheKey() throws {
        let server = try PostgresServer.shared()
        let store = try server.makeDatabase()
        let database = String(store.split(separator: "/").last!.split(separator: "?").first!)
        let folder = try Self.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        try #"{"identifier": "tea", "recipient": "carol", "content": {"title": "Tea"}, "trigger": {"type": "timeInterval", "seconds": 60}}"#
            .write(to: folder.appendingPathComponent("tea.json"), atomically: true, encoding: .utf8)
        #expect(try Self.run(["schedule", "--json", "tea.json", "--store", store, "--now", "2026-11-21T09:00:00Z"], in: folder).status == 0)
        // The run signs the reminder's links: it reads the key from the store.
        let run = try Self.run(["run", "--store", store, "--now", "2026-11-21T09:02:00Z", "--log-level", "trace"], in: folder)
        #expect(run.status == 0, "\(run.stderr)")
        let key = try server.psql("SELECT encode(value, 'hex') FROM setting WHERE name = 'secret_key'", database: database)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(key.count == 64)
        let logged = run.stderr.lowercased().replacingOccurrences(of: ", ", with: "").replacingOccurrences(of: " ", with: "")
        #expect(!logged.contains(key.prefix(16)), "the key's bytes in the log")
        #expect(run.stderr.contains("chime.scheduler"), "trace records of Chime's own are there: \(run.stderr.prefix(500))")
    }

    @Test("8 chime processes opening a new PostgreSQL database at the same moment: all succeed, each migration once")
    func processesMigrating() throws {
        let server = try PostgresServer.shared()
        let folder = try Self.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        for _ in 1...2 {
            let store = try server.makeDatabase()
            let runs = try (0..<8).map { _ in try Self.start(["pending", "--store", store], in: folder) }.map(Self.finish)
            #expect(runs.map(\.status) == Array(repeating: 0, count: 8), "\(runs.map(\.stderr))")
            let database = String(store.split(separator: "/").last!.split(separator: "?").first!)
            let count = PostgresStore.migrations.count
            #expect(try server.psql("SELECT COUNT(*), COUNT(DISTINCT name) FROM chime_migrations", database: database)
                        .trimmingCharacters(in: .whitespacesAndNewlines) == "\(count)|\(count)")
        }
    }

    @Test("a server that is not there: exit 75, the URL said without its password; a URL chime cannot read: exit 64")
    func failures() throws {
        let folder = try Self.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        let closed = LocalPort.free()
        let down = try Self.run(["pending", "--store", "postgres://chime:S3cretPass@127.0.0.1:\(closed)/chime?sslmode=disable&connect_timeout=2"], in: folder)
        #expect(down.status == 75)
        #expect(down.stderr.contains("postgres://chime@127.0.0.1:\(closed)/chime"))
        #expect(!down.stderr.contains("S3cretPass"))
        let unread = try Self.run(["pending", "--store", "postgresql://chime:S3cretPass@db/chime?sslmode=prefer"], in: folder)
        #expect(unread.status == 64)
        #expect(unread.stderr.contains("sslmode=prefer"))
        #expect(!unread.stderr.contains("S3cretPass"))
    }

    @Test("a worker whose role may only read and write the tables (no CREATE on the schema) opens an up-to-date store and fires")
    func leastPrivilegeRole() throws {
        let server = try PostgresServer.shared()
        let url = try server.makeDatabase()
        let database = String(url.split(separator: "/").last!.split(separator: "?").first!)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("chime-pg-role-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Self.configuration.write(to: folder.appendingPathComponent("chime.xml"), atomically: true, encoding: .utf8)
        // The owner migrates; the worker role gets the tables' rows and nothing more.
        #expect(try Self.run(["store", "migrate", "--store", url], in: folder).status == 0)
        let role = "worker_\(UUID().uuidString.prefix(8).lowercased())"
        try server.psql("""
            CREATE ROLE \(role) LOGIN; REVOKE CREATE ON SCHEMA public FROM PUBLIC;
            GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO \(role);
            GRANT USAGE, SELECT, UPDATE ON ALL SEQUENCES IN SCHEMA public TO \(role);
            """, database: database)
        #expect(try server.psql("SELECT has_schema_privilege('\(role)', 'public', 'CREATE')", database: database).hasPrefix("f"))
        let worker = url.replacingOccurrences(of: "://chime@", with: "://\(role)@")
        try #"{"identifier": "r1", "recipient": "carol", "content": {"title": "Role"}, "trigger": {"type": "timeInterval", "seconds": 60}}"#
            .write(to: folder.appendingPathComponent("r.json"), atomically: true, encoding: .utf8)
        let scheduled = try Self.run(["schedule", "--json", "r.json", "--store", worker, "--now", "2026-11-25T09:00:00Z"], in: folder)
        #expect(scheduled.status == 0, "\(scheduled.stderr)")
        let fired = try Self.run(["run", "--store", worker, "--now", "2026-11-25T09:02:00Z"], in: folder)
        #expect(fired.status == 0, "\(fired.stderr)")
        #expect(fired.stdout.hasPrefix("fired 1"), "\(fired.stdout) \(fired.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("outbox/new").path).count == 1)
    }
}
