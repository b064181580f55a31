import ChimeTestSupport
import Foundation
import Testing

@Suite("What chime run does not send, and why it says so")
struct HeldAndFailureTests {
    private static let configuration = Workspace.defaultConfiguration
        .replacingOccurrences(of: "<channel id=\"box\" url=\"maildir:./outbox\"/>", with: """
            <channel id="box" url="maildir:./outbox"/>
                <channel id="mail" url="smtp://127.0.0.1:2525" from="bot@example.org"/>
            """)
        .replacingOccurrences(of: "</recipients>", with: """
                <recipient id="dave" timeZone="UTC"><address channel="log"/><address channel="mail">dave@example.org</address></recipient>
                <recipient id="erin" timeZone="UTC"/>
              </recipients>
            """)

    @Test("a message that cannot be rendered holds the notification for every address, once per run, exit 75")
    func heldNotLooping() throws {
        let ws = try Workspace(configuration: Self.configuration)
        try ws.write("cup.jpg", "not really a picture")
        let requests = (1...600).map {
            #"{"identifier": "d\#($0)", "recipient": "dave", "content": {"title": "Tea", "attachments": [{"identifier": "cup", "path": "cup.jpg"}]}, "trigger": {"type": "timeInterval", "seconds": 60}}"#
        }
        try ws.write("held.json", "[" + requests.joined(separator: ",") + "]")
        #expect(try ws.chime(["schedule", "--json", "held.json"], now: "2026-11-21T09:00:00Z").status == 0)
        try FileManager.default.removeItem(atPath: ws.path("cup.jpg"))
        let run = try ws.chime(["run"], now: "2026-11-21T09:05:00Z", timeout: 60)
        #expect(!run.timedOut)
        #expect(run.status == 75)
        #expect(run.stdout == "fired 0\n")
        #expect(run.stderr.split(separator: "\n").count == 600)
        #expect(run.stderr.hasPrefix("held d1: channel \"mail\": attachment \"cup\": "), "\(run.stderr.prefix(200))")
        // Nothing reached dave's other address either, and everything is still pending.
        #expect(try ws.lines().isEmpty)
        #expect(try ws.chime(["pending"]).stdout.split(separator: "\n").count == 600)
    }

    @Test("a recipient without an address is held, not counted as delivered")
    func noAddress() throws {
        let ws = try Workspace(configuration: Self.configuration)
        try ws.chime(["schedule", "--id", "e", "--to", "erin", "--title", "Reminder", "--in", "1m"], now: "2026-11-21T09:00:00Z")
        let run = try ws.chime(["run"], now: "2026-11-21T09:05:00Z")
        #expect(run.status == 75)
        #expect(run.stderr == "held e: recipient \"erin\" has no address\n")
        #expect(try ws.chime(["delivered"]).stdout.isEmpty)
    }

    @Test("a pending row whose request cannot be read (the store edited by hand) is held and named with what removes it; the others fire; listing it fails naming it")
    func unreadableRow() throws {
        let ws = try Workspace()
        for id in ["r1", "r2", "r3"] {
            #expect(try ws.chime(["schedule", "--id", id, "--to", "alice", "--title", "Tea", "--in", "1m"], now: "2026-11-21T09:00:00Z").status == 0)
        }
        try runSQLiteScript(#"UPDATE pending SET request = '{"identifier": "r2"' WHERE identifier = 'r2'"#, on: ws.path("chime.sqlite"))
        let problem = "its request in the store cannot be read (not valid JSON); `chime cancel r2` removes it"
        for (minute, fired) in [("05", "fired 2\n"), ("06", "fired 0\n")] {
            let run = try ws.chime(["run"], now: "2026-11-21T09:\(minute):00Z")
            #expect(run.status == 75)
            #expect(run.stdout == fired)
            #expect(run.stderr.hasSuffix("held r2: \(problem)\n"), "\(run.stderr)")
        }
        #expect(try ws.lines().map { $0["identifier"] as? String } == ["r1", "r3"])
        let listing = try ws.chime(["pending"])
        #expect(listing.status == 70)
        #expect(listing.stderr == "chime: error: pending request \"r2\": \(problem)\n")
        #expect(try ws.chime(["cancel", "r2"]).stdout == "cancelled 1\n")
        let after = try ws.chime(["run"], now: "2026-11-21T09:07:00Z")
        #expect(after.status == 0)
        #expect(after.stdout == "fired 0\n")
        #expect(after.stderr.isEmpty)
    }

    @Test("an unexpected failure is an internal error: exit 70")
    func internalError() throws {
        let ws = try Workspace()
        // A store whose schema says it is up to date but lacks its tables.
        try runSQLiteScript("""
            CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY);
            INSERT INTO grdb_migrations VALUES ('v1 pending and delivered notifications'), ('v2 sent marks'), ('v3 outbox and attempts'), ('v4 replies'), ('v5 carrying out'), ('v6 chat threads'), ('v7 delivery policy'), ('v8 thread groups'), ('v9 recipient settings'), ('v10 opt-in'), ('v11 waiting groups index');
            """, on: ws.path("chime.sqlite"))
        let result = try ws.chime(["pending"])
        #expect(result.status == 70)
        #expect(result.stderr.hasPrefix("./chime.sqlite: error: the store failed"), "the store's path, then SQLite's words: \(result.stderr)")
        #expect(result.stderr.contains("no such table"))
    }
}

@Suite("What the second review found, through the real executable")
struct ReviewRegressionTests {
    @Test("a repeating floating request that fired does not fire again when its recipient moves")
    func movedAfterFiring() throws {
        let ws = try Workspace()
        try ws.write("daily.json", """
            {"identifier": "p", "recipient": "alice", "content": {"title": "Reminder"},
             "trigger": {"type": "date", "fireDate": "2020-01-01T09:00", "timeZone": null, "repeatInterval": "day"}}
            """)
        try ws.chime(["schedule", "--json", "daily.json"], now: "2026-03-01T10:00:00Z")
        #expect(try ws.chime(["run"], now: "2026-03-01T10:00:00Z").stdout == "fired 1\n")
        try ws.write("chime.xml", Workspace.defaultConfiguration.replacingOccurrences(of: "id=\"alice\" timeZone=\"Europe/Paris\"", with: "id=\"alice\" timeZone=\"America/New_York\""))
        #expect(try ws.chime(["run"], now: "2026-03-01T10:01:00Z").stdout == "fired 0, moved 1 floating to a new zone\n")
        #expect(try ws.chime(["next", "p"], now: "2026-03-01T10:01:00Z").stdout == "2026-03-01T09:00:00-05:00\n")
        #expect(try ws.lines().count == 1)
    }

    @Test("a store path that SQLite would keep in memory is refused")
    func emptyStore() throws {
        let ws = try Workspace()
        for store in ["sqlite:", "sqlite::memory:"] {
            let result = try ws.chime(["schedule", "--id", "x", "--to", "alice", "--title", "Reminder", "--in", "1m", "--store", store])
            #expect(result.status == 64)
        }
    }

    @Test("a secret in a channel path stays out of a held notification's message")
    func secretPath() throws {
        let ws = try Workspace(configuration: Workspace.defaultConfiguration.replacingOccurrences(of: "file:./sent.jsonl", with: "file:/proc/${CHIME_TEST_TOKEN}/x.jsonl"))
        let scheduled = try ChimeProcess.run(["schedule", "--id", "s", "--to", "alice", "--title", "Reminder", "--in", "1m", "--now", "2026-11-21T09:00:00Z"],
                                             in: ws.url, environment: ["CHIME_TEST_TOKEN": "hunter2secret"])
        #expect(scheduled.status == 0)
        let result = try ChimeProcess.run(["run", "--now", "2026-11-21T09:05:00Z"], in: ws.url, environment: ["CHIME_TEST_TOKEN": "hunter2secret"])
        #expect(result.status == 75)
        #expect(result.stderr.hasPrefix("held s: "))
        #expect(!result.stderr.contains("hunter2secret"))
    }

    @Test("a duration past any calendar is a usage error, not a crash")
    func hugeDuration() throws {
        let ws = try Workspace()
        let result = try ws.chime(["schedule", "--id", "g", "--to", "alice", "--title", "Reminder", "--in", "99999999999999999d"])
        #expect(result.status == 64)
    }
}
