import Foundation
import Testing

/// `chime run` with nothing to do: the store says so before `chime.xml` is loaded, as
/// long as the floating requests already follow a file with the same bytes.
@Suite("A cron tick with nothing to do, through the real executable")
struct IdleTickTests {
    /// A daily request at 09:00 wherever bob is (`timeZone` null: floating).
    static let floating = """
        {"identifier": "tea", "recipient": "bob", "content": {"title": "Tea"},
         "trigger": {"type": "date", "fireDate": "2026-03-03T09:00", "timeZone": null, "repeatInterval": "day"}}
        """

    static func configuration(bobIn zone: String) -> String {
        Workspace.defaultConfiguration.replacingOccurrences(of: "id=\"bob\" timeZone=\"America/New_York\"", with: "id=\"bob\" timeZone=\"\(zone)\"")
    }

    @Test("a recipient moved in chime.xml between two idle ticks: the next tick moves the floating request to an earlier hour and fires it")
    func movedEarlier() throws {
        // 09:00 in Honolulu is 19:00 UTC; in New York, 14:00 UTC.
        let ws = try Workspace(configuration: Self.configuration(bobIn: "Pacific/Honolulu"))
        try ws.write("tea.json", Self.floating)
        try ws.chime(["schedule", "--json", "tea.json"], now: "2026-03-02T10:00:00Z")
        #expect(try ws.chime(["run"], now: "2026-03-02T10:00:00Z").stdout == "fired 0\n")
        #expect(try ws.chime(["run"], now: "2026-03-02T10:01:00Z").stdout == "fired 0\n")
        try ws.write("chime.xml", Self.configuration(bobIn: "America/New_York"))
        let moved = try ws.chime(["run"], now: "2026-03-03T15:00:00Z")
        #expect(moved.stdout == "fired 1, moved 1 floating to a new zone\n", "\(moved.stderr)")
        #expect(try ws.lines().map { $0["fireDate"] as? String } == ["2026-03-03T14:00:00Z"])
    }

    @Test("a recipient whose timeZone comes from the environment is followed at an idle tick though chime.xml's bytes did not change")
    func zoneFromTheEnvironment() throws {
        let ws = try Workspace(configuration: Self.configuration(bobIn: "${BOB_ZONE}"))
        try ws.write("tea.json", Self.floating)
        let honolulu = ["BOB_ZONE": "Pacific/Honolulu"]
        try ws.chime(["schedule", "--json", "tea.json"], now: "2026-03-02T10:00:00Z", environment: honolulu)
        #expect(try ws.chime(["run"], now: "2026-03-02T10:00:00Z", environment: honolulu).stdout == "fired 0\n")
        #expect(try ws.chime(["run"], now: "2026-03-02T10:01:00Z", environment: honolulu).stdout == "fired 0\n")
        let moved = try ws.chime(["run"], now: "2026-03-03T15:00:00Z", environment: ["BOB_ZONE": "America/New_York"])
        #expect(moved.stdout == "fired 1, moved 1 floating to a new zone\n", "\(moved.stderr)")
    }

    @Test("another command moved the floating requests with an edited chime.xml, then the file was put back: the next idle tick moves them back and fires on time")
    func movedByAnotherCommand() throws {
        let ws = try Workspace()
        try ws.write("tea.json", Self.floating)
        try ws.chime(["schedule", "--json", "tea.json"], now: "2026-03-02T10:00:00Z")
        #expect(try ws.chime(["run"], now: "2026-03-02T10:00:00Z").stdout == "fired 0\n")
        try ws.write("chime.xml", Self.configuration(bobIn: "Pacific/Honolulu"))
        #expect(try ws.chime(["pending"], now: "2026-03-02T10:05:00Z").status == 0)
        try ws.write("chime.xml", Workspace.defaultConfiguration)
        let back = try ws.chime(["run"], now: "2026-03-03T15:00:00Z")
        #expect(back.stdout == "fired 1, moved 1 floating to a new zone\n", "\(back.stderr)")
        #expect(try ws.lines().map { $0["fireDate"] as? String } == ["2026-03-03T14:00:00Z"])
    }

    @Test("chime.xml broken after an idle tick: the next tick, with nothing due, says where with exit 65 and loses nothing")
    func brokenSinceTheLastTick() throws {
        let ws = try Workspace()
        try ws.chime(["schedule", "--id", "later", "--to", "alice", "--title", "Later", "--in", "2h"], now: "2026-03-02T10:00:00Z")
        #expect(try ws.chime(["run"], now: "2026-03-02T10:00:00Z").status == 0)
        #expect(try ws.chime(["run"], now: "2026-03-02T10:01:00Z").status == 0)
        try ws.write("chime.xml", Workspace.defaultConfiguration.replacingOccurrences(of: "<recipient id=\"carol\"", with: "<recipient id=\"carol\" pendingLimit=\"many\""))
        let broken = try ws.chime(["run"], now: "2026-03-02T10:02:00Z")
        #expect(broken.status == 65)
        #expect(broken.stderr.hasPrefix("chime.xml:14:"), "\(broken.stderr)")
        try ws.write("chime.xml", Workspace.defaultConfiguration)
        #expect(try ws.chime(["run"], now: "2026-03-02T12:00:00Z").stdout == "fired 1\n")
    }

    @Test("an idle tick says what a tick that loaded the configuration says, in words and in JSON")
    func sameAnswer() throws {
        let ws = try Workspace()
        try ws.chime(["schedule", "--id", "later", "--to", "alice", "--title", "Later", "--in", "2h"], now: "2026-03-02T10:00:00Z")
        // The first tick loads the file (nothing was followed yet), the second does not.
        let loaded = try ws.chime(["run", "--json"], now: "2026-03-02T10:00:00Z")
        let idle = try ws.chime(["run", "--json"], now: "2026-03-02T10:00:00Z")
        #expect(loaded.status == 0 && idle.status == 0)
        #expect(idle.stdout == loaded.stdout)
        let summary = try JSONSerialization.jsonObject(with: Data(idle.stdout.utf8)) as? [String: Any]
        #expect(summary?["fired"] as? Int == 0, "\(idle.stdout)")
        #expect(try ws.chime(["run"], now: "2026-03-02T10:01:00Z").stdout == "fired 0\n")
    }
}
