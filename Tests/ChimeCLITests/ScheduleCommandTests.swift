import ChimeMIME
import ChimeTestSupport
import Foundation
import Testing

@Suite("Scheduling through the real executable")
struct ScheduleCommandTests {
    @Test("schedule, pending, run, delivered: a reminder fires once at its instant")
    func firesOnce() throws {
        let ws = try Workspace()
        let scheduled = try ws.chime(["schedule", "--id", "tea", "--to", "alice", "--title", "Tea", "--at", "2026-11-24T09:00"], now: "2026-11-21T10:37:42Z")
        #expect(scheduled.status == 0)
        #expect(scheduled.stdout == "scheduled tea: fires 2026-11-24T09:00:00+01:00\n")
        #expect(try ws.chime(["pending"]).stdout.hasPrefix("2026-11-24T09:00:00+01:00  tea  alice"))
        #expect(try ws.chime(["run"], now: "2026-11-24T07:59:59Z").stdout == "fired 0\n")
        #expect(try ws.chime(["run"], now: "2026-11-24T08:00:00Z").stdout == "fired 1\n")
        #expect(try ws.chime(["run"], now: "2026-11-24T08:05:00Z").stdout == "fired 0\n")
        let lines = try ws.lines()
        #expect(lines.count == 1)
        #expect(lines.first?["identifier"] as? String == "tea")
        #expect(lines.first?["fireDate"] as? String == "2026-11-24T08:00:00Z")
        #expect(try ws.chime(["pending"]).stdout.isEmpty)
        // In alice's zone (Paris), as pending says; --utc in UTC.
        #expect(try ws.chime(["delivered"]).stdout.hasPrefix("2026-11-24T09:00:00+01:00  tea  alice  Tea"))
        #expect(try ws.chime(["delivered", "--utc"]).stdout.hasPrefix("2026-11-24T08:00:00Z  tea  alice  Tea"))
    }

    @Test("adding a request with a pending identifier replaces it; a second delivery replaces the first")
    func replacement() throws {
        let ws = try Workspace()
        try ws.chime(["schedule", "--id", "r", "--to", "alice", "--title", "First", "--in", "10m"], now: "2026-11-21T09:00:00Z")
        let again = try ws.chime(["schedule", "--id", "r", "--to", "alice", "--title", "Second", "--in", "20m"], now: "2026-11-21T09:00:00Z")
        #expect(again.stdout == "replaced r: fires 2026-11-21T09:20:00Z\n")
        let pending = try ws.chime(["pending", "--json"])
        let list = try #require(try JSONSerialization.jsonObject(with: Data(pending.stdout.utf8)) as? [[String: Any]])
        #expect(list.count == 1)
        #expect((list[0]["content"] as? [String: Any])?["title"] as? String == "Second")
        #expect(try ws.chime(["run"], now: "2026-11-21T09:30:00Z").stdout == "fired 1\n")
        try ws.chime(["schedule", "--id", "r", "--to", "alice", "--title", "Third", "--in", "1m"], now: "2026-11-21T09:30:00Z")
        try ws.chime(["run"], now: "2026-11-21T09:31:00Z")
        let delivered = try JSONSerialization.jsonObject(with: Data(try ws.chime(["delivered", "--json"]).stdout.utf8)) as? [[String: Any]]
        #expect(delivered?.count == 1)
        #expect((delivered?.first?["content"] as? [String: Any])?["title"] as? String == "Third")
    }

    @Test("cancel and remove-delivered, by identifier and --all")
    func removal() throws {
        let ws = try Workspace()
        for id in ["a", "b", "c"] {
            try ws.chime(["schedule", "--id", id, "--to", "alice", "--title", "Reminder", "--in", "1h"], now: "2026-11-21T09:00:00Z")
        }
        let cancelled = try ws.chime(["cancel", "a", "zzz"])
        #expect(cancelled.stdout == "cancelled 1\n")
        #expect(cancelled.stderr == "not pending: zzz\n")
        #expect(try ws.chime(["pending"]).stdout.split(separator: "\n").count == 2)
        try ws.chime(["run"], now: "2026-11-21T10:00:00Z")
        #expect(try ws.chime(["delivered"]).stdout.split(separator: "\n").count == 2)
        #expect(try ws.chime(["remove-delivered", "b"]).stdout == "removed 1\n")
        #expect(try ws.chime(["remove-delivered", "--all"]).stdout == "removed 1\n")
        #expect(try ws.chime(["delivered"]).stdout.isEmpty)
        try ws.chime(["schedule", "--id", "d", "--to", "alice", "--title", "Reminder", "--in", "1h"], now: "2026-11-21T09:00:00Z")
        #expect(try ws.chime(["cancel", "--all"]).stdout == "cancelled 1\n")
        #expect(try ws.chime(["cancel"]).status == 64)
        // What it echoes of a typed identifier cannot drive the terminal.
        #expect(try ws.chime(["cancel", "e\u{1B}[31mRED"]).stderr == "not pending: e\\u{1b}[31mRED\n")
        #expect(try ws.chime(["next", "e\u{7}"]).stderr == "no pending request \"e\\u{7}\"\n")
    }

    @Test("chime next --count is at most 100000 (all are worked out before the first is printed: 2^31 ran out of memory)")
    func nextCount() throws {
        let ws = try Workspace()
        try ws.chime(["schedule", "--id", "r", "--to", "alice", "--title", "Reminder", "--in", "1m", "--repeats"], now: "2026-11-21T09:00:00Z")
        #expect(try ws.chime(["next", "r", "--count", "3"]).stdout.split(separator: "\n").count == 3)
        let huge = try ws.chime(["next", "r", "--count", "2147483647"])
        #expect(huge.status == 64)
        #expect(huge.stderr.contains("--count must be at most 100000"), "\(huge.stderr)")
    }

    @Test("beyond a pending limit the later requests are set aside, reported and listed, and fire once within it")
    func pendingLimit() throws {
        let ws = try Workspace()
        try ws.write("batch.json", """
            [
              {"identifier": "b1", "recipient": "bob", "content": {"title": "one"}, "trigger": {"type": "timeInterval", "seconds": 60}},
              {"identifier": "b2", "recipient": "bob", "content": {"title": "two"}, "trigger": {"type": "timeInterval", "seconds": 120}},
              {"identifier": "b3", "recipient": "bob", "content": {"title": "three"}, "trigger": {"type": "timeInterval", "seconds": 180}}
            ]
            """)
        let scheduled = try ws.chime(["schedule", "--json", "batch.json"], now: "2026-11-21T09:00:00Z")
        #expect(scheduled.status == 0)
        #expect(scheduled.stdout.contains("set aside (beyond the recipient's pending limit; kept, fires when within it): b3"))
        let pending = try ws.chime(["pending"]).stdout.split(separator: "\n")
        #expect(pending.count == 3)
        #expect(pending[2].hasSuffix("(set aside: beyond the pending limit)"))
        // The two soonest fire first; then b3 is within the limit and fires in the same run.
        #expect(try ws.chime(["run", "--limit", "2"], now: "2026-11-21T10:00:00Z").stdout == "fired 2\n")
        #expect(try ws.chime(["pending"]).stdout.hasSuffix("three\n"))
        try ws.write("more.json", """
            [{"identifier": "b4", "recipient": "bob", "content": {"title": "Reminder"}, "trigger": {"type": "timeInterval", "seconds": 240}},
             {"identifier": "b5", "recipient": "bob", "content": {"title": "Reminder"}, "trigger": {"type": "timeInterval", "seconds": 300}}]
            """)
        #expect(try ws.chime(["schedule", "--json", "more.json"], now: "2026-11-21T09:00:00Z").stdout.contains("set aside (beyond the recipient's pending limit; kept, fires when within it): b5"))
        #expect(try ws.chime(["run"], now: "2026-11-21T10:00:00Z").stdout == "fired 3\n")
        #expect(try ws.lines().compactMap { $0["identifier"] as? String } == ["b1", "b2", "b3", "b4", "b5"])
    }

    @Test("unknown recipients and categories are refused with exit 65, each at its line and column, and nothing is stored")
    func refused() throws {
        let ws = try Workspace()
        try ws.write("bad.json", """
            [{"identifier": "ok", "recipient": "alice", "content": {"title": "Reminder"}, "trigger": {"type": "timeInterval", "seconds": 60}},
             {"identifier": "x", "recipient": "mallory", "content": {"title": "Reminder", "categoryIdentifier": "nope"}, "trigger": {"type": "timeInterval", "seconds": 30, "repeats": true}}]
            """)
        let result = try ws.chime(["schedule", "--json", "bad.json"])
        #expect(result.status == 65)
        #expect(result.stderr == """
            bad.json:2:35: error: request 2 ("x"): unknown recipient "mallory"
            bad.json:2:101: error: request 2 ("x"): unknown category "nope"
            bad.json:2:157: error: request 2 ("x"): a repeating time interval must be at least 60 seconds, not 30

            """)
        // A field left out is pointed at by the object that lacks it; a request made of
        // flags has no file to point into.
        try ws.write("empty.json", """
            {
              "identifier": "e", "recipient": "alice",
              "trigger": {"type": "timeInterval", "seconds": 60}
            }
            """)
        let empty = try ws.chime(["schedule", "--json", "empty.json"])
        #expect(empty.status == 65 && empty.stderr.hasPrefix("empty.json:1:1: error: request \"e\": content.title and content.body are both empty"), "\(empty.stderr)")
        let flags = try ws.chime(["schedule", "--id", "f", "--to", "mallory", "--title", "Reminder", "--in", "5m"])
        #expect(flags.status == 65 && flags.stderr == "chime schedule: error: request \"f\": unknown recipient \"mallory\"\n", "\(flags.stderr)")
        #expect(try ws.chime(["pending"]).stdout.isEmpty)
        let malformed = try ws.chime(["schedule", "--json", "-"], timeout: 30)
        #expect(malformed.status == 65)
        #expect(try ws.chime(["schedule", "--json", "missing.json"]).status == 66)
        #expect(try ws.chime(["schedule", "--id", "x", "--to", "alice", "--title", "Reminder", "--at", "tomorrow"]).status == 64)
        // Well shaped, but no such day: said as such.
        let leap = try ws.chime(["schedule", "--id", "x", "--to", "alice", "--title", "Reminder", "--at", "2027-02-29T09:00"])
        #expect(leap.status == 64 && leap.stderr.contains("2027-02-29 does not exist (that month has 28 days)"), "\(leap.stderr)")
        let negative = try ws.chime(["schedule", "--id", "x", "--to", "alice", "--title", "Reminder", "--in", "-5m"])
        #expect(negative.status == 64 && negative.stderr.contains(#"--in needs a duration such as 90s, 10m, 2h, 1d or 1h30m, not "-5m""#), "\(negative.stderr)")
    }

    @Test("next lists coming instants in the trigger's own offset")
    func next() throws {
        let ws = try Workspace()
        try ws.write("weekly.json", """
            {"identifier": "w", "recipient": "alice", "content": {"title": "Reminder"},
             "trigger": {"type": "calendar", "dateComponents": {"hour": 9, "minute": 0, "weekday": 2}, "timeZone": "Europe/Paris", "repeats": true}}
            """)
        try ws.chime(["schedule", "--json", "weekly.json"], now: "2026-03-20T00:00:00Z")
        let result = try ws.chime(["next", "w", "--count", "3"], now: "2026-03-20T00:00:00Z")
        #expect(result.stdout == "2026-03-23T09:00:00+01:00\n2026-03-30T09:00:00+02:00\n2026-04-06T09:00:00+02:00\n")
        #expect(try ws.chime(["next", "nothing"]).status == 65)
    }

    @Test("a repeating request missed for two days fires once and says how many it coalesced")
    func coalesced() throws {
        let ws = try Workspace()
        try ws.write("daily.json", """
            {"identifier": "d", "recipient": "alice", "content": {"title": "Daily"},
             "trigger": {"type": "calendar", "dateComponents": {"hour": 9}, "timeZone": null, "repeats": true}}
            """)
        try ws.chime(["schedule", "--json", "daily.json"], now: "2026-11-20T12:00:00Z")
        #expect(try ws.chime(["run"], now: "2026-11-23T12:00:00Z").stdout == "fired 1, coalesced 2 missed occurrences\n")
        #expect(try ws.lines().count == 1)
        #expect(try ws.lines().first?["coalesced"] as? Int == 2)
        #expect(try ws.chime(["next", "d"]).stdout == "2026-11-24T09:00:00+01:00\n")
    }

    @Test("a floating trigger follows its recipient to a new zone; a fixed one stays")
    func floatingFollowsRecipient() throws {
        let ws = try Workspace()
        try ws.chime(["schedule", "--id", "float", "--to", "alice", "--title", "Reminder", "--at", "2026-11-24T09:00", "--floating"], now: "2026-11-21T00:00:00Z")
        try ws.chime(["schedule", "--id", "fixed", "--to", "alice", "--title", "Reminder", "--at", "2026-11-24T09:00", "--tz", "Europe/Paris"], now: "2026-11-21T00:00:00Z")
        #expect(try ws.chime(["next", "float"]).stdout == "2026-11-24T09:00:00+01:00\n")
        try ws.write("chime.xml", Workspace.defaultConfiguration.replacingOccurrences(of: "id=\"alice\" timeZone=\"Europe/Paris\"", with: "id=\"alice\" timeZone=\"America/New_York\""))
        #expect(try ws.chime(["next", "float"]).stdout == "2026-11-24T09:00:00-05:00\n")
        #expect(try ws.chime(["next", "fixed"]).stdout == "2026-11-24T09:00:00+01:00\n")
        #expect(try ws.chime(["run"], now: "2026-11-24T13:59:59Z").stdout == "fired 1\n")
        #expect(try ws.chime(["run"], now: "2026-11-24T14:00:00Z").stdout == "fired 1\n")
        #expect(try ws.lines().compactMap { $0["identifier"] as? String } == ["fixed", "float"])
    }

    @Test("a repeating floating reminder of a recipient moved west goes on at the next 09:00 there, not at once hours late, fired or not yet")
    func movedWestRepeating() throws {
        let ws = try Workspace()
        try ws.write("daily.json", """
            {"identifier": "daily", "recipient": "alice", "content": {"title": "Daily"},
             "trigger": {"type": "calendar", "dateComponents": {"hour": 9, "minute": 0}, "timeZone": null, "repeats": true}}
            """)
        try ws.write("weekly.json", """
            {"identifier": "weekly", "recipient": "alice", "content": {"title": "Weekly"},
             "trigger": {"type": "calendar", "dateComponents": {"weekday": 2, "hour": 9, "minute": 0}, "timeZone": null, "repeats": true}}
            """)
        try ws.chime(["schedule", "--json", "daily.json"], now: "2026-01-11T12:00:00Z")
        #expect(try ws.chime(["run"], now: "2026-01-12T08:00:00Z").stdout == "fired 1\n")
        // Added on a Monday after its 09:00 in Paris: first due the Monday after.
        try ws.chime(["schedule", "--json", "weekly.json"], now: "2026-01-12T10:00:00Z")
        // 17:00 UTC: noon in New York, its 09:00 gone.
        try ws.write("chime.xml", Workspace.defaultConfiguration.replacingOccurrences(of: "id=\"alice\" timeZone=\"Europe/Paris\"", with: "id=\"alice\" timeZone=\"America/New_York\""))
        #expect(try ws.chime(["next", "daily"], now: "2026-01-12T17:00:00Z").stdout == "2026-01-13T09:00:00-05:00\n")
        #expect(try ws.chime(["next", "weekly"], now: "2026-01-12T17:00:00Z").stdout == "2026-01-19T09:00:00-05:00\n")
        #expect(try ws.chime(["run"], now: "2026-01-12T17:00:00Z").stdout == "fired 0\n")
        #expect(try ws.chime(["run"], now: "2026-01-13T13:59:59Z").stdout == "fired 0\n")
        #expect(try ws.chime(["run"], now: "2026-01-13T14:00:00Z").stdout == "fired 1\n")
        #expect(try ws.lines().compactMap { $0["identifier"] as? String } == ["daily", "daily"])
    }

    @Test("the Maildir transport writes an RFC 5322 message into new/")
    func maildir() throws {
        let ws = try Workspace()
        try ws.chime(["schedule", "--id", "m", "--to", "carol", "--title", "Café à 9 h", "--body", "Bring the list.", "--in", "1m"], now: "2026-11-21T09:00:00Z")
        #expect(try ws.chime(["run"], now: "2026-11-21T09:01:00Z").stdout == "fired 1\n")
        let files = try FileManager.default.contentsOfDirectory(atPath: ws.path("outbox/new"))
        #expect(files.count == 1)
        #expect(try FileManager.default.contentsOfDirectory(atPath: ws.path("outbox/tmp")).isEmpty)
        let message = try ws.read("outbox/new/\(files[0])")
        #expect(message.hasPrefix("Date: Sat, 21 Nov 2026 09:01:00 +0000\n"))
        #expect(message.contains("\nTo: carol@example.org\n"))
        // The rendered email, read back by an independent, strict parser.
        let parsed = try strictlyParsed(message)
        #expect(parsed["error"] == nil)
        #expect(parsed["subject"] == "Café à 9 h")
        #expect(parsed["text/plain"]?.contains("\nBring the list.\n") == true)
    }

    @Test("an attachment travels as a multipart/mixed part; a missing one refuses the request at its path's line and column and stores nothing")
    func attachments() throws {
        let ws = try Workspace()
        try FileManager.default.createDirectory(atPath: ws.path("requests/files"), withIntermediateDirectories: true)
        let bytes = (0..<5000).map { UInt8(($0 * 7) % 256) }
        try Data(bytes).write(to: URL(fileURLWithPath: ws.path("requests/files/cup.jpg")))
        func request(_ path: String) -> String {
            #"{"identifier": "tea", "recipient": "carol", "content": {"title": "Tea", "body": "Look", "attachments": [{"identifier": "cup", "path": "\#(path)"}]}, "trigger": {"type": "timeInterval", "seconds": 60, "repeats": false}}"#
        }
        try ws.write("requests/missing.json", request("files/nope.jpg"))
        let refused = try ws.chime(["schedule", "--json", "requests/missing.json"], now: "2026-11-21T09:00:00Z")
        #expect(refused.status == 65)
        #expect(refused.stderr.contains("requests/missing.json:1:135: error: request \"tea\": attachment \"cup\": "))
        #expect(refused.stderr.contains("files/nope.jpg: no such file"))
        #expect(try ws.chime(["pending"]).stdout.isEmpty)
        // `chime preview --json` refuses it the same way.
        let unshown = try ws.chime(["preview", "--json", "requests/missing.json", "--channel", "box"])
        #expect(unshown.status == 65 && unshown.stderr == refused.stderr, "\(unshown.stderr)")

        // A relative path is read from the request file's folder, by the preview too.
        try ws.write("requests/tea.json", request("files/cup.jpg"))
        let preview = try ws.chime(["preview", "--json", "requests/tea.json", "--channel", "box"])
        #expect(preview.status == 0, "\(preview.stderr)")
        #expect(ParsedMail(bytes: Array(preview.stdout.utf8))?.part("image/jpeg")?.data == bytes)
        #expect(try ws.chime(["schedule", "--json", "requests/tea.json"], now: "2026-11-21T09:00:00Z").status == 0)
        #expect(try ws.chime(["run"], now: "2026-11-21T09:01:00Z").stdout == "fired 1\n")
        let files = try FileManager.default.contentsOfDirectory(atPath: ws.path("outbox/new"))
        let message = try ws.read("outbox/new/\(files[0])")
        let parsed = try #require(ParsedMail(bytes: Array(message.utf8)))
        #expect(parsed.warnings == [])
        #expect(parsed.part("image/jpeg")?.filename == "cup.jpg")
        #expect(parsed.part("image/jpeg")?.data == bytes)
        #expect(parsed.part("text/plain")?.text?.contains("Look") == true)
        #expect(try strictlyParsed(message)["type"] == "multipart/mixed")

        // The file gone by the time it fires: held, said why, kept for the next run.
        #expect(try ws.chime(["schedule", "--json", "requests/tea.json"], now: "2026-11-21T10:00:00Z").status == 0)
        try FileManager.default.removeItem(atPath: ws.path("requests/files/cup.jpg"))
        let held = try ws.chime(["run"], now: "2026-11-21T10:01:00Z")
        #expect(held.status == 75)
        #expect(held.stderr.contains("held tea: attachment \"cup\": "))
        #expect(held.stderr.contains("cup.jpg: no such file"))
        #expect(try ws.chime(["pending"]).stdout.contains("tea"))
    }

    @Test("a titleLocKey no locale has is refused, at the key's line and column, unless the request has literal text; a known one is rendered in the recipient's language")
    func localizationKeys() throws {
        let ws = try Workspace()
        try FileManager.default.createDirectory(atPath: ws.path("templates/en"), withIntermediateDirectories: true)
        try ws.write("templates/en/Localizable.strings", #""tea.title" = "Tea is ready";"#)
        func request(_ id: String, key: String, title: String) -> String {
            #"{"identifier": "\#(id)", "recipient": "carol", "content": {"title": "\#(title)", "titleLocKey": "\#(key)", "body": "Now"}, "trigger": {"type": "timeInterval", "seconds": 60, "repeats": false}}"#
        }
        try ws.write("unknown.json", request("a", key: "tea.nope", title: ""))
        let refused = try ws.chime(["schedule", "--json", "unknown.json"], now: "2026-11-21T09:00:00Z")
        #expect(refused.status == 65)
        #expect(refused.stderr == "unknown.json:1:83: error: request \"a\": titleLocKey \"tea.nope\" is in no strings read for the recipient's locale en (looked in: en); give a literal text to fall back on, or add the key\n")
        #expect(try ws.chime(["pending"]).stdout.isEmpty)
        // `chime preview --json` checks it as `chime schedule` does, at the same place.
        let unshown = try ws.chime(["preview", "--json", "unknown.json", "--channel", "box"], now: "2026-11-21T09:00:00Z")
        #expect(unshown.status == 65 && unshown.stderr == refused.stderr, "\(unshown.stderr)")

        // A key only French has, for an English recipient; arguments that do not fit the
        // key's format: each would only be held at every run, so each is refused now.
        try FileManager.default.createDirectory(atPath: ws.path("templates/fr"), withIntermediateDirectories: true)
        try ws.write("templates/fr/Localizable.strings", #""tea.fr" = "Le thé est prêt";"#)
        try ws.write("templates/en/Localizable.strings", #""tea.title" = "Tea is ready"; "tea.cups" = "%d cups of tea";"#)
        try ws.write("french.json", request("d", key: "tea.fr", title: ""))
        let french = try ws.chime(["schedule", "--json", "french.json"], now: "2026-11-21T09:00:00Z")
        #expect(french.status == 65)
        #expect(french.stderr.contains(#"titleLocKey "tea.fr" is in no strings read for the recipient's locale en (looked in: en)"#))
        try ws.write("cups.json", #"{"identifier": "e", "recipient": "carol", "content": {"titleLocKey": "tea.cups", "titleLocArgs": ["many"], "body": "Now"}, "trigger": {"type": "timeInterval", "seconds": 60, "repeats": false}}"#)
        let cups = try ws.chime(["schedule", "--json", "cups.json"], now: "2026-11-21T09:00:00Z")
        #expect(cups.status == 65)
        #expect(cups.stderr == "cups.json:1:98: error: request \"e\": titleLocArgs do not fit titleLocKey \"tea.cups\": %d needs a number, and argument 1 is \"many\"\n",
                "at the arguments, naming the key: \(cups.stderr)")
        #expect(try ws.chime(["pending"]).stdout.isEmpty)

        try ws.write("known.json", "[" + request("b", key: "tea.title", title: "") + "," + request("c", key: "tea.nope", title: "Literal tea") + "]")
        #expect(try ws.chime(["schedule", "--json", "known.json"], now: "2026-11-21T09:00:00Z").status == 0)
        #expect(try ws.chime(["run"], now: "2026-11-21T09:01:00Z").stdout == "fired 2\n")
        let subjects = try FileManager.default.contentsOfDirectory(atPath: ws.path("outbox/new")).map {
            ParsedMail(bytes: Array(try ws.read("outbox/new/\($0)").utf8))?.header("Subject")
        }
        #expect(Set(subjects) == ["Tea is ready", "Literal tea"])
        // Listed by its key where it has no literal title, not by an empty column.
        let listed = try ws.chime(["delivered"]).stdout.split(separator: "\n")
        #expect(listed.contains { $0.hasSuffix("  b  carol  tea.title") } && listed.contains { $0.hasSuffix("  c  carol  Literal tea") }, "\(listed)")

        // subtitleLocKey (APNs' subtitle-loc-key) as the title's: checked, then rendered.
        try ws.write("sub.json", #"{"identifier": "s", "recipient": "carol", "content": {"title": "Tea", "subtitleLocKey": "tea.nope"}, "trigger": {"type": "timeInterval", "seconds": 60}}"#)
        let unknownSubtitle = try ws.chime(["schedule", "--json", "sub.json"], now: "2026-11-21T09:00:00Z")
        #expect(unknownSubtitle.status == 65 && unknownSubtitle.stderr.contains(#"subtitleLocKey "tea.nope""#), "\(unknownSubtitle.stderr)")
        try ws.write("sub.json", #"{"identifier": "s", "recipient": "carol", "content": {"title": "Tea", "subtitleLocKey": "tea.cups", "subtitleLocArgs": ["3"]}, "trigger": {"type": "timeInterval", "seconds": 60}}"#)
        #expect(try ws.chime(["schedule", "--json", "sub.json"], now: "2026-11-21T09:00:00Z").status == 0)
        #expect(try ws.chime(["run"], now: "2026-11-21T09:02:00Z").stdout == "fired 1\n")
        let texts = try FileManager.default.contentsOfDirectory(atPath: ws.path("outbox/new")).map { try ws.read("outbox/new/\($0)") }
        #expect(texts.contains { $0.contains("3 cups of tea") }, "the subtitle in its recipient's words")
    }
}
