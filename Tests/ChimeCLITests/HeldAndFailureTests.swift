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

    @Test("a channel that cannot deliver yet holds the notification for every address, once per run, exit 75")
    func heldNotLooping() throws {
        let ws = try Workspace(configuration: Self.configuration)
        let requests = (1...600).map { #"{"identifier": "d\#($0)", "recipient": "dave", "content": {}, "trigger": {"type": "timeInterval", "seconds": 60}}"# }
        try ws.write("held.json", "[" + requests.joined(separator: ",") + "]")
        #expect(try ws.chime(["schedule", "--json", "held.json"], now: "2026-11-21T09:00:00Z").status == 0)
        let run = try ws.chime(["run"], now: "2026-11-21T09:05:00Z", timeout: 60)
        #expect(!run.timedOut)
        #expect(run.status == 75)
        #expect(run.stdout == "fired 0\n")
        #expect(run.stderr.split(separator: "\n").count == 600)
        #expect(run.stderr.hasPrefix("held d1: channel \"mail\" (smtp) cannot deliver yet in this version\n"))
        // Nothing reached dave's other address either, and everything is still pending.
        #expect(try ws.lines().isEmpty)
        #expect(try ws.chime(["pending"]).stdout.split(separator: "\n").count == 600)
    }

    @Test("a recipient without an address is held, not counted as delivered")
    func noAddress() throws {
        let ws = try Workspace(configuration: Self.configuration)
        try ws.chime(["schedule", "--id", "e", "--to", "erin", "--in", "1m"], now: "2026-11-21T09:00:00Z")
        let run = try ws.chime(["run"], now: "2026-11-21T09:05:00Z")
        #expect(run.status == 75)
        #expect(run.stderr == "held e: recipient \"erin\" has no address\n")
        #expect(try ws.chime(["delivered"]).stdout.isEmpty)
    }

    @Test("an unexpected failure is an internal error: exit 70")
    func internalError() throws {
        let ws = try Workspace()
        // A store whose schema says it is up to date but lacks its tables.
        let python = Process()
        python.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        python.arguments = ["python3", "-c", """
            import sqlite3
            db = sqlite3.connect("\(ws.path("chime.sqlite"))")
            db.execute("CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY)")
            db.execute("INSERT INTO grdb_migrations VALUES ('v1 pending and delivered notifications'), ('v2 sent marks')")
            db.commit()
            """]
        try python.run()
        python.waitUntilExit()
        let result = try ws.chime(["pending"])
        #expect(result.status == 70)
        #expect(result.stderr.hasPrefix("chime: error: "))
        #expect(result.stderr.contains("no such table"))
    }
}
