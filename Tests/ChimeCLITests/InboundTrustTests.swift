import ChimeTestSupport
import Foundation
import Testing

/// What an attacker must not get from replies, bounces and receipts, through the real
/// `chime ingest`, `run`, `check` and `recipients`: no stall, no injected header, no
/// silenced recipient, no proof from a forged header, no secret; with a genuine reply
/// and a genuine bounce beside each as the positive control.
@Suite("Inbound trust", .serialized)
struct InboundTrustTests {
    static func configuration(smtpPort: Int = 9, extra: String = "") -> String {
        """
        <chime version="1">
          <categories>
            <category identifier="shop">
              <action identifier="justInform" title="OK, got it"/>
              <action identifier="archive" title="Archive" authenticationRequired="true">
                <hook command="env > hook-env.txt; echo archived >> hook-ran.txt" env="CHIME_TEST_PASSED"/>
              </action>
              <textInputAction identifier="note" title="Add a note" textInputPlaceholder="Why?">
                <hook command="sleep 30" timeout="1s"/>
              </textInputAction>
            </category>
          </categories>
          <channels>
            <channel id="mail" url="maildir:./outbox" from="Chime &lt;bot@reply.example.org&gt;" replyTo="bot+{token}@reply.example.org"/>
            <channel id="smtp" url="smtp://127.0.0.1:\(smtpPort)" from="Chime &lt;bot@reply.example.org&gt;" replyTo="bot+{token}@reply.example.org"/>
          </channels>
          <replies trustedAuthServID="mx.example.org" linkBase="https://chime.example.org" \(extra)/>
          <recipients>
            <recipient id="alice" locale="en" timeZone="Europe/Paris"><address channel="mail">alice@example.org</address></recipient>
            <recipient id="bob" locale="en" timeZone="Europe/Paris"><address channel="smtp">bob@example.org</address></recipient>
            <recipient id="carol" locale="en" timeZone="Europe/Paris"><address channel="smtp">carol@example.org</address></recipient>
          </recipients>
        </chime>
        """
    }

    static func workspace(smtpPort: Int = 9, extra: String = "") throws -> (Workspace, ReplyCorpusTests.Sent) {
        let ws = try ReplyCorpusTests.workspace(configuration(smtpPort: smtpPort, extra: extra))
        let sent = try ReplyCorpusTests.send(ws, ["a"], category: "shop")["a"]!
        return (ws, sent)
    }

    static func ingest(_ ws: Workspace, _ message: String) throws -> String {
        let result = try ReplyCorpusTests.ingest(ws, message)
        #expect(result.status == 0, "an MTA pipe is told the message was taken: \(result.stderr)")
        #expect(!result.timedOut)
        return result.stdout
    }

    @Test("adversarial inbound shapes are read to the end and get their plain outcome: a 100,000-letter To:, 50,000 unclosed brackets, 1 MB of blank lines, 100,000 empty paragraphs, a long line ending like a quote header")
    func adversarialShapes() throws {
        let (ws, sent) = try Self.workspace()
        let letters = String(repeating: "a", count: 100_000)
        let noToken = ["From: x@evil.test", "To: \(letters)", "Cc: a+\(letters)", "References: " + String(repeating: "<", count: 50_000),
                       "Subject: hi", "", "hello"].joined(separator: "\r\n")
        #expect(try Self.ingest(ws, noToken).hasPrefix("stdin: no-token"))
        let blank = ReplyCorpusTests.reply(sent, body: "OK, got it" + String(repeating: "\n", count: 1_000_000))
        #expect(try Self.ingest(ws, blank).hasPrefix("stdin: responded: justInform"))
        let html = ReplyCorpusTests.reply(sent, headers: [], body: "")
            .replacingOccurrences(of: "Content-Type: text/plain; charset=utf-8", with: "Content-Type: text/html; charset=utf-8")
            + String(repeating: "&nbsp;<p></p>", count: 100_000)
        #expect(try Self.ingest(ws, html).hasPrefix("stdin: unmatched: (empty reply)"))
        let cjk = ReplyCorpusTests.reply(sent, body: "note " + String(repeating: "あ", count: 300_000) + "のメッセージ:")
        let printed = try Self.ingest(ws, cjk)
        // Read to its end, and too large for a response (at most 4 KB of text).
        #expect(printed.hasPrefix("stdin: too-large: a text of 900019 bytes for note"), "\(printed.prefix(200))")
        // 20,000 token-shaped addresses, each a store lookup before its signature fails:
        // only the first few are looked at; the genuine token, where it was delivered,
        // still answers, and a message of forged ones alone is refused as forged.
        let alphabet = Array("abcdefghijklmnopqrstuvwxyz234567")
        // The last symbol kept: its bits past the last byte are zero in a token as
        // written, and a token spelled otherwise is no token at all.
        let stem = String(sent.token.dropLast(9)), last = sent.token.suffix(1)
        var addresses: [String] = []
        for n in 0..<20_000 {
            var tail = ""
            for place in 0..<8 { tail.append(alphabet[((n >> (place * 2)) & 31) ^ place]) }
            addresses.append("bot+\(stem)\(tail)\(last)@reply.example.org")
        }
        let forged = addresses.joined(separator: ", ")
        let flooded = ReplyCorpusTests.reply(sent, headers: ["Cc: " + forged], body: "OK, got it")
        // Its token found and checked (the same answer as before: a replay, not a refusal).
        let answered = try Self.ingest(ws, flooded)
        #expect(answered.hasPrefix("stdin: replayed"), "\(answered.prefix(200))")
        let onlyForged = ReplyCorpusTests.reply(sent, to: forged, body: "OK, got it").replacingOccurrences(of: "In-Reply-To: <\(sent.messageID)>\r\n", with: "")
        let refused = try Self.ingest(ws, onlyForged)
        #expect(refused.hasPrefix("stdin: forged-token"), "\(refused.prefix(200))")
    }

    @Test("a reply's own ids are msg-ids or nothing: an encoded word in its Message-ID is kept as written, never decoded into a header of the answer; a broken id is dropped")
    func noHeaderInjection() throws {
        let (ws, sent) = try Self.workspace()
        let before = try CarryingOutTests.outbox(ws)
        let evil = "<a=?us-ascii?q?=0AX-Injected=3A_yes=0AContent-Type=3A_text/html?=@x>"
        let reply = ReplyCorpusTests.reply(sent, body: "1")
            .replacingOccurrences(of: "Message-ID: <", with: "Message-ID: \(evil)\r\nX-Was: <")
            .replacingOccurrences(of: "In-Reply-To: <\(sent.messageID)>",
                                  with: "In-Reply-To: <\(sent.messageID)>\r\nReferences: <broken id@x> <=?utf-8?q?a=0D=0Ab?=@x> <\(sent.messageID)>")
        #expect(try Self.ingest(ws, reply).contains("responded: justInform"))
        let answer = try #require(try CarryingOutTests.newMail(ws, since: before).first)
        let head = answer.components(separatedBy: "\n\n")[0]
        let names = head.split(separator: "\n").filter { !$0.hasPrefix(" ") && !$0.hasPrefix("\t") }.map { $0.prefix { $0 != ":" }.lowercased() }
        #expect(!names.contains("x-injected"), "\(head)")
        #expect(names.filter { $0 == "content-type" }.count == 1, "one Content-Type, Chime's: \(head)")
        #expect(CarryingOutTests.header(answer, "In-Reply-To") == evil, "the id as it was written, a msg-id by its syntax")
        #expect(CarryingOutTests.header(answer, "References") == "<=?utf-8?q?a=0D=0Ab?=@x> <\(sent.messageID)> \(evil)",
                "the broken id dropped, the others as written: \(head)")
    }

    @Test("the sender is the one mailbox of From: a comment or a second bracket naming the recipient is no proof of being them")
    func senderByTheBook() throws {
        let (ws, sent) = try Self.workspace()
        for from in ["bob@evil.test (<alice@example.org>)", "<bob@evil.test> <alice@example.org>", "alice@example.org, bob@evil.test",
                     "\"alice@example.org\" <bob@evil.test>", "=?utf-8?q?alice=40example=2Eorg?= <bob@evil.test>",
                     // An @ in the phrase, two in the address: no mailbox, however a parser reads on.
                     "bob@evil.test <alice@example.org>", "alice@example.org@evil.test", "<alice@example.org@evil.test>"] {
            let reply = ReplyCorpusTests.reply(sent, body: "1").replacingOccurrences(of: "From: Alice <alice@example.org>", with: "From: \(from)")
            #expect(try Self.ingest(ws, reply).hasPrefix("stdin: forged-sender"), "\(from)")
        }
        #expect(try ReplyCorpusTests.json(ws, "responses").isEmpty)
        let genuine = ReplyCorpusTests.reply(sent, body: "1").replacingOccurrences(of: "From: Alice <alice@example.org>", with: "From: \"Alice (home)\" <Alice@Example.org>")
        #expect(try Self.ingest(ws, genuine).hasPrefix("stdin: responded: justInform"))
        // An @ in a quoted name or a comment is theirs to write.
        for from in ["\"Alice @ home\" <alice@example.org>", "alice@example.org (Alice @ home)", "alice@example.org <Alice@example.org>",
                     "'alice@example.org' <alice@example.org>", "alice@example.org <alice@example.org> (Alice)", "\"Alice\" <@relay.example.net:alice@example.org>"] {
            let reply = ReplyCorpusTests.reply(sent, body: "2").replacingOccurrences(of: "From: Alice <alice@example.org>", with: "From: \(from)")
            #expect(try !Self.ingest(ws, reply).hasPrefix("stdin: forged-sender"), "\(from)")
        }
    }

    @Test("Authentication-Results by RFC 8601: only a trusted server's, with dmarc aligned by header.from or dkim by header.d, proves the sender; quoted tricks, other servers and unaligned passes do not")
    func proofByTheBook() throws {
        let cases: [(String, Bool)] = [
            (#"mx.example.org; spf=pass smtp.mailfrom="a;dmarc=pass x"@evil.test"#, false),
            ("mx.example.org; dmarc=pass", false),
            ("mx.example.org; dmarc=pass header.from=evil.test", false),
            ("mx.example.org; dkim=pass header.d=evil.test header.i=@example.org", false),
            ("evil.test; dmarc=pass header.from=example.org", false),
            ("mx.example.org (dmarc=pass header.from=example.org); dmarc=fail header.from=example.org", false),
            ("mx.example.org 1; spf=pass smtp.mailfrom=example.org; dmarc=pass (p=reject dis=none) header.from=example.org", true),
            ("MX.Example.ORG; dkim=pass (2048-bit key) header.d=example.org header.s=mail", true),
        ]
        for (header, proves) in cases {
            let (ws, sent) = try Self.workspace()
            let printed = try Self.ingest(ws, ReplyCorpusTests.reply(sent, headers: ["Authentication-Results: \(header)"], body: "Archive"))
            #expect(printed.contains(proves ? "responded: archive (carried out)" : "responded: archive (awaiting confirmation)"), "\(header): \(printed)")
            #expect(FileManager.default.fileExists(atPath: ws.path("hook-ran.txt")) == proves, "\(header)")
        }
    }

    @Test("bounces: only a report that came back to the VERP return path of a message sent to that very address marks it undeliverable (Postfix's, with Auto-Submitted, and Exim's); chime recipients lists it, a genuine reply or --clear lifts it")
    func verpBounces() throws {
        let smtp = try SMTPServer()
        let ws = try ReplyCorpusTests.workspace(Self.configuration(smtpPort: smtp.port))
        try ws.write("r.json", #"[{"identifier": "b1", "recipient": "bob", "content": {"title": "Shopping", "categoryIdentifier": "shop"}, "trigger": {"type": "timeInterval", "seconds": 60}}, {"identifier": "c1", "recipient": "carol", "content": {"title": "Shopping", "categoryIdentifier": "shop"}, "trigger": {"type": "timeInterval", "seconds": 60}}]"#)
        #expect(try ws.chime(["schedule", "--json", "r.json"], now: "2026-11-21T09:00:00Z").status == 0)
        let run = try ws.chime(["run"], now: "2026-11-21T09:02:00Z")
        #expect(run.stdout.contains("delivered 2"), "\(run.stdout) \(run.stderr)")
        let senders = Dictionary(uniqueKeysWithValues: try smtp.messages().map { (($0["to"] as? [String])?.first ?? "", $0["from"] as? String ?? "") })
        let bobPath = try #require(senders["bob@example.org"]), carolPath = try #require(senders["carol@example.org"])
        #expect(bobPath.hasPrefix("bounce+") && bobPath.hasSuffix("@reply.example.org") && bobPath != carolPath, "\(senders)")

        // Forged: a report naming bob, but sent to carol's return path (a token of ours, for another address).
        #expect(try Self.ingest(ws, Self.postfixBounce(to: carolPath, failed: "bob@example.org")).contains("bob@example.org (no return-path token issued for it: ignored)"))
        // Forged: naming bob, to the plain address, with a reply token of ours quoted.
        #expect(try Self.ingest(ws, Self.postfixBounce(to: "bot@reply.example.org", failed: "bob@example.org")).contains("ignored"))
        #expect(try ws.chime(["recipients"]).stdout.contains("undeliverable") == false)
        // A read receipt is machine mail: nothing recorded as a response.
        #expect(try Self.ingest(ws, Self.readReceipt(to: "bot@reply.example.org")).hasPrefix("stdin: receipt"))

        // Genuine: Postfix's report (Auto-Submitted: auto-replied) to bob's own return path,
        // naming 30 addresses never configured too: they are listed, ten of them.
        let madeUp = (0..<30).map { "Final-Recipient: rfc822; u\($0)@example.net\r\nAction: failed\r\nStatus: 5.1.1\r\n\r\n" }.joined()
        let genuine = Self.postfixBounce(to: bobPath, failed: "bob@example.org")
            .replacingOccurrences(of: "Final-Recipient: rfc822; bob@example.org", with: madeUp + "Final-Recipient: rfc822; bob@example.org")
        let marked = try Self.ingest(ws, genuine)
        #expect(marked.hasPrefix("stdin: bounce: bob@example.org marked undeliverable; "
            + (0..<10).map { "u\($0)@example.net" }.joined(separator: ", ") + " and 20 more (no return-path token issued for it: ignored)"), "\(marked)")
        // And Exim's plain report to carol's, naming her in X-Failed-Recipients.
        #expect(try Self.ingest(ws, Self.eximBounce(to: carolPath, failed: "carol@example.org")).hasPrefix("stdin: bounce: carol@example.org marked undeliverable"))
        // Gmail's, to carol's path again (its human part a multipart of its own).
        #expect(try Self.ingest(ws, Self.gmailBounce(to: carolPath, failed: "carol@example.org")).hasPrefix("stdin: bounce: carol@example.org marked undeliverable"))
        let listed = try ws.chime(["recipients"]).stdout
        #expect(listed.contains("bob  smtp  bob@example.org  undeliverable since 2026-11-21T10:00:00Z (hard bounce)"), "\(listed)")
        // As JSON, every address says undeliverable: null when it is not marked.
        let lines = try #require(try JSONSerialization.jsonObject(with: Data(ws.chime(["recipients", "--json"]).stdout.utf8)) as? [[String: Any]])
        #expect(lines.allSatisfy { $0.keys.contains("undeliverable") }, "\(lines)")
        #expect(lines.contains { $0["address"] as? String == "bob@example.org" && $0["undeliverable"] is [String: Any] })
        #expect(lines.contains { $0["undeliverable"] is NSNull })
        // Nothing more goes to bob while he is marked: his next reminder is held, not lost.
        try ws.write("n.json", #"{"identifier": "b2", "recipient": "bob", "content": {"title": "Next"}, "trigger": {"type": "timeInterval", "seconds": 60}}"#)
        #expect(try ws.chime(["schedule", "--json", "n.json"], now: "2026-11-21T10:00:00Z").status == 0)
        let held = try ws.chime(["run"], now: "2026-11-21T10:02:00Z")
        #expect(held.stderr.contains("every address of recipient \"bob\" is undeliverable"), "\(held.stdout) \(held.stderr)")
        #expect(try ws.chime(["recipients", "--clear", "carol@example.org"]).stdout == "cleared carol@example.org: mail goes to it again\n")
        #expect(try ws.chime(["recipients", "--clear", "carol@example.org"]).status == 65, "not marked any more")

        // bob's genuine reply to his reminder lifts his mark.
        // bob's own message: SMTP channels send several at once, in no fixed order.
        let token = try #require(try smtp.messages().filter { ($0["to"] as? [String]) == ["bob@example.org"] }
            .compactMap { ($0["data"] as? String)?.firstMatch(of: /Reply-To:\s+bot\+([a-z2-7]+)@/) }.first).output.1
        let reply = ReplyCorpusTests.reply(.init(deliveryID: "", token: String(token)), from: "bob@example.org", body: "1")
        #expect(try Self.ingest(ws, reply).contains("responded: justInform"))
        #expect(!(try ws.chime(["recipients"]).stdout.contains("undeliverable")))
    }

    @Test("a marked address is sent nothing, whatever queued it: a retry queued before the mark fails saying why and sends nothing; once --clear lifts the mark, chime retry sends it. A report folding Final-Recipient over two lines marks its address; one repeating an address to many made-up tokens names it once")
    func markedAddressesGetNothing() throws {
        // The second DATA of the server's life is refused for now (451).
        let smtp = try SMTPServer(["--tempfail-every", "2"])
        let ws = try ReplyCorpusTests.workspace(Self.configuration(smtpPort: smtp.port))
        try ws.write("b1.json", #"{"identifier": "b1", "recipient": "bob", "content": {"title": "First", "categoryIdentifier": "shop"}, "trigger": {"type": "timeInterval", "seconds": 60}}"#)
        #expect(try ws.chime(["schedule", "--json", "b1.json"], now: "2026-11-21T09:00:00Z").status == 0)
        #expect(try ws.chime(["run"], now: "2026-11-21T09:02:00Z").stdout == "fired 1, delivered 1\n")
        let bobPath = try #require(try smtp.messages().first?["from"] as? String)
        try ws.write("b2.json", #"{"identifier": "b2", "recipient": "bob", "content": {"title": "Second", "categoryIdentifier": "shop"}, "trigger": {"type": "timeInterval", "seconds": 60}}"#)
        #expect(try ws.chime(["schedule", "--json", "b2.json"], now: "2026-11-21T09:10:00Z").status == 0)
        let refused = try ws.chime(["run"], now: "2026-11-21T09:12:00Z")
        #expect(refused.status == 75 && refused.stdout.contains("1 to retry"), "\(refused.stdout) \(refused.stderr)")

        // The report of the first message marks bob, its Final-Recipient folded as RFC 3464's fields may be.
        let folded = Self.postfixBounce(to: bobPath, failed: "bob@example.org")
            .replacingOccurrences(of: "Final-Recipient: rfc822; bob@example.org", with: "Final-Recipient: rfc822;\r\n\tbob@example.org")
            .replacingOccurrences(of: "Original-Recipient: rfc822;bob@example.org\r\n", with: "")
        #expect(try Self.ingest(ws, folded).hasPrefix("stdin: bounce: bob@example.org marked undeliverable"))

        // The retry comes due: nothing is sent to bob; it fails saying why.
        let due = try ws.chime(["run"], now: "2026-11-21T12:00:00Z")
        #expect(due.stderr.contains("the address is marked undeliverable (a hard bounce)"), "\(due.stdout) \(due.stderr)")
        #expect(try smtp.messages().count == 1, "nothing more reached the relay")
        let failed = try ws.chime(["failed"]).stdout
        #expect(failed.contains("b2") && failed.contains("marked undeliverable"), "\(failed)")
        // Lifted, and queued again by hand: it goes.
        #expect(try ws.chime(["recipients", "--clear", "bob@example.org"]).status == 0)
        #expect(try ws.chime(["retry", "--all"], now: "2026-11-21T12:10:00Z").status == 0)
        let sent = try ws.chime(["run"], now: "2026-11-21T12:11:00Z")
        #expect(sent.status == 0 && sent.stdout.contains("delivered 1"), "\(sent.stdout) \(sent.stderr)")
        #expect(try smtp.messages().count == 2)

        // bob's address named by 200 report entries, to 200 made-up tokens and bob's real
        // path: marked, named once.
        let fakes = (0..<200).map { "bounce+\(String(repeating: "a", count: 40 + $0 % 7))@reply.example.org" }
        let entries = (0..<200).map { _ in "Final-Recipient: rfc822; bob@example.org\r\nAction: failed\r\nStatus: 5.1.1\r\n" }.joined(separator: "\r\n")
        let crowded = Self.postfixBounce(to: bobPath, failed: "bob@example.org")
            .replacingOccurrences(of: "To: \(bobPath)\r\n", with: "To: \((fakes + [bobPath]).joined(separator: ", "))\r\n")
            .replacingOccurrences(of: "Final-Recipient: rfc822; bob@example.org\r\n", with: entries + "\r\nFinal-Recipient: rfc822; bob@example.org\r\n")
        let outcome = try Self.ingest(ws, crowded)
        #expect(outcome == "stdin: bounce: bob@example.org marked undeliverable\n", "\(outcome.prefix(400))")
    }

    @Test("an internationalized domain is one address in either form: the email goes to its ASCII form, a reply from it is genuine, a bounce naming it marks the address as configured, and --clear or a genuine reply in either form lifts the mark")
    func internationalizedDomain() throws {
        let smtp = try SMTPServer()
        let configuration = Self.configuration(smtpPort: smtp.port).replacingOccurrences(of: ">carol@example.org<", with: ">Ida &lt;ida@Bücher.example&gt;<")
        let ws = try ReplyCorpusTests.workspace(configuration)
        try ws.write("r.json", #"[{"identifier": "c1", "recipient": "carol", "content": {"title": "Shopping", "categoryIdentifier": "shop"}, "trigger": {"type": "timeInterval", "seconds": 60}}]"#)
        #expect(try ws.chime(["schedule", "--json", "r.json"], now: "2026-11-21T09:00:00Z").status == 0)
        let run = try ws.chime(["run"], now: "2026-11-21T09:02:00Z")
        #expect(run.stdout == "fired 1, delivered 1\n", "\(run.stderr)")
        let message = try #require(try smtp.messages().first)
        #expect(message["to"] as? [String] == ["ida@xn--bcher-kva.example"])
        let data = message["data"] as? String ?? ""
        #expect(data.contains("\r\nTo: Ida <ida@xn--bcher-kva.example>\r\n"), "\(data.prefix(300))")
        let path = message["from"] as? String ?? ""

        // A reply as a mail client without SMTPUTF8 writes it: the domain in ASCII.
        let token = try #require(data.firstMatch(of: /Reply-To:\s+bot\+([a-z2-7]+)@/)).output.1
        let reply = ReplyCorpusTests.reply(.init(deliveryID: "", token: String(token)), from: "ida@xn--bcher-kva.example", body: "1")
        #expect(try Self.ingest(ws, reply).contains("responded: justInform"))
        // One in Unicode (an SMTPUTF8 message), its domain proven by DKIM under its ASCII form.
        let proven = ReplyCorpusTests.reply(.init(deliveryID: "", token: String(token)), from: "ida@bücher.example",
                                            headers: ["Authentication-Results: mx.example.org; dkim=pass header.d=xn--bcher-kva.example"], body: "Archive")
        #expect(try Self.ingest(ws, proven).contains("responded: archive (carried out)"))

        #expect(try Self.ingest(ws, Self.postfixBounce(to: path, failed: "ida@xn--bcher-kva.example"))
            .hasPrefix("stdin: bounce: ida@xn--bcher-kva.example marked undeliverable"))
        let listed = try ws.chime(["recipients"]).stdout
        #expect(listed.contains("carol  smtp  Ida <ida@Bücher.example>  undeliverable since"), "\(listed)")
        #expect(try ws.chime(["recipients", "--clear", "IDA@bücher.example"]).stdout == "cleared ida@xn--bcher-kva.example: mail goes to it again\n")
        // Marked again, and lifted by her genuine reply written with the domain in Unicode.
        #expect(try Self.ingest(ws, Self.postfixBounce(to: path, failed: "ida@xn--bcher-kva.example")).contains("marked undeliverable"))
        let unicode = ReplyCorpusTests.reply(.init(deliveryID: "", token: String(token)), from: "ida@bücher.example", body: "1")
        #expect(try Self.ingest(ws, unicode).contains("stdin: "))
        let after = try ws.chime(["recipients"]).stdout
        #expect(!after.contains("undeliverable"), "\(after)")
    }

    @Test("a bounce of a digest marks its address undeliverable as one of a single reminder does: the digest goes out over SMTP from a VERP return path of its own, and the report that comes back to it is believed")
    func digestBounces() throws {
        let smtp = try SMTPServer()
        let ws = try ReplyCorpusTests.workspace(Self.configuration(smtpPort: smtp.port))
        try ws.write("r.json", #"[{"identifier": "q1", "recipient": "bob", "content": {"title": "Quiet one", "categoryIdentifier": "shop", "interruptionLevel": "passive"}, "trigger": {"type": "timeInterval", "seconds": 60}}, {"identifier": "q2", "recipient": "bob", "content": {"title": "Quiet two", "categoryIdentifier": "shop", "interruptionLevel": "passive"}, "trigger": {"type": "timeInterval", "seconds": 60}}]"#)
        #expect(try ws.chime(["schedule", "--json", "r.json"], now: "2026-11-21T09:00:00Z").status == 0)
        #expect(try ws.chime(["run"], now: "2026-11-21T09:02:00Z").stdout.contains("2 kept for the digest"))
        // bob's digest, at 07:00 in Paris the next morning.
        let digest = try ws.chime(["digest"], now: "2026-11-22T06:00:00Z")
        #expect(digest.stdout.contains("digest bob: 2 notifications"), "\(digest.stdout) \(digest.stderr)")
        _ = try ws.chime(["run"], now: "2026-11-22T06:00:30Z")
        let sent = try #require(try smtp.messages().first { ($0["to"] as? [String]) == ["bob@example.org"] }, "the digest went over SMTP")
        let path = try #require(sent["from"] as? String)
        #expect(path.hasPrefix("bounce+") && path.hasSuffix("@reply.example.org"), "a VERP return path: \(path)")
        #expect(try Self.ingest(ws, Self.postfixBounce(to: path, failed: "bob@example.org")).hasPrefix("stdin: bounce: bob@example.org marked undeliverable"))
        #expect(try ws.chime(["recipients"]).stdout.contains("bob  smtp  bob@example.org  undeliverable since"))

        // Marked, bob's next digest is held, not sent to the marked address nor lost; once
        // the mark is lifted, it goes.
        try ws.write("r2.json", #"[{"identifier": "q3", "recipient": "bob", "content": {"title": "Quiet three", "categoryIdentifier": "shop", "interruptionLevel": "passive"}, "trigger": {"type": "timeInterval", "seconds": 60}}]"#)
        #expect(try ws.chime(["schedule", "--json", "r2.json"], now: "2026-11-22T09:00:00Z").status == 0)
        #expect(try ws.chime(["run"], now: "2026-11-22T09:02:00Z").stdout.contains("1 kept for the digest"))
        let before = try smtp.messages().count
        let held = try ws.chime(["digest"], now: "2026-11-23T06:00:00Z")
        #expect(held.status == 75 && held.stderr.contains("every address of recipient \"bob\" is undeliverable"), "\(held.stdout) \(held.stderr)")
        _ = try ws.chime(["run"], now: "2026-11-23T06:00:30Z")
        #expect(try smtp.messages().count == before, "nothing went to the marked address")
        #expect(try ws.chime(["recipients", "--clear", "bob@example.org"]).status == 0)
        let sentNow = try ws.chime(["digest"], now: "2026-11-23T06:05:00Z")
        #expect(sentNow.stdout.contains("digest bob: 1 notification"), "\(sentNow.stdout) \(sentNow.stderr)")
    }

    static func postfixBounce(to: String, failed: String) -> String {
        [
            "Return-Path: <>", "Delivered-To: \(to)", "Date: Sat, 21 Nov 2026 10:00:00 +0000 (UTC)",
            "From: MAILER-DAEMON@mx.example.org (Mail Delivery System)", "Subject: Undelivered Mail Returned to Sender",
            "To: \(to)", "Auto-Submitted: auto-replied", "MIME-Version: 1.0",
            "Content-Type: multipart/report; report-type=delivery-status;", "\tboundary=\"4A1B2C.1763719200/mx.example.org\"",
            "Message-Id: <20261121100000.4A1B2C@mx.example.org>", "",
            "This is a MIME-encapsulated message.", "", "--4A1B2C.1763719200/mx.example.org",
            "Content-Description: Notification", "Content-Type: text/plain; charset=us-ascii", "",
            "I'm sorry to have to inform you that your message could not", "be delivered to one or more recipients.", "",
            "--4A1B2C.1763719200/mx.example.org", "Content-Description: Delivery report", "Content-Type: message/delivery-status", "",
            "Reporting-MTA: dns; mx.example.org", "X-Postfix-Queue-ID: 4A1B2C", "X-Postfix-Sender: rfc822; \(to)",
            "Arrival-Date: Sat, 21 Nov 2026 09:59:58 +0000 (UTC)", "",
            "Final-Recipient: rfc822; \(failed)", "Original-Recipient: rfc822;\(failed)", "Action: failed", "Status: 5.1.1",
            "Remote-MTA: dns; example.org", "Diagnostic-Code: smtp; 550 5.1.1 <\(failed)>: Recipient address rejected", "",
            "--4A1B2C.1763719200/mx.example.org", "Content-Description: Undelivered Message Headers", "Content-Type: text/rfc822-headers", "",
            "From: Chime <bot@reply.example.org>", "Subject: Shopping", "",
            "--4A1B2C.1763719200/mx.example.org--", "",
        ].joined(separator: "\r\n")
    }

    static func gmailBounce(to: String, failed: String) -> String {
        [
            "Delivered-To: \(to)", "Return-Path: <>", "From: Mail Delivery Subsystem <mailer-daemon@googlemail.com>", "To: \(to)",
            "Auto-Submitted: auto-replied", "Subject: Delivery Status Notification (Failure)", "X-Failed-Recipients: \(failed)",
            "Message-ID: <6f1a.gmail@mx.google.com>", "Date: Sat, 21 Nov 2026 02:00:00 -0800 (PST)", "MIME-Version: 1.0",
            "Content-Type: multipart/report; boundary=\"000000000000g1\"; report-type=delivery-status", "",
            "--000000000000g1", "Content-Type: multipart/related; boundary=\"000000000000g2\"", "",
            "--000000000000g2", "Content-Type: multipart/alternative; boundary=\"000000000000g3\"", "",
            "--000000000000g3", "Content-Type: text/plain; charset=\"UTF-8\"", "",
            "** Address not found **", "", "Your message wasn't delivered to \(failed) because the address couldn't be found.", "",
            "--000000000000g3", "Content-Type: text/html; charset=\"UTF-8\"", "", "<html><body><p>Address not found</p></body></html>", "",
            "--000000000000g3--", "", "--000000000000g2--", "",
            "--000000000000g1", "Content-Type: message/delivery-status", "",
            "Reporting-MTA: dns; googlemail.com", "Received-From-MTA: dns; bot@reply.example.org",
            "Arrival-Date: Sat, 21 Nov 2026 02:00:00 -0800 (PST)", "X-Original-Message-ID: <x@reply.example.org>", "",
            "Final-Recipient: rfc822; \(failed)", "Action: failed", "Status: 5.1.1", "Remote-MTA: dns; gmail-smtp-in.l.google.com. (142.250.0.27, the server for the domain example.org.)",
            "Diagnostic-Code: smtp; 550-5.1.1 The email account that you tried to reach does not exist.", "Last-Attempt-Date: Sat, 21 Nov 2026 02:00:01 -0800 (PST)", "",
            "--000000000000g1", "Content-Type: text/rfc822-headers", "", "From: Chime <bot@reply.example.org>", "Subject: Shopping", "",
            "--000000000000g1--", "",
        ].joined(separator: "\r\n")
    }

    static func eximBounce(to: String, failed: String) -> String {
        [
            "From: Mail Delivery System <Mailer-Daemon@mx.example.org>", "To: \(to)",
            "Subject: Mail delivery failed: returning message to sender", "Message-Id: <E1abc-0001@mx.example.org>",
            "X-Failed-Recipients: \(failed)", "Auto-Submitted: auto-replied", "Date: Sat, 21 Nov 2026 10:00:00 +0000", "",
            "This message was created automatically by mail delivery software.", "",
            "A message that you sent could not be delivered to one or more of its", "recipients. This is a permanent error.", "",
            "  \(failed)", "    host example.org: 550 No such user", "",
        ].joined(separator: "\r\n")
    }

    static func readReceipt(to: String) -> String {
        [
            "From: Alice <alice@example.org>", "To: \(to)", "Subject: Read: Shopping", "MIME-Version: 1.0",
            "Content-Type: multipart/report; report-type=disposition-notification; boundary=\"r1\"", "",
            "--r1", "Content-Type: text/plain", "", "Your message was displayed.", "",
            "--r1", "Content-Type: message/disposition-notification", "",
            "Reporting-UA: mail.example.org; Mail", "Final-Recipient: rfc822; alice@example.org",
            "Disposition: manual-action/MDN-sent-manually; displayed", "", "--r1--", "",
        ].joined(separator: "\r\n")
    }

    @Test("a Gmail emoji reaction to a reminder (👍) is recorded as a receipt with its emoji: nothing carried out, no \"not understood\" answer, where the same 👍 typed as a reply is unmatched and answered")
    func emojiReaction() throws {
        let ws = try ReplyCorpusTests.workspace()
        let sent = try ReplyCorpusTests.send(ws, ["a", "b"], category: "plain")
        let before = try CarryingOutTests.outbox(ws)
        let reaction = [
            "From: Alice <alice@example.org>", "To: \(sent["a"]!.replyTo)", "Subject: Re: Shopping", "Message-ID: <reaction-1@example.org>",
            "In-Reply-To: <\(sent["a"]!.messageID)>", "Date: Sat, 21 Nov 2026 10:00:00 +0100", "MIME-Version: 1.0",
            "Content-Type: multipart/alternative; boundary=\"r\"", "",
            "--r", "Content-Type: text/plain; charset=utf-8", "", "👍", "",
            "--r", "Content-Type: text/vnd.google.email-reaction+json; charset=utf-8", "", #"{"emoji":"👍","version":1}"#, "",
            "--r", "Content-Type: text/html; charset=utf-8", "", "<p style=\"font-size:50px\">👍</p>", "", "--r--", "",
        ].joined(separator: "\r\n")
        let printed = try Self.ingest(ws, reaction)
        #expect(printed.hasPrefix("stdin: receipt: a reaction (👍)"), "\(printed)")
        #expect(try CarryingOutTests.outbox(ws) == before, "no answer sent to a reaction")
        #expect(try ReplyCorpusTests.json(ws, "responses").isEmpty)
        let listed = try ws.chime(["replies"]).stdout
        #expect(listed.contains("receipt") && listed.contains("a reaction (👍), read as a receipt"), "\(listed)")
        // The same emoji typed as a reply names no action: unmatched, and answered so.
        let typed = try Self.ingest(ws, ReplyCorpusTests.reply(sent["b"]!, body: "👍"))
        #expect(typed.contains("unmatched"), "\(typed)")
        #expect(try CarryingOutTests.outbox(ws).count == before.count + 1, "the valid replies sent back")
    }

    @Test("messages over <replies maxMessageSize> are recorded as too-large and acted on by nothing; the MTA is told they were taken")
    func tooLarge() throws {
        let (ws, sent) = try Self.workspace(extra: #"maxMessageSize="2K""#)
        let big = ReplyCorpusTests.reply(sent, body: "1\n" + String(repeating: "x", count: 3_000))
        #expect(try Self.ingest(ws, big).hasPrefix("stdin: too-large:"))
        #expect(try ReplyCorpusTests.json(ws, "responses").isEmpty)
        #expect(try Self.ingest(ws, ReplyCorpusTests.reply(sent, body: "1")).hasPrefix("stdin: responded"), "a small one still acts")
    }

    @Test("the store is made readable by its owner only; human output escapes control characters a reply or a request carried")
    func storeAndOutput() throws {
        let (ws, sent) = try Self.workspace()
        // The -wal and -shm files (there while a process has the store open) take the same mode.
        let mode = (try FileManager.default.attributesOfItem(atPath: ws.path("chime.sqlite"))[.posixPermissions] as? Int) ?? 0
        #expect(mode & 0o077 == 0, "chime.sqlite: \(String(mode, radix: 8))")
        _ = try Self.ingest(ws, ReplyCorpusTests.reply(sent, body: "\u{1B}]0;pwned\u{07}\u{1B}[2J what?"))
        // Any text is the category's one text-input action's: it shows in chime responses.
        let responses = try ws.chime(["responses"]).stdout
        #expect(!responses.contains("\u{1B}") && responses.contains("\\u{1b}]0;pwned\\u{7}\\u{1b}[2J what?"), "\(responses)")
        #expect(try ws.chime(["responses", "--json"]).stdout.contains("\\u001b]0;pwned"), "JSON keeps the text, JSON-escaped")
        // A request's identifier, as chime schedule says what it scheduled.
        try ws.write("e.json", #"{"identifier": "e\u001b[31mRED\r\nfake", "recipient": "alice", "content": {"title": "T"}, "trigger": {"type": "timeInterval", "seconds": 60}}"#)
        let scheduled = try ws.chime(["schedule", "--json", "e.json"])
        #expect(scheduled.status == 0, "\(scheduled.stderr)")
        #expect(scheduled.stdout.hasPrefix("scheduled e\\u{1b}[31mRED\\u{d}\\u{a}fake: fires "), "\(scheduled.stdout)")
    }

    @Test("chime check refuses an empty or short channel secret and a short CHIME_SECRET_KEY, without printing either")
    func shortSecrets() throws {
        let ws = try Workspace(configuration: Workspace.defaultConfiguration.replacingOccurrences(
            of: #"<channel id="log" url="file:./sent.jsonl"/>"#, with: #"<channel id="log" url="file:./sent.jsonl"/><channel id="hook" url="json://127.0.0.1:9/x" secret="s3cr3t-pass"/>"#))
        let check = try ws.chime(["check"])
        #expect(check.status == 65 && check.stderr.contains("secret is too short (11 characters); it needs at least 16"), "\(check.stderr)")
        #expect(!check.stderr.contains("s3cr3t-pass"))
        try ws.write("chime.xml", Workspace.defaultConfiguration.replacingOccurrences(
            of: #"<channel id="log" url="file:./sent.jsonl"/>"#, with: #"<channel id="log" url="file:./sent.jsonl"/><channel id="tg" url="telegram://127.0.0.1:9/botT/sendMessage?chat_id=1" secret=""/>"#))
        let empty = try ws.chime(["check"])
        #expect(empty.status == 65 && empty.stderr.contains("secret is empty"), "an empty secret would match an empty header: \(empty.stderr)")
        try ws.write("chime.xml", Workspace.defaultConfiguration)
        let key = try ws.chime(["check"], environment: ["CHIME_SECRET_KEY": "hunter2hunter2"])
        #expect(key.status == 65 && key.stderr.contains("CHIME_SECRET_KEY is 14 bytes; it needs at least 32"), "\(key.stderr)")
        #expect(!key.stderr.contains("hunter2"))
        #expect(try ws.chime(["check"], environment: ["CHIME_SECRET_KEY": String(repeating: "k", count: 32)]).status == 0)
    }

    @Test("a hook gets PATH, HOME, LANG and what its env names, never Chime's secrets; one that never reads a large input is stopped at its timeout")
    func hookEnvironment() throws {
        let key = (0..<4).map { _ in UUID().uuidString }.joined()
        let ws = try ReplyCorpusTests.workspace(Self.configuration())
        let environment = ["CHIME_SECRET_KEY": key, "CHIME_TEST_PASSED": "yes", "CHIME_TEST_SECRET": "no"]
        _ = try ReplyCorpusTests.send(ws, ["a"], category: "shop")
        #expect(try ws.chime(["respond", "a", "archive"], environment: environment).status == 0)
        let seen = try ws.read("hook-env.txt")
        #expect(seen.contains("CHIME_TEST_PASSED=yes") && seen.contains("PATH="), "\(seen)")
        #expect(!seen.contains(key) && !seen.contains("CHIME_TEST_SECRET"), "\(seen)")
        // 100 KB of text (more than a pipe holds) for a hook that sleeps without reading: stopped after its 1 s.
        let respond = try ws.chime(["respond", "a", "note", "--text", String(repeating: "x", count: 100_000)], environment: environment, timeout: 20)
        #expect(!respond.timedOut && respond.status == 75 && respond.stderr.contains("timed out after 1s"), "\(respond.stdout) \(respond.stderr)")
    }
}

extension InboundTrustTests {
    @Test("mail that had parsers take time growing with the square of its size gets its plain outcome: a stranger's subject of decomposed accents, a first line of 400,000 é, 90,000 Content-Type parameters (refused as unreadable), one HTML tag of 80,000 attributes")
    func quadraticShapes() throws {
        let (ws, sent) = try Self.workspace()
        let subject = ["From: x@evil.test", "To: y@example.org", "Subject: " + String(repeating: "e\u{301}", count: 400_000), "", "hello"]
            .joined(separator: "\r\n")
        #expect(try Self.ingest(ws, subject).hasPrefix("stdin: no-token"))
        let accents = try Self.ingest(ws, ReplyCorpusTests.reply(sent, body: "note " + String(repeating: "é", count: 400_000)))
        #expect(accents.hasPrefix("stdin: too-large: a text of 800000 bytes for note"), "\(accents.prefix(200))")
        let parameters = ReplyCorpusTests.reply(sent, body: "OK, got it")
            .replacingOccurrences(of: "Content-Type: text/plain; charset=utf-8",
                                  with: "Content-Type: text/plain; charset=utf-8" + (0..<90_000).map { "; p\($0)=v" }.joined())
        #expect(try Self.ingest(ws, parameters).hasPrefix("stdin: unreadable"))
        let html = ReplyCorpusTests.reply(sent, body: "")
            .replacingOccurrences(of: "Content-Type: text/plain; charset=utf-8", with: "Content-Type: text/html; charset=utf-8")
            + "<p" + (0..<80_000).map { " a\($0)=x" }.joined() + ">OK, got it</p>"
        let answered = try Self.ingest(ws, html)
        #expect(answered.hasPrefix("stdin: responded: justInform"), "\(answered.prefix(200))")
    }
}
