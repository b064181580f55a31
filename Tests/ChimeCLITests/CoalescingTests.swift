import ChimeCore
import ChimeTestSupport
import Foundation
import Testing

/// Burst coalescing (Alertmanager's group wait) through the real `chime run`: the
/// notifications of one thread that fire within the recipient's `groupWait` of the first
/// go out as one message, each still delivered, answerable and removable.
@Suite("burst coalescing", .serialized)
struct CoalescingTests {
    static let configuration = """
        <chime version="1">
          <categories>
            \(PolicyTests.shop)
          </categories>
          <channels>
            \(PolicyTests.mail)
          </channels>
          <recipients>
            <recipient id="alice" locale="en" timeZone="Europe/Paris" groupWait="2m">
              <address channel="mail">alice@example.org</address>
            </recipient>
            <recipient id="boris" locale="ru" timeZone="Europe/Paris" groupWait="2m">
              <address channel="mail">boris@example.org</address>
            </recipient>
          </recipients>
        </chime>
        """

    /// A request of `recipient` firing at 12:00 Paris (11:00Z) plus `offset` seconds.
    static func request(_ id: String, to recipient: String, offset: Int, thread: String = "groceries", level: String = "active") -> String {
        let local = String(format: "2026-11-24T12:%02d:%02d", offset / 60, offset % 60)
        return PolicyTests.request(id, to: recipient, at: local, level: level, thread: thread, summary: offset % 4 == 0 ? "Matt" : "Anna")
    }

    @Test("50 notifications of one thread within the group wait: one message listing 50 under a plural-correct summary, in English and in Russian; each still delivered, answerable by its own reply address, and removable; critical ones go at once; a thread of one goes as the single message it is")
    func fiftyInOneThread() throws {
        let ws = try ReplyCorpusTests.workspace(Self.configuration)
        // Every two seconds from 12:00:00 to 12:01:38, for alice and for boris; a critical
        // one in the same thread; two in another thread, one of which alice removes.
        var requests: [String] = []
        for i in 0..<50 {
            requests.append(Self.request("a\(i)", to: "alice", offset: 2 * i))
            requests.append(Self.request("b\(i)", to: "boris", offset: 2 * i))
        }
        requests.append(Self.request("alarm", to: "alice", offset: 10, level: "critical"))
        requests.append(Self.request("school1", to: "alice", offset: 20, thread: "school"))
        requests.append(Self.request("school2", to: "alice", offset: 40, thread: "school"))
        try ws.write("requests.json", "[" + requests.joined(separator: ",") + "]")
        #expect(try ws.chime(["schedule", "--json", "requests.json"], now: "2026-11-24T10:00:00Z").status == 0)

        // 12:01: 31 of each fired; only the critical one went.
        let first = try ws.chime(["run"], now: "2026-11-24T11:01:00Z")
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout == "fired 65, 64 waiting for their thread\n", "\(first.stdout)")
        #expect(try PolicyTests.outbox(ws).count == 1)
        #expect(try ws.chime(["remove-delivered", "school1"]).status == 0)

        // 12:02, two minutes after the first: the rest fire, and each groceries thread goes
        // as one message. The school thread's wait (from 12:00:20) is not over.
        let second = try ws.chime(["run"], now: "2026-11-24T11:02:00Z")
        #expect(second.stdout == "fired 38, 38 waiting for their thread, 2 threads sent as one message each (100 notifications)\n",
                "\(second.stdout)")
        let messages = try PolicyTests.outbox(ws)
        #expect(messages.count == 3)
        let alice = PolicyTests.text(try #require(messages.values.first { $0.contains("To: alice@") && $0.contains("X-Chime-Group") }))
        let boris = PolicyTests.text(try #require(messages.values.first { $0.contains("To: boris@") }))
        #expect(alice.hasPrefix("50 more shopping reminders from Matt and Anna\n"), "\(alice.prefix(300))")
        // The subject names them in the heading's order, whatever order the store gave.
        let aliceMessage = try #require(messages.values.first { $0.contains("To: alice@") && $0.contains("X-Chime-Group") })
        let subject = aliceMessage.firstMatch(of: /\nSubject: ([^\r\n]*)/).map { String($0.output.1) }
        #expect(subject == "50 more shopping reminders from Matt and Anna", "\(aliceMessage.prefix(600))")
        #expect(boris.hasPrefix("ещё 50 напоминаний о покупках от Matt и Anna\n"), "\(boris.prefix(300))")
        for text in [alice, boris] {
            let numbers = text.matches(of: /\n(\d+)\. Title [ab]\d+ — Body/).map { Int($0.output.1)! }
            #expect(numbers == Array(1...50), "every notification listed once, in order")
        }
        #expect(alice.contains("\n1. Title a0 — Body a0\n") && alice.contains("\n50. Title a49 — Body a49\n"))
        // Each item answers to its own reply address: two keywords each, 50 addresses.
        let tokens = alice.matches(of: /mailto:bot\+([^@]+)@reply\.example\.org/).map { String($0.output.1) }
        #expect(tokens.count == 100 && Set(tokens).count == 50)

        // Still delivered one by one, and the 7th answered by its own reply.
        let delivered = try ws.chime(["delivered"]).stdout
        #expect((0..<50).allSatisfy { delivered.contains(" a\($0) ") || delivered.contains(" a\($0)\n") }, "\(delivered.prefix(400))")
        let answer = try ReplyCorpusTests.ingest(ws, ReplyCorpusTests.reply(.init(deliveryID: "", token: tokens[12]), body: "1"),
                                                 now: "2026-11-24T11:05:00Z")
        #expect(answer.stdout.hasPrefix("stdin: responded: justInform"), "\(answer.stdout) \(answer.stderr)")
        #expect(try ws.chime(["responses"]).stdout.contains("a6"), "the 7th in the list is a6")

        // school1 was removed: the school thread's wait counts from school2 (12:00:40).
        #expect(try ws.chime(["run"], now: "2026-11-24T11:02:30Z").stdout == "fired 0\n")
        // 12:02:40: it is over, and school2 goes alone, as the ordinary single message.
        let third = try ws.chime(["run"], now: "2026-11-24T11:02:40Z")
        #expect(third.stdout == "fired 0, 1 thread sent as one message (1 notification)\n", "\(third.stdout)")
        let school = try PolicyTests.outbox(ws).values.filter { $0.contains("Title school") }
        try #require(school.count == 1)
        #expect(school[0].contains("Title school2") && !school[0].contains("Title school1"))
        #expect(!school[0].contains("X-Chime-Group"))
        // Nothing is sent twice.
        #expect(try ws.chime(["run"], now: "2026-11-24T11:10:00Z").stdout == "fired 0\n")
        // The alarm, the answer to the reply, two groceries messages, school2.
        let all = try PolicyTests.outbox(ws)
        #expect(all.count == 5, "\(all.keys.sorted())")
    }

    /// A workspace whose alice reads Slack alone, its webhook a real HTTPS server (its
    /// certificate in `folder`) that keeps what it is sent.
    static func onSlack(_ folder: URL) throws -> (Workspace, WebhookServer) {
        let certificate = try ScriptServer.certificate(in: folder)
        let slack = try WebhookServer(["--cert", certificate.cert, "--key", certificate.key])
        let configuration = Self.configuration
            .replacingOccurrences(of: "</channels>", with: #"<channel id="team" url="slack://127.0.0.1:\#(slack.port)/ok" caFile="\#(certificate.cert)"/></channels>"#)
            .replacingOccurrences(of: #"<address channel="mail">alice@example.org</address>"#, with: #"<address channel="team"/>"#)
        return (try ReplyCorpusTests.workspace(configuration), slack)
    }

    /// What a Slack block shows as text: a section's text, or a rich text block's text and
    /// links (each link's address as it shows), with whether every address of Chime's in
    /// it is a link element, which Slack opens, rather than text.
    static func shown(_ block: [String: Any]?) -> (text: String, linked: Bool) {
        if let text = (block?["text"] as? [String: Any])?["text"] as? String { return (text, !text.contains("://")) }
        let sections = block?["elements"] as? [[String: Any]] ?? []
        let elements = sections.flatMap { $0["elements"] as? [[String: Any]] ?? [] }
        let text = elements.map { ($0["type"] as? String == "link" ? $0["url"] : $0["text"]) as? String ?? "" }.joined()
        let linked = elements.allSatisfy { $0["type"] as? String == "link" || !(($0["text"] as? String) ?? "").contains("/a/") }
        return (text, linked)
    }

    @Test("on Slack too: a thread's notifications go as one post headed by the summary, listing each with its action links, which Slack opens (link elements of a rich text block, where plain_text makes no link of an address); the digest goes there as well")
    func chatGroupAndDigest() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("chime-group-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let (ws, slack) = try Self.onSlack(folder)
        var requests = (0..<5).map { Self.request("s\($0)", to: "alice", offset: 10 * $0) }
        requests.append(Self.request("quiet", to: "alice", offset: 0, thread: "other", level: "passive"))
        try ws.write("requests.json", "[" + requests.joined(separator: ",") + "]")
        #expect(try ws.chime(["schedule", "--json", "requests.json"], now: "2026-11-24T10:00:00Z").status == 0)
        let run = try ws.chime(["run"], now: "2026-11-24T11:02:00Z")
        #expect(run.stdout.hasPrefix("fired 6, delivered 1, 1 kept for the digest, 5 waiting for their thread, 1 thread sent as one message (5 notifications)"),
                "\(run.stdout) \(run.stderr)")
        let posts = try slack.requests().compactMap { $0["body"] as? String }
        try #require(posts.count == 1)
        let post = try #require(try JSONSerialization.jsonObject(with: Data(posts[0].utf8)) as? [String: Any])
        let blocks = try #require(post["blocks"] as? [[String: Any]])
        let header = ((blocks.first?["text"] as? [String: Any])?["text"] as? String) ?? ""
        #expect(header == "5 more shopping reminders from Matt and Anna", "\(header)")
        let (section, linked) = Self.shown(blocks.dropFirst().first)
        #expect((1...5).allSatisfy { section.contains("\($0). Title s\($0 - 1) — Body s\($0 - 1)") }, "\(section)")
        #expect(section.components(separatedBy: "/a/").count - 1 == 10, "each item's two action links: \(section)")
        #expect(linked && blocks.dropFirst().first?["type"] as? String == "rich_text", "\(blocks)")
        #expect(try ChatPayloadRulesTests.slackComplaints(ws, post) == "", "slack_sdk's Block Kit models take it")

        // The daily digest goes to Slack too.
        let digest = try ws.chime(["digest"], now: "2026-11-25T06:00:00Z")
        #expect(digest.stdout == "digest alice: 1 notification\nsent 1 digest\n", "\(digest.stdout) \(digest.stderr)")
        let last = try #require(try slack.requests().compactMap { $0["body"] as? String }.last)
        #expect(last.contains("Your digest: 1 reminder") && last.contains("Title quiet"), "\(last)")
    }

    @Test("a thread's post whose previews show its first title keeps that title's percent sign as written (\"Sale: 20% off milk\", not a format's \"203ff\")")
    func chatGroupTitleAsWritten() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("chime-group-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let (ws, slack) = try Self.onSlack(folder)
        let configuration = try ws.read("chime.xml")
            .replacingOccurrences(of: #"categorySummaryFormat="shopping.summary">"#, with: #"categorySummaryFormat="shopping.summary" hiddenPreviewsShowTitle="true">"#)
            .replacingOccurrences(of: #"<recipient id="alice" "#, with: #"<recipient id="alice" showPreviews="whenAuthenticated" "#)
        try ws.write("chime.xml", configuration)
        let requests = (0..<3).map { Self.request("s\($0)", to: "alice", offset: 10 * $0) }
        try ws.write("requests.json", ("[" + requests.joined(separator: ",") + "]").replacingOccurrences(of: "Title s0", with: "Sale: 20% off milk"))
        #expect(try ws.chime(["schedule", "--json", "requests.json"], now: "2026-11-24T10:00:00Z").status == 0)
        let run = try ws.chime(["run"], now: "2026-11-24T11:02:00Z")
        #expect(run.stdout.contains("1 thread sent as one message (3 notifications)"), "\(run.stdout) \(run.stderr)")
        let post = try #require(try slack.requests().compactMap { $0["body"] as? String }.last)
        let body = try #require(try JSONSerialization.jsonObject(with: Data(post.utf8)) as? [String: Any])
        let header = (((body["blocks"] as? [[String: Any]])?.first?["text"] as? [String: Any])?["text"] as? String) ?? ""
        #expect(header == "Sale: 20% off milk", "\(header)")
        #expect((body["text"] as? String)?.hasPrefix("Sale: 20% off milk") == true && !post.contains("203ff"), "\(post)")
    }

    @Test("a thread too long for one Slack post lists the reminders that fit, each whole with its links, then says how many more there are")
    func chatGroupCutShort() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("chime-group-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let (ws, slack) = try Self.onSlack(folder)
        let requests = (0..<40).map { Self.request("s\($0)", to: "alice", offset: 2 * $0) }
        try ws.write("requests.json", "[" + requests.joined(separator: ",") + "]")
        #expect(try ws.chime(["schedule", "--json", "requests.json"], now: "2026-11-24T10:00:00Z").status == 0)
        let run = try ws.chime(["run"], now: "2026-11-24T11:02:00Z")
        #expect(run.stdout.contains("1 thread sent as one message (40 notifications)"), "\(run.stdout) \(run.stderr)")
        let posts = try slack.requests().compactMap { $0["body"] as? String }
        try #require(posts.count == 1)
        let post = try #require(try JSONSerialization.jsonObject(with: Data(posts[0].utf8)) as? [String: Any])
        let blocks = try #require(post["blocks"] as? [[String: Any]])
        let (section, linked) = Self.shown(blocks.dropFirst().first)
        #expect(section.utf16.count <= 3000 && linked)
        let lines = section.split(separator: "\n").map(String.init)
        let listed = lines.filter { $0.firstMatch(of: /^\d+\. Title s\d+/) != nil }.count
        #expect(listed >= 5 && listed < 40, "\(section)")
        // Each listed reminder with both its links, each whole: a link cut short still
        // looks like one and leads nowhere.
        let links = lines.filter { $0.contains("/a/") }
        #expect(links.count == 2 * listed, "\(section)")
        #expect(links.allSatisfy { $0.firstMatch(of: /: https?:\/\/[^ \/]+\/a\/[a-z0-9]{40,}\/[A-Za-z]+$/) != nil }, "\(links)")
        #expect(lines.last == "… and \(40 - listed) more reminders", "\(lines.suffix(3))")
    }

    @Test("a request fired again (scheduled anew under its identifier) replaces its notification in the digest, as in chime delivered: the digest holds the latest only")
    func replacedInDigest() throws {
        let ws = try ReplyCorpusTests.workspace(Self.configuration)
        try ws.write("old.json", "[" + Self.request("k", to: "alice", offset: 0, thread: "other", level: "passive") + "]")
        #expect(try ws.chime(["schedule", "--json", "old.json"], now: "2026-11-24T10:00:00Z").status == 0)
        #expect(try ws.chime(["run"], now: "2026-11-24T11:01:00Z").stdout.contains("1 kept for the digest"))
        try ws.write("new.json", "[" + Self.request("k", to: "alice", offset: 120, thread: "other", level: "passive")
                      .replacingOccurrences(of: "Title k", with: "Title new") + "]")
        #expect(try ws.chime(["schedule", "--json", "new.json"], now: "2026-11-24T11:01:10Z").status == 0)
        #expect(try ws.chime(["run"], now: "2026-11-24T11:02:30Z").stdout.contains("1 kept for the digest"))
        let dry = try ws.chime(["digest", "--dry-run"], now: "2026-11-25T06:00:00Z")
        #expect(dry.stdout.contains("1 notification"), "\(dry.stdout)")
        let digest = try ws.chime(["digest"], now: "2026-11-25T06:00:00Z")
        #expect(digest.stdout == "digest alice: 1 notification\nsent 1 digest\n", "\(digest.stdout) \(digest.stderr)")
        let next = try ws.chime(["digest", "--dry-run"], now: "2026-11-26T06:00:00Z").stdout
        #expect(!next.contains("notification"), "the replaced one went with the digest: \(next)")
    }

    @Test("a recipient whose only address is a file: feed, which takes no grouped message nor digest, has those notifications written at once, not kept for nothing")
    func feedOnlyRecipient() throws {
        let configuration = Self.configuration
            .replacingOccurrences(of: "</channels>", with: #"<channel id="feed" url="file:./feed.jsonl"/></channels>"#)
            .replacingOccurrences(of: "</recipients>", with: #"<recipient id="fred" timeZone="Europe/Paris" groupWait="2m" quietHours="22:00-07:00" quietHoursMode="digest"><address channel="feed"/></recipient></recipients>"#)
        let ws = try ReplyCorpusTests.workspace(configuration)
        let requests = [Self.request("t1", to: "fred", offset: 0), Self.request("t2", to: "fred", offset: 10),
                        Self.request("p1", to: "fred", offset: 20, thread: "other", level: "passive")]
        try ws.write("requests.json", "[" + requests.joined(separator: ",") + "]")
        #expect(try ws.chime(["schedule", "--json", "requests.json"], now: "2026-11-24T10:00:00Z").status == 0)
        let run = try ws.chime(["run"], now: "2026-11-24T11:01:00Z")
        #expect(run.stdout == "fired 3\n", "\(run.stdout) \(run.stderr)")
        let lines = try ws.read("feed.jsonl").split(separator: "\n")
        #expect(lines.count == 3, "each written as it fired: \(lines)")
    }
}
