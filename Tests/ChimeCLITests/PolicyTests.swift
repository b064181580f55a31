import ChimeCore
import ChimeTestSupport
import Foundation
import Testing

/// Delivery policy through the real `chime`, with `--now` moving across quiet hours and
/// the end of summer time in Paris (2026-10-25, 03:00 CEST → 02:00 CET), and the digests
/// it feeds.
@Suite("delivery policy and digests", .serialized)
struct PolicyTests {
    /// A category with a plural summary, and a Maildir channel whose replies carry tokens.
    static let shop = """
        <category identifier="shop" categorySummaryFormat="shopping.summary">
          <action identifier="justInform" title="OK, got it"/>
          <action identifier="trashAction" title="Delete list"/>
        </category>
        """
    static let mail = #"<channel id="mail" url="maildir:./outbox" from="Chime &lt;bot@reply.example.org&gt;" replyTo="bot+{token}@reply.example.org"/>"#

    static let configuration = """
        <chime version="1">
          <categories>
            \(shop)
            <category identifier="timer">
              <action identifier="restart" title="Restart"/>
            </category>
          </categories>
          <channels>
            \(mail)
          </channels>
          <recipients>
            <recipient id="alice" locale="en" timeZone="Europe/Paris" quietHours="22:00-07:00">
              <address channel="mail">alice@example.org</address>
              <category identifier="timer" deliver="off"/>
            </recipient>
            <recipient id="bob" locale="ru" timeZone="Europe/Paris" authorization="provisional">
              <address channel="mail">bob@example.org</address>
            </recipient>
            <recipient id="carol" timeZone="UTC" authorization="denied">
              <address channel="mail">carol@example.org</address>
            </recipient>
            <recipient id="dave" timeZone="Europe/Paris" quietHours="22:00-07:00" quietHoursMode="wait">
              <address channel="mail">dave@example.org</address>
            </recipient>
          </recipients>
        </chime>
        """

    /// A request firing at a Paris wall-clock time.
    static func request(_ id: String, to recipient: String, at local: String, category: String = "shop", level: String = "active",
                        thread: String = "groceries", summary: String = "") -> String {
        #"{"identifier": "\#(id)", "recipient": "\#(recipient)", "content": {"title": "Title \#(id)", "body": "Body \#(id)", "categoryIdentifier": "\#(category)", "threadIdentifier": "\#(thread)", "summaryArgument": "\#(summary)", "interruptionLevel": "\#(level)"}, "trigger": {"type": "date", "fireDate": "\#(local)", "timeZone": "Europe/Paris"}}"#
    }

    /// The messages in the outbox's new/, by file name.
    static func outbox(_ ws: Workspace) throws -> [String: String] {
        let new = ws.url.appendingPathComponent("outbox/new")
        var found: [String: String] = [:]
        for name in (try? FileManager.default.contentsOfDirectory(atPath: new.path)) ?? [] {
            found[name] = try String(contentsOf: new.appendingPathComponent(name), encoding: .utf8)
        }
        return found
    }

    /// The text/plain part of a message, decoded (base64 or quoted-printable).
    static func text(_ message: String) -> String {
        let normalized = message.replacingOccurrences(of: "\r\n", with: "\n")
        guard let start = normalized.range(of: "Content-Type: text/plain") else { return "" }
        // The part ends at the next MIME boundary (not at the text's own "-- " footer line).
        let boundary = normalized.firstMatch(of: /boundary="?([^"\n;]+)"?/).map { "\n--" + $0.output.1 } ?? "\n--"
        let part = normalized[start.upperBound...].components(separatedBy: boundary)[0]
        let sections = part.components(separatedBy: "\n\n")
        let body = sections.dropFirst().joined(separator: "\n\n")
        if sections[0].contains("base64") {
            return String(decoding: Data(base64Encoded: body, options: .ignoreUnknownCharacters) ?? Data(), as: UTF8.self)
        }
        var bytes: [UInt8] = []
        let raw = Array(body.replacingOccurrences(of: "=\n", with: "").utf8)
        var i = 0
        while i < raw.count {
            if raw[i] == UInt8(ascii: "="), i + 2 < raw.count, let byte = UInt8(String(decoding: raw[(i + 1)...(i + 2)], as: UTF8.self), radix: 16) {
                bytes.append(byte)
                i += 3
            } else {
                bytes.append(raw[i])
                i += 1
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    static func recipients(of messages: [String: String]) -> [String] {
        messages.values.compactMap { $0.firstMatch(of: /\nTo: ([a-z]+)@/).map { String($0.output.1) } }.sorted()
    }

    @Test("each policy path: authorized, turned off in the XML, passive, quiet hours (digest, and wait across the DST change), timeSensitive and critical, provisional, denied; then the digest at 07:00 local after the change, once")
    func policyPaths() throws {
        let ws = try ReplyCorpusTests.workspace(Self.configuration)
        let requests = [
            Self.request("noon", to: "alice", at: "2026-10-24T12:00:00"),
            Self.request("timer", to: "alice", at: "2026-10-24T12:00:00", category: "timer"),
            Self.request("passive", to: "alice", at: "2026-10-24T12:00:00", level: "passive", summary: "Matt"),
            Self.request("late", to: "alice", at: "2026-10-24T23:00:00", summary: "Anna"),
            Self.request("urgent", to: "alice", at: "2026-10-24T23:00:00", level: "timeSensitive"),
            Self.request("trial", to: "bob", at: "2026-10-24T12:00:00"),
            Self.request("alarm", to: "bob", at: "2026-10-24T12:00:00", level: "critical"),
            Self.request("no", to: "carol", at: "2026-10-24T12:00:00"),
            Self.request("night", to: "dave", at: "2026-10-24T23:30:00"),
        ]
        try ws.write("requests.json", "[" + requests.joined(separator: ",") + "]")
        #expect(try ws.chime(["schedule", "--json", "requests.json"], now: "2026-10-24T04:00:00Z").status == 0)
        // The 24th's digest, at 07:00 CEST (05:00Z): nothing kept yet, nothing sent.
        #expect(try ws.chime(["digest"], now: "2026-10-24T05:00:00Z").stdout == "sent 0 digests\n")

        // Noon in Paris (10:00Z, summer time).
        let noon = try ws.chime(["run"], now: "2026-10-24T10:00:00Z")
        #expect(noon.status == 0, "\(noon.stderr)")
        #expect(noon.stdout == "fired 6, 2 kept for the digest, 2 turned off\n", "\(noon.stdout)")
        // alice's "noon" and bob's critical "alarm" went; bob's provisional "trial" and
        // alice's passive one wait for the digest; the timer (off) and carol (denied) nothing.
        #expect(Self.recipients(of: try Self.outbox(ws)) == ["alice", "bob"])
        let delivered = try ws.chime(["delivered"]).stdout
        #expect(!delivered.contains("timer") && !delivered.contains(" no ") && delivered.contains("passive"), "\(delivered)")

        // 23:00 and 23:30 in Paris: inside quiet hours.
        let night = try ws.chime(["run"], now: "2026-10-24T21:30:00Z")
        #expect(night.stdout == "fired 2, 1 kept for the digest, 1 held for quiet hours\n", "\(night.stdout)")
        #expect(try Self.outbox(ws).count == 3, "only the timeSensitive one went")
        #expect(try ws.chime(["pending"]).stdout.contains("night"))
        // 06:30 CET the next morning is still quiet (it would be 07:30 without the change).
        #expect(try ws.chime(["run"], now: "2026-10-25T05:30:00Z").stdout == "fired 0\n")
        // 07:00 CET (06:00Z): dave's waited notification goes.
        #expect(try ws.chime(["run"], now: "2026-10-25T06:00:00Z").stdout == "fired 1\n")
        #expect(Self.recipients(of: try Self.outbox(ws)) == ["alice", "alice", "bob", "dave"])
        // Dated when it went, as mail clients sort it, not at 23:30 the night before; its
        // text still says when the reminder was for.
        let waited = try #require(try Self.outbox(ws).values.first { $0.contains("To: dave@") })
        #expect(waited.contains("Date: Sun, 25 Oct 2026 07:00:00 +0100"), "\(waited.prefix(600))")
        #expect(Self.text(waited).contains("23:30") || Self.text(waited).contains("11:30"), "\(Self.text(waited))")

        // The digest is daily at 07:00 local: 06:00Z after the change. 05:59Z is 06:59 CET
        // (07:59 by the summer offset): the slot is still the 24th's, which went with nothing.
        // A dry run says what the real one would send then: nothing yet, and at 06:00Z both.
        #expect(try ws.chime(["digest", "--dry-run"], now: "2026-10-25T05:59:00Z").stdout == "0 digests due\n")
        #expect(try ws.chime(["digest"], now: "2026-10-25T05:59:00Z").stdout == "sent 0 digests\n")
        let dry = try ws.chime(["digest", "--dry-run"], now: "2026-10-25T06:00:00Z")
        #expect(dry.stdout.contains("alice: 2 notifications") && dry.stdout.contains("bob: 1 notification"), "\(dry.stdout)")
        let morning = try ws.chime(["digest"], now: "2026-10-25T06:00:00Z")
        #expect(morning.stdout == "digest alice: 2 notifications\ndigest bob: 1 notification\nsent 2 digests\n", "\(morning.stdout)")
        let before = try Self.outbox(ws)
        let digests = before.filter { $0.key.hasPrefix("digest-") }
        #expect(digests.count == 2)
        let alice = Self.text(try #require(digests.values.first { $0.contains("To: alice@") }))
        #expect(alice.hasPrefix("Your digest: 2 reminders\n"), "\(alice)")
        // Grouped under the thread's plural summary, each item with its own reply address.
        #expect(alice.contains("2 more shopping reminders from Matt and Anna"), "\(alice)")
        #expect(alice.contains("1. Title passive — Body passive") && alice.contains("2. Title late — Body late"), "\(alice)")
        #expect(alice.components(separatedBy: "mailto:bot+").count - 1 == 4, "two actions for each of the two items")
        let bob = Self.text(try #require(digests.values.first { $0.contains("To: bob@") }))
        #expect(bob.hasPrefix("Ваша сводка: 1 напоминание\n"), "\(bob)")
        // Once: the same slot again, and the next hour, send nothing more.
        #expect(try ws.chime(["digest"], now: "2026-10-25T06:00:30Z").stdout == "sent 0 digests\n")
        #expect(try ws.chime(["digest", "--dry-run"], now: "2026-10-25T06:00:30Z").stdout == "0 digests due\n")
        #expect(try ws.chime(["digest"], now: "2026-10-25T07:00:00Z").stdout == "sent 0 digests\n")
        #expect(try Self.outbox(ws).count == before.count)
    }

    /// Many recipients, each with two passive notifications a day: all go to digests.
    static func crowd(_ count: Int) throws -> Workspace {
        let recipients = (1...count).map {
            #"<recipient id="r\#($0)" timeZone="UTC"><address channel="mail">r\#($0)@example.org</address></recipient>"#
        }
        return try ReplyCorpusTests.workspace("""
            <chime version="1">
              <categories><category identifier="shop"><action identifier="ok" title="OK"/></category></categories>
              <channels><channel id="mail" url="maildir:./outbox" from="bot@example.org" replyTo="bot+{token}@example.org"/></channels>
              <recipients>\(recipients.joined(separator: "\n"))</recipients>
            </chime>
            """)
    }

    /// - Parameter store: `--store URL` for another store than the workspace's SQLite one.
    static func park(_ ws: Workspace, count: Int, day: Int, store: [String] = []) throws {
        let requests = (1...count).flatMap { r in (1...2).map { n in
            #"{"identifier": "d\#(day)-r\#(r)-\#(n)", "recipient": "r\#(r)", "content": {"title": "Item d\#(day)-r\#(r)-\#(n)", "categoryIdentifier": "shop", "interruptionLevel": "passive"}, "trigger": {"type": "date", "fireDate": "2026-11-\#(day)T12:00:00", "timeZone": "UTC"}}"#
        } }
        try ws.write("requests.json", "[" + requests.joined(separator: ",") + "]")
        #expect(try ws.chime(["schedule", "--json", "requests.json"] + store, now: "2026-11-\(day)T11:00:00Z").status == 0)
        let run = try ws.chime(["run"] + store, now: "2026-11-\(day)T12:00:00Z")
        #expect(run.stdout == "fired \(count * 2), \(count * 2) kept for the digest\n", "\(run.stdout)")
    }

    /// Each item title found in the digests of one slot, with how many times.
    static func items(_ ws: Workspace, slot: String) throws -> (files: Int, counts: [String: Int]) {
        let digests = try outbox(ws).filter { $0.key.hasPrefix("digest-\(slot)-") }
        var counts: [String: Int] = [:]
        for message in digests.values {
            for match in text(message).matches(of: /Item (d\d+-r\d+-\d)/) { counts[String(match.output.1), default: 0] += 1 }
        }
        return (digests.count, counts)
    }

    @Test("a notification is in one digest only: two overlapping chime digest runs, and runs killed at random moments then finished by the next")
    func digestExactlyOnce() throws {
        let count = 300
        let ws = try Self.crowd(count)
        try Self.park(ws, count: count, day: 21)
        // Two runs at once, at the 22nd's 07:00 slot.
        let outputs = [ws.url.appendingPathComponent("a.out"), ws.url.appendingPathComponent("b.out")]
        let runs = try outputs.map { try ChimeProcess.start(["digest", "--now", "2026-11-22T07:00:00Z"], in: ws.url, output: $0) }
        runs.forEach { $0.waitUntilExit() }
        #expect(runs.allSatisfy { $0.terminationStatus == 0 })
        let said = try outputs.map { try String(contentsOf: $0, encoding: .utf8) }
        let sent = said.map { $0.components(separatedBy: "\n").filter { $0.hasPrefix("digest r") }.count }
        #expect(sent.reduce(0, +) == count, "\(sent)")
        let slot22 = String(Instant(rfc3339: "2026-11-22T07:00:00Z")!.seconds)
        let first = try Self.items(ws, slot: slot22)
        #expect(first.files == count)
        #expect(first.counts.count == count * 2 && first.counts.values.allSatisfy { $0 == 1 })

        // The next day: runs killed after a random while, then one left to finish.
        try Self.park(ws, count: count, day: 22)
        var random = SplitMix(seed: 7)
        var killed = 0
        for _ in 0..<4 {
            let run = try ChimeProcess.start(["digest", "--now", "2026-11-23T07:00:00Z"], in: ws.url)
            usleep(UInt32(50_000 + random.next() % 400_000))
            if run.isRunning {
                kill(run.processIdentifier, SIGKILL)
                killed += 1
            }
            run.waitUntilExit()
        }
        let last = try ws.chime(["digest"], now: "2026-11-23T07:00:00Z")
        #expect(last.status == 0, "\(last.stderr.prefix(600))")
        // At least one run died mid-digest (a later run, killed or not, finished its digest).
        #expect(killed >= 1)
        let slot23 = String(Instant(rfc3339: "2026-11-23T07:00:00Z")!.seconds)
        let second = try Self.items(ws, slot: slot23)
        #expect(second.files == count, "killed \(killed) runs")
        #expect(second.counts.count == count * 2, "killed \(killed) runs")
        #expect(second.counts.values.allSatisfy { $0 == 1 }, "killed \(killed) runs")
        #expect(try ws.chime(["digest"], now: "2026-11-23T08:00:00Z").stdout == "sent 0 digests\n")
    }

    @Test("Deliver Quietly, Turn Off and Keep, answered by email reply and by the digest's links: a provisional recipient's digest offers Keep and Turn off for each item; each answer holds from the next fire")
    func changedByReply() throws {
        let ws = try ReplyCorpusTests.workspace(Self.configuration)
        func schedule(_ id: String, to recipient: String, at local: String, category: String = "shop") throws {
            try ws.write("one.json", Self.request(id, to: recipient, at: local, category: category))
            #expect(try ws.chime(["schedule", "--json", "one.json"], now: "2026-10-24T04:00:00Z").status == 0)
        }
        func answer(_ token: String, from: String, _ body: String) throws -> String {
            try ReplyCorpusTests.ingest(ws, ReplyCorpusTests.reply(.init(deliveryID: "", token: token), from: from, body: body),
                                        now: "2026-10-25T08:00:00Z").stdout
        }
        try schedule("s1", to: "alice", at: "2026-10-24T12:00:00")
        try schedule("trial", to: "bob", at: "2026-10-24T12:00:00")
        #expect(try ws.chime(["run"], now: "2026-10-24T10:00:00Z").stdout == "fired 2, 1 kept for the digest\n")
        let aliceToken = try #require(try Self.outbox(ws).values.first!.firstMatch(of: /Reply-To:\s+bot\+([^@]+)@/)).output.1

        // bob is provisional: his digest offers Keep and Turn off for the item, in Russian.
        #expect(try ws.chime(["digest"], now: "2026-10-25T06:00:00Z").stdout.contains("digest bob: 1 notification"))
        let digest = Self.text(try #require(try Self.outbox(ws).first { $0.key.hasPrefix("digest-") }?.value))
        let keep = try #require(digest.firstMatch(of: /Оставить: mailto:bot\+([^@]+)@reply\.example\.org\?[^\n]*keep\n/))
        #expect(digest.contains("Выключить: mailto:bot+\(keep.output.1)@"), "\(digest)")
        #expect(try answer(String(keep.output.1), from: "bob@example.org", "Оставить").hasPrefix("stdin: responded: chime.keep"))
        try schedule("trial2", to: "bob", at: "2026-10-25T12:00:00")
        try schedule("timer2", to: "bob", at: "2026-10-25T12:00:00", category: "timer")
        #expect(try ws.chime(["run"], now: "2026-10-25T11:00:00Z").stdout == "fired 2, 1 kept for the digest\n",
                "kept: bob's shop reminders now come at once, his timer ones (not kept) still to the digest")

        // alice answers "quietly", then "turn off" (the category's next ones follow each).
        #expect(try answer(String(aliceToken), from: "alice@example.org", "quietly").hasPrefix("stdin: responded: chime.quietly"))
        try schedule("s2", to: "alice", at: "2026-10-25T13:00:00")
        #expect(try ws.chime(["run"], now: "2026-10-25T12:00:00Z").stdout == "fired 1, 1 kept for the digest\n")
        #expect(try answer(String(aliceToken), from: "alice@example.org", "Turn off").hasPrefix("stdin: responded: chime.off"))
        try schedule("s3", to: "alice", at: "2026-10-25T14:00:00")
        #expect(try ws.chime(["run"], now: "2026-10-25T13:00:00Z").stdout == "fired 1, 1 turned off\n")

        // The reply token the digest's headers and mailto links carry is no link: it acts on nothing.
        // No scheduler: chime run fires trial3 below, due before the server's --now.
        let server = try ServeTests.Server(ws, ["--no-scheduler", "--now", "2026-10-25T13:30:00Z"])
        defer { server.stop() }
        #expect(try server.request("GET", "/a/\(keep.output.1)/off").status == 403)
        #expect(try server.request("POST", "/a/\(keep.output.1)/off").status == 403)
        #expect(try answer(String(keep.output.1), from: "bob@example.org", "Выключить").hasPrefix("stdin: responded: chime.off"))
        try schedule("trial3", to: "bob", at: "2026-10-25T15:00:00")
        #expect(try ws.chime(["run"], now: "2026-10-25T14:00:00Z").stdout == "fired 1, 1 turned off\n")
    }

    @Test("reminders kept for the digest, then their category turned off (\"Выключить\" answered to an earlier digest): the next digest leaves them out and keeps the others; listed so by --dry-run too")
    func turnedOffAfterKept() throws {
        let ws = try ReplyCorpusTests.workspace(Self.configuration)
        func schedule(_ id: String, at local: String, category: String = "shop") throws {
            try ws.write("one.json", Self.request(id, to: "bob", at: local, category: category))
            #expect(try ws.chime(["schedule", "--json", "one.json"], now: "2026-10-24T04:00:00Z").status == 0)
        }
        try schedule("a", at: "2026-10-24T12:00:00")
        #expect(try ws.chime(["run"], now: "2026-10-24T10:00:00Z").stdout == "fired 1, 1 kept for the digest\n")
        #expect(try ws.chime(["digest"], now: "2026-10-25T06:00:00Z").stdout.contains("digest bob: 1 notification"))
        let first = Self.text(try #require(try Self.outbox(ws).first { $0.key.hasPrefix("digest-") }?.value))
        let token = try #require(first.firstMatch(of: /Оставить: mailto:bot\+([^@]+)@reply\.example\.org\?[^\n]*keep\n/)).output.1
        // Kept before shop is turned off: one of shop, one of timer.
        try schedule("b", at: "2026-10-25T12:00:00")
        try schedule("c", at: "2026-10-25T12:00:00", category: "timer")
        #expect(try ws.chime(["run"], now: "2026-10-25T11:00:00Z").stdout == "fired 2, 2 kept for the digest\n")
        let answered = try ReplyCorpusTests.ingest(ws, ReplyCorpusTests.reply(.init(deliveryID: "", token: String(token)), from: "bob@example.org", body: "Выключить"),
                                                   now: "2026-10-25T11:30:00Z").stdout
        #expect(answered.hasPrefix("stdin: responded: chime.off"), "\(answered)")
        let listed = try ws.chime(["digest", "--dry-run"], now: "2026-10-26T06:00:00Z").stdout
        #expect(listed.contains(" c  Title c") && !listed.contains("Title b"), "\(listed)")
        #expect(try ws.chime(["digest"], now: "2026-10-26T06:00:00Z").stdout.contains("digest bob: 1 notification"))
        let digests = try Self.outbox(ws).filter { $0.key.hasPrefix("digest-") }.values.map(Self.text)
        #expect(digests.count == 2 && digests.contains { $0.contains("Title c") } && !digests.contains { $0.contains("Title b") }, "\(digests)")
    }

    @Test("the preferences page shows a provisional recipient's categories as they come, quietly into the digest; choosing Deliver prominently there keeps that category (as Keep does): it comes at once from the next fire, the others stay in the digest")
    func provisionalPreferencesPage() throws {
        let ws = try ReplyCorpusTests.workspace(Self.configuration)
        func schedule(_ requests: [String]) throws {
            try ws.write("some.json", "[" + requests.joined(separator: ",") + "]")
            #expect(try ws.chime(["schedule", "--json", "some.json"], now: "2026-10-24T04:00:00Z").status == 0)
        }
        try schedule([Self.request("trial", to: "bob", at: "2026-10-24T12:00:00")])
        #expect(try ws.chime(["run"], now: "2026-10-24T10:00:00Z").stdout == "fired 1, 1 kept for the digest\n")
        #expect(try ws.chime(["digest"], now: "2026-10-25T06:00:00Z").stdout.contains("digest bob: 1 notification"))
        let digest = Self.text(try #require(try Self.outbox(ws).first { $0.key.hasPrefix("digest-") }?.value))
        let preferences = String(try #require(digest.firstMatch(of: /https:\/\/chime\.invalid(\/p\/[0-9a-z.]+)/)).output.1)

        let server = try ServeTests.Server(ws, ["--no-scheduler", "--now", "2026-10-25T07:00:00Z"])
        defer { server.stop() }
        let form = try server.request("GET", preferences)
        #expect(form.body.contains(#"id="deliver-shop-quietly" value="quietly" checked"#)
                && form.body.contains(#"id="deliver-timer-quietly" value="quietly" checked"#), "\(form.body)")
        let nonce = try #require(form.body.firstMatch(of: /name="csrf" value="([0-9a-f]+)"/)).output.1
        // As a browser sends the form: every category's choice.
        let saved = try server.request("POST", preferences, headers: ["Content-Type": "application/x-www-form-urlencoded", "Cookie": "chime_csrf=\(nonce)"],
                                       body: Array("csrf=\(nonce)&deliver.shop=prominently&deliver.timer=quietly".utf8))
        #expect(saved.status == 303 || saved.body.contains(#"id="deliver-shop-prominently" value="prominently" checked"#), "\(saved)")
        try schedule([Self.request("shop2", to: "bob", at: "2026-10-25T12:00:00"),
                      Self.request("timer2", to: "bob", at: "2026-10-25T12:00:00", category: "timer")])
        #expect(try ws.chime(["run"], now: "2026-10-25T11:00:00Z").stdout == "fired 2, 1 kept for the digest\n",
                "shop comes at once, timer still quietly")
    }

    @Test("a digest of two categories and reminders of none unsubscribes from all three: its List-Unsubscribe names them (none as an empty item), the page asks about each by name, the one-click POST turns each off, and a link with a category dropped, added, reordered or merged by a %00 is refused")
    func digestUnsubscribesFromEachCategory() throws {
        let ws = try ReplyCorpusTests.workspace(Self.configuration)
        func schedule(_ suffix: String, on day: String) throws {
            try ws.write("two.json", "[" + [Self.request("shop\(suffix)", to: "bob", at: "\(day)T12:00:00"),
                                            Self.request("timer\(suffix)", to: "bob", at: "\(day)T12:00:00", category: "timer"),
                                            Self.request("plain\(suffix)", to: "bob", at: "\(day)T12:00:00", category: "", level: "passive")]
                .joined(separator: ",") + "]")
            #expect(try ws.chime(["schedule", "--json", "two.json"], now: "2026-10-24T04:00:00Z").status == 0)
        }
        try schedule("1", on: "2026-10-24")
        #expect(try ws.chime(["run"], now: "2026-10-24T10:00:00Z").stdout == "fired 3, 3 kept for the digest\n")
        #expect(try ws.chime(["digest"], now: "2026-10-25T06:00:00Z").stdout.contains("digest bob: 3 notifications"))
        let digest = try #require(try Self.outbox(ws).first { $0.key.hasPrefix("digest-") }?.value)
        let headers = digest.replacingOccurrences(of: "\r\n", with: "\n").components(separatedBy: "\n\n")[0]
            .replacingOccurrences(of: "\n ", with: " ").replacingOccurrences(of: "\n\t", with: " ")
        let link = String(try #require(headers.firstMatch(of: /List-Unsubscribe: <https:\/\/chime\.invalid(\/u\/[^>]+)>/)).output.1)
        #expect(link.hasSuffix("?c=,shop,timer"), "\(link)")
        #expect(Self.text(digest).contains(link), "the footer's link is the header's")

        let server = try ServeTests.Server(ws, ["--no-scheduler", "--now", "2026-10-25T07:00:00Z"])
        defer { server.stop() }
        for forged in [link.replacingOccurrences(of: ",timer", with: ""), link + ",other", link.replacingOccurrences(of: "?c=,shop,timer", with: "?c=shop,timer"),
                       link.replacingOccurrences(of: "?c=,shop,timer", with: "?c=,timer,shop"), link.replacingOccurrences(of: "?c=,shop,timer", with: "?c=,,shop,timer"),
                       link.replacingOccurrences(of: "?c=,shop,timer", with: "?c=,shop%00,timer"), link.replacingOccurrences(of: "?c=,shop,timer", with: "?c=,shop%00timer")] {
            #expect(try server.request("POST", forged, body: Array("List-Unsubscribe=One-Click".utf8)).status == 403, "\(forged)")
        }
        let page = try server.request("GET", link)
        #expect(page.status == 200 && page.body.contains("Больше не получать эти напоминания: «Без категории», «shop», «timer»?"), "\(page)")
        let done = try server.request("POST", link, body: Array("List-Unsubscribe=One-Click".utf8))
        #expect(done.status == 200 && done.body.contains("Эти напоминания больше не будут приходить: «Без категории», «shop», «timer»."), "\(done)")
        try schedule("2", on: "2026-10-25")
        #expect(try ws.chime(["run"], now: "2026-10-25T11:00:00Z").stdout == "fired 3, 3 turned off\n", "every category of the digest is off")
    }

    @Test("a recipient with two addresses on one Maildir channel gets the digest at each, and each item shows its subtitle as the single message does")
    func digestToEachAddress() throws {
        let configuration = Self.configuration
            .replacingOccurrences(of: #"<recipient id="carol" timeZone="UTC" authorization="denied">"#, with: #"<recipient id="carol" timeZone="Europe/Paris">"#)
            .replacingOccurrences(of: #"<address channel="mail">carol@example.org</address>"#,
                                  with: #"<address channel="mail">carol@example.org</address><address channel="mail">carol@work.example.org</address>"#)
        let ws = try ReplyCorpusTests.workspace(configuration)
        let requests = [Self.request("one", to: "carol", at: "2026-10-24T12:00:00", level: "passive"),
                        Self.request("two", to: "carol", at: "2026-10-24T12:00:00", level: "passive")
                            .replacingOccurrences(of: #""body": "Body two""#, with: #""subtitle": "Dentist", "body": "Body two""#)]
        try ws.write("requests.json", "[" + requests.joined(separator: ",") + "]")
        #expect(try ws.chime(["schedule", "--json", "requests.json"], now: "2026-10-24T04:00:00Z").status == 0)
        #expect(try ws.chime(["run"], now: "2026-10-24T10:00:00Z").stdout == "fired 2, 2 kept for the digest\n")
        #expect(try ws.chime(["digest"], now: "2026-10-25T06:00:00Z").stdout == "digest carol: 2 notifications\nsent 1 digest\n")
        let digests = try Self.outbox(ws).filter { $0.key.hasPrefix("digest-") }.values
        #expect(digests.count == 2, "one for each address")
        #expect(digests.contains { $0.contains("To: carol@example.org") } && digests.contains { $0.contains("To: carol@work.example.org") })
        let text = Self.text(try #require(digests.first))
        #expect(text.contains("Title two — Dentist — Body two"), "\(text)")
    }

    @Test("notifications kept for a digest whose recipient has since been left with no email or chat address are held, said so, and sent once an address takes them again: never counted as sent and lost; the recipient removed meanwhile, the digest waits in the store without an exit 75 at every run")
    func digestWithoutTakers() throws {
        let configuration = Self.configuration
            .replacingOccurrences(of: #"<recipient id="carol" timeZone="UTC" authorization="denied">"#, with: #"<recipient id="carol" timeZone="UTC">"#)
        let ws = try ReplyCorpusTests.workspace(configuration)
        try ws.write("requests.json", "[" + Self.request("one", to: "carol", at: "2026-10-24T12:00:00", level: "passive") + "]")
        #expect(try ws.chime(["schedule", "--json", "requests.json"], now: "2026-10-24T04:00:00Z").status == 0)
        #expect(try ws.chime(["run"], now: "2026-10-24T12:00:00Z").stdout == "fired 1, 1 kept for the digest\n")
        // The operator moves carol to a feed for programs, which takes no digests.
        let feedOnly = configuration
            .replacingOccurrences(of: "<channels>", with: #"<channels><channel id="log" url="file:./sent.jsonl"/>"#)
            .replacingOccurrences(of: #"<address channel="mail">carol@example.org</address>"#, with: #"<address channel="log">carol</address>"#)
        try ws.write("chime.xml", feedOnly)
        let held = try ws.chime(["digest"], now: "2026-10-25T07:00:00Z")
        #expect(!held.stdout.contains("digest carol"), "\(held.stdout)")
        #expect(held.stderr.contains("carol"), "\(held.stderr)")
        #expect(try Self.outbox(ws).filter { $0.key.hasPrefix("digest-") }.isEmpty)
        // The operator then removes carol: her held digest is left in the store, as her
        // unclaimed notifications are, not held at every run with an exit 75 nothing clears.
        let withoutCarol = try #require(feedOnly.firstRange(of: /<recipient id="carol"[\s\S]*?<\/recipient>/))
        var removed = feedOnly
        removed.removeSubrange(withoutCarol)
        try ws.write("chime.xml", removed)
        for day in ["2026-10-26T07:00:00Z", "2026-10-27T07:00:00Z"] {
            let gone = try ws.chime(["digest"], now: day)
            #expect(gone.status == 0 && !gone.stderr.contains("carol"), "\(gone.status) \(gone.stderr)")
        }
        // Back on mail, the next digest brings it.
        try ws.write("chime.xml", configuration)
        let sent = try ws.chime(["digest"], now: "2026-10-28T07:00:00Z")
        #expect(sent.stdout.contains("digest carol: 1 notification"), "\(sent.stdout) \(sent.stderr)")
        #expect(try Self.outbox(ws).filter { $0.key.hasPrefix("digest-") }.count == 1)
    }

}
