import ChimeTestSupport
import Foundation
import Testing

/// What an audit of a small server's operation found: a digest sent in quiet hours, a
/// foreign or newer database taken for a store, a port out of range bound elsewhere.
@Suite("Operating on a small server")
struct OperatorAuditTests {
    static let configuration = """
        <?xml version="1.0"?>
        <chime version="1">
        <channels><channel id="m" url="maildir:./outbox" from="Bot &lt;bot@example.org&gt;" replyTo="bot+{token}@example.org"/></channels>
        <recipients>
        <recipient id="be" timeZone="Europe/Berlin" quietHours="22:00-07:00" quietHoursMode="digest" digestAt="07:00"><address channel="m">be@example.org</address></recipient>
        </recipients>
        </chime>
        """

    @Test("a notification kept after the day's digest time waits for the next day's digest, though no digest was sent that day: never one in quiet hours")
    func digestWaitsForItsTime() throws {
        let ws = try Workspace(configuration: Self.configuration)
        #expect(try ws.chime(["schedule", "--id", "b1", "--to", "be", "--title", "late", "--at", "2027-03-12T23:00"], now: "2027-03-12T12:00:00Z").status == 0)
        #expect(try ws.chime(["run"], now: "2027-03-12T22:00:00Z").stdout == "fired 1, 1 kept for the digest\n")
        // 23:05 in Berlin: today's 07:00 went by with no digest, and this came after it.
        #expect(try ws.chime(["digest"], now: "2027-03-12T22:05:00Z").stdout == "sent 0 digests\n")
        #expect(try ws.chime(["digest", "--dry-run"], now: "2027-03-13T06:05:00Z").stdout.contains("be: 1 notification"))
        #expect(try ws.chime(["digest"], now: "2027-03-13T06:05:00Z").stdout == "digest be: 1 notification\nsent 1 digest\n")
        let sent = try FileManager.default.contentsOfDirectory(atPath: ws.path("outbox/new"))
        #expect(sent.count == 1)
        #expect(try ws.read("outbox/new/\(sent[0])").contains("Date: Sat, 13 Mar 2027 07:05"))
    }

    @Test("a Maildir channel whose id holds / and : takes its digests, the id in the file's name as Maildir escapes a host name (a / in it made every digest fail)")
    func digestToAChannelOfAnyName() throws {
        let configuration = Self.configuration.replacingOccurrences(of: #"id="m""#, with: #"id="home/ann:1""#)
            .replacingOccurrences(of: #"channel="m""#, with: #"channel="home/ann:1""#)
        let ws = try Workspace(configuration: configuration)
        #expect(try ws.chime(["check"]).status == 0)
        #expect(try ws.chime(["schedule", "--id", "b1", "--to", "be", "--title", "late", "--at", "2027-03-12T23:00"], now: "2027-03-12T12:00:00Z").status == 0)
        #expect(try ws.chime(["run"], now: "2027-03-12T22:00:00Z").stdout == "fired 1, 1 kept for the digest\n")
        let digest = try ws.chime(["digest"], now: "2027-03-13T06:05:00Z")
        #expect(digest.stdout == "digest be: 1 notification\nsent 1 digest\n", "\(digest.stdout) \(digest.stderr)")
        let sent = try FileManager.default.contentsOfDirectory(atPath: ws.path("outbox/new"))
        try #require(sent.count == 1)
        #expect(sent.first?.contains("home\\057ann\\0721") == true, "\(sent)")
        #expect(try ws.read("outbox/new/\(sent[0])").contains("late"))
    }

    @Test("another program's SQLite database, or a store a newer chime migrated, is refused (65) and left as it was")
    func foreignAndNewerStores() throws {
        let ws = try Workspace(configuration: Self.configuration)
        // A store made, then given a migration this chime does not know.
        #expect(try ws.chime(["--store", "sqlite:newer.db", "store", "migrate"]).status == 0)
        func python(_ script: String, _ arguments: [String]) throws -> String {
            // Python's sqlite3 module: the test setup installs python3.
            let process = Process(), output = Pipe()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["python3", "-c", script] + arguments
            process.standardOutput = output
            try process.run()
            process.waitUntilExit()
            return String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        }
        let tables = "import sqlite3, sys; print(sorted(r[0] for r in sqlite3.connect(sys.argv[1]).execute(\"SELECT name FROM sqlite_master WHERE type = 'table'\")))"
        for (file, sql, says) in [("other.db", "CREATE TABLE users (id INTEGER); INSERT INTO users VALUES (1);", "it holds tables (users) but no record of Chime's migrations"),
                                  ("newer.db", "INSERT INTO grdb_migrations VALUES ('v99 from the future');", "error: a newer chime migrated this store (v99 from the future): run that version")] {
            _ = try python("import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); c.executescript(sys.argv[2]); c.commit()", [ws.path(file), sql])
            let before = try python(tables, [ws.path(file)])
            let bytes = try Data(contentsOf: URL(fileURLWithPath: ws.path(file)))
            let refused = try ws.chime(["--store", "sqlite:\(file)", "schedule", "--id", "x", "--to", "be", "--title", "t", "--in", "1h"])
            #expect(refused.status == 65)
            #expect(refused.stderr.contains(says), "\(refused.stderr)")
            // Nothing added: no Chime table in another program's database.
            #expect(try python(tables, [ws.path(file)]) == before)
            // Not even switched to WAL: the file is byte for byte as it was.
            if file == "other.db" {
                #expect(try Data(contentsOf: URL(fileURLWithPath: ws.path(file))) == bytes)
                #expect(!FileManager.default.fileExists(atPath: ws.path("other.db-wal")))
                #expect(try python("import sqlite3, sys; print(sqlite3.connect(sys.argv[1]).execute('PRAGMA journal_mode').fetchone()[0])", [ws.path(file)]) == "delete\n")
            }
        }
        #expect(try python(tables, [ws.path("other.db")]) == "['users']\n")
    }

    @Test("chime preview for a file: channel prints the line chime run appends, its generic message inside")
    func previewFileLine() throws {
        let ws = try Workspace(configuration: """
            <chime version="1">
            <channels><channel id="lines" url="file:./out.jsonl"/></channels>
            <recipients><recipient id="al" timeZone="UTC"><address channel="lines">al@example.org</address></recipient></recipients>
            </chime>
            """)
        try ws.write("r.json", #"{"identifier": "p1", "recipient": "al", "content": {"title": "Tea & cake", "body": "At 4"}, "trigger": {"type": "timeInterval", "seconds": 60}}"#)
        let preview = try ws.chime(["preview", "--json", "r.json", "--channel", "lines"], now: "2026-11-21T09:00:00Z")
        #expect(preview.status == 0, "\(preview.stderr)")
        let shown = try #require(try JSONSerialization.jsonObject(with: Data(preview.stdout.utf8)) as? [String: Any], "\(preview.stdout)")
        #expect(preview.stdout.hasSuffix("}\n") && preview.stdout.split(separator: "\n").count == 1, "one line")
        #expect(Set(shown.keys) == ["address", "channel", "coalesced", "deliveryID", "fireDate", "identifier", "payload", "recipient", "request"])
        #expect(shown["channel"] as? String == "lines" && shown["address"] as? String == "al@example.org")
        #expect((shown["payload"] as? [String: Any])?["title"] as? String == "Tea & cake", "\(shown)")
        #expect((shown["request"] as? [String: Any])?["identifier"] as? String == "p1")
        // What chime run then writes has the same shape.
        #expect(try ws.chime(["schedule", "--json", "r.json"], now: "2026-11-21T09:00:00Z").status == 0)
        #expect(try ws.chime(["run"], now: "2026-11-21T09:02:00Z").status == 0)
        let written = try #require(try JSONSerialization.jsonObject(with: Data(try ws.read("out.jsonl").utf8)) as? [String: Any])
        #expect(Set(written.keys) == Set(shown.keys))
    }

    @Test("a port out of range is a usage error, not another port")
    func portOutOfRange() throws {
        let ws = try Workspace(configuration: Self.configuration)
        let refused = try ws.chime(["serve", "--port", "99999"])
        #expect(refused.status == 64)
        #expect(refused.stderr.contains("--port must be 0 to 65535"))
    }
}
