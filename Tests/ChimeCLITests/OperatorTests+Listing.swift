import Foundation
import Testing

/// Point 17 of the first week, in part: listings in one zone, a missing configuration
/// located, a port in use said plainly, shell completion.
extension OperatorTests {
    @Test("pending and delivered write instants in each recipient's zone, whatever zone the trigger names, or all in UTC with --utc; --json keeps the trigger's offset")
    func listingZones() throws {
        let ws = try Workspace(configuration: Self.twoLanguages)
        // alice is in Paris and kenji in Tokyo; alice's trigger names New York.
        try ws.write("r.json", """
            [{"identifier": "a", "recipient": "alice", "content": {"title": "Shopping", "categoryIdentifier": "shop"},
              "trigger": {"type": "calendar", "dateComponents": {"hour": 9, "minute": 0}, "timeZone": "America/New_York", "repeats": true}},
             {"identifier": "k", "recipient": "kenji", "content": {"title": "Shopping", "categoryIdentifier": "shop"},
              "trigger": {"type": "timeInterval", "seconds": 3600}}]
            """)
        #expect(try ws.chime(["schedule", "--json", "r.json"], now: "2026-11-21T09:00:00Z").status == 0)
        let pending = try ws.chime(["pending"]).stdout.split(separator: "\n").map(String.init)
        // 09:00 in New York (UTC-5) is 14:00 UTC, 15:00 in Paris; 10:00 UTC is 19:00 in Tokyo.
        #expect(pending.contains { $0.hasPrefix("2026-11-21T15:00:00+01:00  a  alice") }, "\(pending)")
        #expect(pending.contains { $0.hasPrefix("2026-11-21T19:00:00+09:00  k  kenji") }, "\(pending)")
        let utc = try ws.chime(["pending", "--utc"]).stdout
        #expect(utc.contains("2026-11-21T14:00:00Z  a  alice") && utc.contains("2026-11-21T10:00:00Z  k  kenji"), "\(utc)")
        let json = try ws.chime(["pending", "--json"]).stdout
        #expect(json.contains("2026-11-21T09:00:00-05:00"), "the JSON keeps the trigger's own offset: \(json)")

        #expect(try ws.chime(["run"], now: "2026-11-21T14:00:00Z").status == 0)
        let delivered = try ws.chime(["delivered"]).stdout.split(separator: "\n").map(String.init)
        #expect(delivered.contains { $0.hasPrefix("2026-11-21T15:00:00+01:00  a  alice") } && delivered.contains { $0.hasPrefix("2026-11-21T19:00:00+09:00  k  kenji") }, "\(delivered)")
        #expect(try ws.chime(["delivered", "--utc"]).stdout.contains("2026-11-21T14:00:00Z  a  alice"))
    }

    @Test("a missing configuration is named with where it was looked for: the working directory, and whether --config, $CHIME_CONFIG or the default named it (66)")
    func missingConfiguration() throws {
        let ws = try Workspace(configuration: Self.configuration)
        try FileManager.default.removeItem(atPath: ws.path("chime.xml"))
        let byDefault = try ws.chime(["pending"])
        #expect(byDefault.status == 66)
        #expect(byDefault.stderr.contains("the default (neither --config nor $CHIME_CONFIG is set) names chime.xml, which does not exist (the working directory is \(ws.url.path))"), "\(byDefault.stderr)")
        let byVariable = try ws.chime(["pending"], environment: ["CHIME_CONFIG": "etc/chime.xml"])
        #expect(byVariable.status == 66 && byVariable.stderr.contains("$CHIME_CONFIG names etc/chime.xml, which does not exist"), "\(byVariable.stderr)")
        let byOption = try ws.chime(["--config", "other.xml", "pending"])
        #expect(byOption.stderr.contains("--config names other.xml"), "\(byOption.stderr)")
    }

    @Test("chime serve on a port another process holds says the port is in use and how to choose another (69)")
    func portInUse() throws {
        let ws = try Workspace(configuration: Self.configuration)
        let first = try ServeTests.Server(ws, [])
        defer { first.stop() }
        let second = try ws.chime(["serve", "--port", "\(first.port)"], timeout: 20)
        #expect(second.status == 69)
        #expect(second.stderr.contains("port \(first.port) is in use on 127.0.0.1") && second.stderr.contains("--port"), "\(second.stderr)")
    }

    @Test("the bash completion script chime prints is valid bash and completes the commands")
    func completion() throws {
        let ws = try Workspace(configuration: Self.configuration)
        let script = try ws.chime(["--generate-completion-script", "bash"])
        #expect(script.status == 0)
        try ws.write("chime.bash", script.stdout)
        let checked = try ChimeProcess.runProgram("/bin/bash", ["-n", ws.path("chime.bash")])
        #expect(checked.status == 0, "\(checked.stderr)")
        for command in ["schedule", "pending", "ingest", "serve", "recipients"] { #expect(script.stdout.contains(command)) }
    }
}
