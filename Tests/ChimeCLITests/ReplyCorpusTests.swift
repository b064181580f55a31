import ChimeTestSupport
import Foundation
import Testing

/// Email replies through the real `chime ingest`: a corpus of replies shaped as the common
/// clients write them, and the cases that must end with no action.
@Suite("Replies by email", .serialized)
struct ReplyCorpusTests {
    static let configuration = """
        <chime version="1">
          <categories>
            <category identifier="shoppingListReminderCategory" customDismissAction="true">
              <action identifier="justInform" title="OK, got it"/>
              <action identifier="editList" title="Edit list" foreground="true" authenticationRequired="true"/>
              <action identifier="trashAction" title="Delete list" destructive="true" authenticationRequired="true"/>
              <textInputAction identifier="addItem" title="Add item" textInputButtonTitle="Add" textInputPlaceholder="Milk, eggs…"/>
            </category>
            <category identifier="plain">
              <action identifier="seen" title="Seen"/>
            </category>
          </categories>
          <channels>
            <channel id="mail" url="maildir:./outbox" from="Chime &lt;bot@reply.example.org&gt;" replyTo="bot+{token}@reply.example.org"/>
          </channels>
          <recipients>
            <recipient id="alice" locale="en" timeZone="Europe/Paris"><address channel="mail">alice@example.org</address></recipient>
          </recipients>
        </chime>
        """

    /// A workspace with the configuration above and the project's templates beside it, as
    /// a user keeps them: action titles are understood in every locale they translate.
    static func workspace(_ configuration: String = configuration) throws -> Workspace {
        let ws = try Workspace(configuration: configuration)
        try FileManager.default.createSymbolicLink(atPath: ws.path("templates"),
                                                   withDestinationPath: ChimeProcess.repositoryRoot.appendingPathComponent("templates").path)
        return ws
    }

    /// What one sent reminder gives its replies to fill their placeholders.
    struct Sent {
        var deliveryID: String
        var token: String
        /// The List-Unsubscribe link's path (`/u/TOKEN`).
        var unsubscribe = ""
        var replyTo: String { "bot+\(token)@reply.example.org" }
        var messageID: String { "\(token)@reply.example.org" }
    }

    /// Schedules one reminder per identifier, fires them, and reads each email's token.
    /// - Parameter options: global options for every `chime` run (`--config`, `--store`).
    static func send(_ ws: Workspace, _ identifiers: [String], category: String = "shoppingListReminderCategory", recipient: String = "alice",
                     title: String = "Shopping", repeats: Bool = false, runMustSucceed: Bool = true, options: [String] = []) throws -> [String: Sent] {
        let json = identifiers.map {
            #"{"identifier": "\#($0)", "recipient": "\#(recipient)", "content": {"title": "\#(title)", "body": "Hey, you must go shopping, remember?", "categoryIdentifier": "\#(category)"}, "trigger": {"type": "timeInterval", "seconds": \#(repeats ? 3600 : 60), "repeats": \#(repeats)}}"#
        }
        try ws.write("requests.json", "[" + json.joined(separator: ",") + "]")
        #expect(try ws.chime(["schedule", "--json", "requests.json"] + options, now: "2026-11-21T09:00:00Z").status == 0)
        let new = ws.url.appendingPathComponent("outbox/new")
        let before = Set((try? FileManager.default.contentsOfDirectory(atPath: new.path)) ?? [])
        let run = try ws.chime(["run"] + options, now: repeats ? "2026-11-21T10:00:00Z" : "2026-11-21T09:02:00Z")
        #expect(!runMustSucceed || run.status == 0, "\(run.stderr)")
        var sent: [String: Sent] = [:]
        let identifiers = try delivered(ws, options: options)
        for name in try FileManager.default.contentsOfDirectory(atPath: new.path) where !before.contains(name) {
            let text = try String(contentsOf: new.appendingPathComponent(name), encoding: .utf8)
            let headers = text.replacingOccurrences(of: "\r\n", with: "\n").components(separatedBy: "\n\n")[0]
                .replacingOccurrences(of: "\n ", with: " ").replacingOccurrences(of: "\n\t", with: " ")
            func header(_ name: String) -> String {
                headers.split(separator: "\n").first { $0.hasPrefix(name + ": ") }.map { String($0.dropFirst(name.count + 2)) } ?? ""
            }
            let messageID = header("Message-ID").trimmingCharacters(in: CharacterSet(charactersIn: "<>"))
            let token = String(messageID.prefix { $0 != "@" })
            #expect(header("Reply-To").contains("bot+\(token)@reply.example.org"), "the reply address carries the Message-ID's token")
            let delivery = header("X-Chime-Delivery")
            let identifier = identifiers[delivery] ?? ""
            let unsubscribe = header("List-Unsubscribe").firstMatch(of: /<https?:\/\/[^\/>]+(\/u\/[^>]+)>/).map { String($0.output.1) } ?? ""
            sent[identifier] = Sent(deliveryID: delivery, token: token, unsubscribe: unsubscribe)
        }
        return sent
    }

    /// Delivered notifications: delivery id → request identifier.
    static func delivered(_ ws: Workspace, options: [String] = []) throws -> [String: String] {
        let list = try JSONSerialization.jsonObject(with: Data(try ws.chime(["delivered", "--json"] + options).stdout.utf8)) as! [[String: Any]]
        return Dictionary(uniqueKeysWithValues: list.map { ($0["deliveryID"] as! String, $0["identifier"] as! String) })
    }

    static func fill(_ template: String, _ sent: Sent, from: String = "alice@example.org") -> String {
        template.replacingOccurrences(of: "{{from}}", with: from).replacingOccurrences(of: "{{to}}", with: sent.replyTo)
            .replacingOccurrences(of: "{{plainTo}}", with: "bot@reply.example.org").replacingOccurrences(of: "{{messageID}}", with: sent.messageID)
    }

    static func json(_ ws: Workspace, _ command: String) throws -> [[String: Any]] {
        try JSONSerialization.jsonObject(with: Data(try ws.chime([command, "--json"]).stdout.utf8)) as! [[String: Any]]
    }

    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/replies")

    @Test("a corpus of replies from Gmail, Outlook, Apple Mail, iPhone, Android, Thunderbird and Yahoo maps to the right action and text")
    func corpus() throws {
        let expected = try JSONSerialization.jsonObject(with: Data(contentsOf: Self.fixtures.appendingPathComponent("expected.json"))) as! [[String: Any]]
        #expect(expected.count >= 60)
        let ws = try Self.workspace()
        let names = expected.map { $0["file"] as! String }
        let sent = try Self.send(ws, names)
        let folder = ws.url.appendingPathComponent("replies/new")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for name in names {
            // Placeholders sit in headers only; the bodies' bytes are kept as they are.
            var bytes = [UInt8](try Data(contentsOf: Self.fixtures.appendingPathComponent(name)))
            let split = Self.headerEnd(bytes)
            let head = Self.fill(String(decoding: bytes[..<split], as: UTF8.self), sent[name]!)
            bytes = Array(head.utf8) + bytes[split...]
            try Data(bytes).write(to: folder.appendingPathComponent(name))
        }
        let ingest = try ws.chime(["ingest", "--maildir", "replies"], now: "2026-11-21T10:00:00Z")
        #expect(ingest.status == 0, "\(ingest.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty, "every message moved to cur/")
        let responses = Dictionary(uniqueKeysWithValues: try Self.json(ws, "responses").map { ($0["deliveryID"] as! String, $0) })
        let inbound = Dictionary(try Self.json(ws, "replies").map { ($0["deliveryID"] as? String ?? "", $0) }) { first, _ in first }
        var wrong: [String] = []
        for entry in expected {
            let name = entry["file"] as! String
            let delivery = sent[name]!.deliveryID
            let response = responses[delivery]
            let action = entry["action"] as? String, text = entry["userText"] as? String
            let got = (response?["actionIdentifier"] as? String, response?["userText"] as? String)
            if got.0 != action || got.1 != text {
                wrong.append("\(name): expected \(action ?? "nothing") \(text.map { "\"\($0)\"" } ?? ""), got \(got.0 ?? "nothing") \(got.1.map { "\"\($0)\"" } ?? "") [\(inbound[delivery]?["outcome"] ?? "-"): \(inbound[delivery]?["detail"] ?? "")]")
            }
            if action == nil {
                #expect(inbound[delivery]?["outcome"] as? String == "unmatched", "\(name): an empty reply is recorded as unmatched")
            }
        }
        #expect(wrong.isEmpty, "\(wrong.count) of \(expected.count) wrong:\n\(wrong.joined(separator: "\n"))")
        print("reply corpus: \(expected.count - wrong.count) of \(expected.count) right")
    }

    /// Every message of ChimeReplyTests' corpus (replies as each client writes them, in 30
    /// languages, with the text their writer typed beside each), sent through the real
    /// `chime ingest` (one Maildir, one run): the text is recorded as the text-input
    /// action's, exactly. Prints the accuracy per client and per language.
    @Test("the whole multilingual reply corpus through chime ingest records each writer's text exactly")
    func multilingualCorpus() throws {
        let corpus = ChimeProcess.repositoryRoot.appendingPathComponent("Tests/ChimeReplyTests/Fixtures/replies")
        let names = try FileManager.default.contentsOfDirectory(atPath: corpus.path).filter { $0.hasSuffix(".eml") }.sorted()
        #expect(names.count >= 300)
        let ws = try Self.workspace()
        let sent = try Self.send(ws, names)
        let folder = ws.url.appendingPathComponent("replies/new")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for name in names {
            // The corpus answers one token; its headers are made to answer this run's.
            var bytes = [UInt8](try Data(contentsOf: corpus.appendingPathComponent(name)))
            let split = Self.headerEnd(bytes)
            let head = String(decoding: bytes[..<split], as: UTF8.self)
                .replacingOccurrences(of: "bot+k7q2xw3mh4ta6s2d@reply.example.org", with: sent[name]!.replyTo)
                .replacingOccurrences(of: "k7q2xw3mh4ta6s2d@reply.example.org", with: sent[name]!.messageID)
                .replacingOccurrences(of: "person@example.org", with: "alice@example.org")
            bytes = Array(head.utf8) + bytes[split...]
            try Data(bytes).write(to: folder.appendingPathComponent(name))
        }
        let ingest = try ws.chime(["ingest", "--maildir", "replies"], now: "2026-11-21T10:00:00Z")
        #expect(ingest.status == 0, "\(ingest.stderr)")
        let responses = Dictionary(uniqueKeysWithValues: try Self.json(ws, "responses").map { ($0["deliveryID"] as! String, $0) })
        var wrong: [String] = []
        for name in names {
            let expected = try String(contentsOf: corpus.appendingPathComponent(String(name.dropLast(4)) + ".txt"), encoding: .utf8)
                .trimmingCharacters(in: .whitespacesAndNewlines)
            let response = responses[sent[name]!.deliveryID]
            let got = (response?["actionIdentifier"] as? String, response?["userText"] as? String)
            if expected.isEmpty ? response != nil : (got.0 != "addItem" || got.1 != expected) {
                wrong.append("\(name): expected \(expected.debugDescription), got \(got.0 ?? "nothing") \((got.1 ?? "").debugDescription)")
            }
        }
        #expect(wrong.isEmpty, "\(wrong.count) of \(names.count) wrong:\n\(wrong.joined(separator: "\n"))")
        print("multilingual reply corpus through chime ingest: \(names.count - wrong.count) of \(names.count) right")
        // CLIENT-LANGUAGE-N.eml: right of all, by client and by language.
        let failed = Set(wrong.map { String($0.prefix { $0 != ":" }) })
        for (label, part) in [("client", { (name: String) in String(name.prefix { $0 != "-" }) }),
                              ("language", { (name: String) in name.split(separator: "-").dropFirst().dropLast().joined(separator: "-") })] {
            let groups = Dictionary(grouping: names, by: part)
            print("by \(label): " + groups.keys.sorted().map { key in
                "\(key) \(groups[key]!.filter { !failed.contains($0) }.count)/\(groups[key]!.count)"
            }.joined(separator: ", "))
        }
    }

    /// Where a message's header ends (after the first blank line).
    static func headerEnd(_ bytes: [UInt8]) -> Int {
        for index in bytes.indices.dropLast(1) {
            if bytes[index] == 0x0A && bytes[index + 1] == 0x0A { return index + 2 }
            if index + 3 < bytes.count && bytes[index...index + 3].elementsEqual([0x0D, 0x0A, 0x0D, 0x0A]) { return index + 4 }
        }
        return bytes.count
    }
}

extension ReplyCorpusTests {
    /// A plain reply to `sent`, with `headers` added and `body` as its text.
    static func reply(_ sent: Sent, from: String = "alice@example.org", to: String? = nil, subject: String = "Re: Shopping",
                      headers: [String] = [], body: String) -> String {
        ([
            "From: Alice <\(from)>", "To: \(to ?? sent.replyTo)", "Subject: \(subject)", "Message-ID: <\(UUID().uuidString)@example.org>",
            "In-Reply-To: <\(sent.messageID)>", "Date: Sat, 21 Nov 2026 10:00:00 +0100", "MIME-Version: 1.0",
            "Content-Type: text/plain; charset=utf-8",
        ] + headers).joined(separator: "\r\n") + "\r\n\r\n" + body.replacingOccurrences(of: "\n", with: "\r\n")
    }

    /// A delivery status notification (RFC 3464) saying alice@example.org failed for good,
    /// sent to `to`, with the returned message's headers when `returnedMessageID` is given.
    static func deliveryReport(to: String, returnedMessageID: String? = nil) -> String {
        var parts = [
            "From: Mail Delivery System <MAILER-DAEMON@mx.example.org>", "To: \(to)", "Subject: Undelivered Mail Returned to Sender",
            "Message-ID: <bounce-\(UUID().uuidString)@mx.example.org>", "MIME-Version: 1.0",
            #"Content-Type: multipart/report; report-type=delivery-status; boundary="b1""#, "",
            "--b1", "Content-Type: text/plain", "", "I'm sorry to have to inform you that your message could not be delivered.",
            "--b1", "Content-Type: message/delivery-status", "", "Reporting-MTA: dns; mx.example.org", "",
            "Final-Recipient: rfc822; alice@example.org", "Action: failed", "Status: 5.1.1", "",
        ]
        if let returnedMessageID {
            parts += ["--b1", "Content-Type: text/rfc822-headers", "", "Message-ID: <\(returnedMessageID)>", "Subject: Shopping", ""]
        }
        return (parts + ["--b1--", ""]).joined(separator: "\r\n")
    }

    /// Pipes a message to `chime ingest` as an MTA would; returns what it printed.
    static func ingest(_ ws: Workspace, _ message: String, now: String = "2026-11-21T10:00:00Z") throws -> ChimeProcess.Result {
        try ws.write("incoming.eml", message)
        return try ws.chime(["ingest"], now: now, input: "incoming.eml")
    }

    @Test("forged sender, forged token, expired token, replay, auto-reply, German out-of-office, a DSN bounce, and dismiss without customDismissAction: no action, and the right record")
    func refusals() throws {
        let ws = try Self.workspace()
        let sent = try Self.send(ws, ["a", "b"])
        let other = try Self.send(ws, ["p"], category: "plain")["p"]!
        let a = sent["a"]!, b = sent["b"]!
        func check(_ message: String, _ outcome: String, now: String = "2026-11-21T10:00:00Z", _ comment: Comment) throws {
            let result = try Self.ingest(ws, message, now: now)
            #expect(result.status == 0, "an MTA pipe never bounces these: \(result.stderr)")
            #expect(result.stdout.hasPrefix("stdin: \(outcome)"), comment)
        }
        // The good reply first: recorded once.
        try check(Self.reply(a, body: "1\n\nOn Sat, Nov 21, 2026 Chime wrote:\n> Reply 1 for OK, got it"), "responded: justInform", "a good reply acts")
        try check(Self.reply(a, body: "1"), "replayed: justInform", "the same answer again is not carried out again")
        try check(Self.reply(b, from: "mallory@example.org", body: "3"), "forged-sender", "someone else using Alice's reply address")
        var forged = Array(b.token)
        forged[10] = forged[10] == "a" ? "b" : "a"
        let forgedToken = Sent(deliveryID: b.deliveryID, token: String(forged))
        try check(Self.reply(forgedToken, body: "3").replacingOccurrences(of: "In-Reply-To: <\(forgedToken.messageID)>", with: "In-Reply-To: <x@y>"),
                  "forged-token", "a token with one character changed")
        try check(Self.reply(b, body: "3"), "expired-token", now: "2026-12-30T10:00:00Z", "a token past its 30 days")
        try check(Self.reply(b, headers: ["Auto-Submitted: auto-replied"], body: "I am away until Monday."), "auto-reply", "RFC 3834")
        try check(Self.reply(b, subject: "Abwesenheitsnotiz: Shopping", body: "Ich bin bis 30.11. nicht im Büro."), "auto-reply",
                  "a German out-of-office by its subject alone")
        let bounce = Self.deliveryReport(to: b.replyTo)
        try check(bounce, "bounce: alice@example.org", "a DSN names the failed address")
        try check(Self.reply(other, body: "dismiss"), "unmatched", "dismiss is no action without customDismissAction")
        try check(Self.reply(b, body: "dismiss"), "responded: com.apple.UNNotificationDismissActionIdentifier", "with it, dismiss is the dismiss action")
        let responses = try Self.json(ws, "responses")
        #expect(responses.count == 2, "only the good reply and the dismiss: \(responses)")
        let outcomes = try Self.json(ws, "replies").map { $0["outcome"] as! String }
        #expect(outcomes == ["responded", "replayed", "forged-sender", "forged-token", "expired-token", "auto-reply", "auto-reply", "bounce", "unmatched", "responded"])
    }

    @Test("a forward sent to Chime (Fwd:, FW:, WG:, TR:, RV:, 転送:) acts on nothing, whatever is written above the reminder; a reply to it (Re: Fwd:) and a reminder titled \"Fwd: …\" answered as it stands still act")
    func forwards() throws {
        let ws = try Self.workspace()
        let sent = try Self.send(ws, ["a", "b", "c", "d", "e", "f", "g"])
        let titled = try Self.send(ws, ["h"], title: "Fwd: the invoice")["h"]!
        let forwarded = "\n\n---------- Forwarded message ---------\nFrom: Chime <chime@example.org>\nSubject: Shopping\n\nReply 1 for OK, got it"
        for (id, subject, body) in [("a", "Fwd: Shopping", "1"), ("b", "FW: Shopping", "done"), ("c", "WG: Shopping", "Erledigt"),
                                    ("d", "TR : Shopping", "1"), ("e", "RV: Shopping", "1"), ("f", "転送: Shopping", "1")] {
            let result = try Self.ingest(ws, Self.reply(sent[id]!, subject: subject, body: body + forwarded))
            #expect(result.stdout.hasPrefix("stdin: unmatched"), "\(subject): \(result.stdout)")
        }
        let reply = try Self.ingest(ws, Self.reply(sent["g"]!, subject: "Re: Fwd: Shopping", body: "1"))
        #expect(reply.stdout.hasPrefix("stdin: responded: justInform"), "\(reply.stdout)")
        let asTitled = try Self.ingest(ws, Self.reply(titled, subject: "Fwd: the invoice", body: "1"))
        #expect(asTitled.stdout.hasPrefix("stdin: responded: justInform"), "\(asTitled.stdout)")
        #expect(try Self.json(ws, "responses").count == 2)
        let details = try Self.json(ws, "replies").compactMap { $0["detail"] as? String }
        #expect(details.contains("a forwarded message (Fwd:), not a reply"), "\(details)")
    }

    @Test("a text-input action named without its text (\"4\", \"Add item\") (or with thanks alone) is not carried out: the reply is answered with how to add the text, in the person's language, as the email says it; \"4 milk\" is carried out")
    func textInputWithoutText() throws {
        let ws = try Self.workspace()
        let sent = try Self.send(ws, ["a", "b", "c"])
        let before = try CarryingOutTests.outbox(ws)
        let number = try Self.ingest(ws, Self.reply(sent["a"]!, body: "4"))
        #expect(number.stdout.hasPrefix("stdin: unmatched") && number.stdout.contains("no text for addItem"), "\(number.stdout)")
        let answers = try CarryingOutTests.newMail(ws, since: before)
        #expect(answers.count == 1 && CarryingOutTests.body(answers[0]).hasPrefix("Reply 4 followed by your text for Add item (Milk, eggs…)"), "\(answers.map(CarryingOutTests.body))")
        // The title alone too (answered no more than once an hour, as any reply acting on nothing).
        let title = try Self.ingest(ws, Self.reply(sent["b"]!, body: "Add item"))
        #expect(title.stdout.hasPrefix("stdin: unmatched") && title.stdout.contains("no text for addItem"), "\(title.stdout)")
        for thanks in ["4 thanks", "4お願いします"] {
            let result = try Self.ingest(ws, Self.reply(sent["b"]!, body: thanks))
            #expect(result.stdout.hasPrefix("stdin: unmatched") && result.stdout.contains("no text for addItem"), "\(thanks): \(result.stdout)")
        }
        #expect(try Self.json(ws, "responses").isEmpty, "nothing carried out without the text")
        let milk = try Self.ingest(ws, Self.reply(sent["c"]!, body: "4 milk"))
        #expect(milk.stdout.hasPrefix("stdin: responded: addItem"), "\(milk.stdout)")
        // A word that is only part of a thanks is an item: "té" (tea) as in "s'il te plaît".
        let tea = try Self.ingest(ws, Self.reply(try Self.send(ws, ["d"])["d"]!, body: "4 té"))
        #expect(tea.stdout.hasPrefix("stdin: responded: addItem"), "\(tea.stdout)")
        // A number's point without its zero is part of the text.
        let flour = try Self.ingest(ws, Self.reply(try Self.send(ws, ["e"])["e"]!, body: "4 .5 kg flour"))
        #expect(flour.stdout.hasPrefix("stdin: responded: addItem"), "\(flour.stdout)")
        #expect(try Self.json(ws, "responses").compactMap { $0["userText"] as? String }.sorted() == [".5 kg flour", "milk", "té"])
    }

    @Test("a person's answer to a reminder whose title says \"Out of Office\" acts; an out-of-office answering it does not")
    func outOfOfficeTitle() throws {
        let ws = try Self.workspace()
        let sent = try Self.send(ws, ["o", "p"], title: "Set your Out of Office")
        let person = try Self.ingest(ws, Self.reply(sent["o"]!, subject: "Re: Set your Out of Office", body: "1"))
        #expect(person.stdout.hasPrefix("stdin: responded: justInform"), "\(person.stdout)")
        let away = try Self.ingest(ws, Self.reply(sent["p"]!, subject: "Automatic reply: Set your Out of Office", body: "I am away."))
        #expect(away.stdout.hasPrefix("stdin: auto-reply"), "\(away.stdout)")
        #expect(try Self.json(ws, "responses").count == 1)
    }

    @Test("an action needing proof is recorded as awaiting confirmation; the reply keyword may be the title in another language")
    func guardedAction() throws {
        let ws = try Self.workspace()
        let sent = try Self.send(ws, ["a"])["a"]!
        let result = try Self.ingest(ws, Self.reply(sent, body: "Supprimer la liste\n\nEnvoyé de mon iPhone"))
        let confirm = try #require(result.stdout.wholeMatch(of: /stdin: responded: trashAction \(awaiting confirmation\) — answered: Please confirm “Delete list” here: https:\/\/chime\.invalid\/a\/([a-z2-7]{56,})\/trashAction\n/), "\(result.stdout)")
        #expect(String(confirm.output.1) != sent.token, "the confirmation link has a token of its own")
        let response = try Self.json(ws, "responses").first
        #expect(response?["status"] as? String == "awaiting confirmation")
        #expect(response?["responder"] as? String == "alice@example.org")
        #expect(response?["channel"] as? String == "mail")
        #expect(response?["identifier"] as? String == "a")
    }

    @Test("strings that cannot be read keep a reply for later (75, which an MTA retries), said at their file, line and column, as chime check says them, with a template that is not UTF-8; mended, the reply is read")
    func unreadableStrings() throws {
        let ws = try Workspace(configuration: Self.configuration)
        try FileManager.default.createDirectory(atPath: ws.path("templates/it"), withIntermediateDirectories: true)
        let sent = try Self.send(ws, ["a"])["a"]!
        try ws.write("templates/it/Localizable.strings", #""Hello" = "Ciao""#)
        let reply = Self.reply(sent, body: "OK, got it")
        let kept = try Self.ingest(ws, reply)
        #expect(kept.status == 75)
        #expect(kept.stderr.contains("templates/it/Localizable.strings:1:17: error: expected \";\""), "\(kept.stderr)")
        #expect(kept.stdout.isEmpty)
        #expect(try ws.chime(["check"]).status == 65)

        try ws.write("templates/it/Localizable.strings", #""Hello" = "Ciao";"#)
        try FileManager.default.createDirectory(atPath: ws.path("templates/mustache"), withIntermediateDirectories: true)
        try Data(Array("Titre\n\nR".utf8) + [0xE9] + Array("sum\u{E9}: {{title}}\n".utf8)).write(to: URL(fileURLWithPath: ws.path("templates/mustache/email.text.mustache")))
        let check = try ws.chime(["check"])
        #expect(check.status == 65)
        #expect(check.stderr.contains("templates/mustache/email.text.mustache:3:2: error: not UTF-8 text here"), "\(check.stderr)")
        try FileManager.default.removeItem(atPath: ws.path("templates/mustache"))

        let read = try Self.ingest(ws, reply)
        #expect(read.status == 0)
        #expect(read.stdout.hasPrefix("stdin: responded: justInform"), "\(read.stdout)")
    }
}
