import ChimeTestSupport
import Foundation
import Testing

/// Double opt-in through the real `chime`: a `notDetermined` recipient's first
/// notification sends a request to confirm instead (into a Maildir, and over SMTP to
/// aiosmtpd); nothing reaches them until they confirm by reply (`chime ingest`) or by
/// the signed link (`chime serve`, GET shows, POST confirms).
@Suite("double opt-in", .serialized)
struct OptInTests {
    static func configuration(smtpPort: Int) -> String {
        """
        <chime version="1">
          <categories>
            \(PolicyTests.shop)
          </categories>
          <channels>
            \(PolicyTests.mail)
            <channel id="post" url="smtp://127.0.0.1:\(smtpPort)" from="Chime &lt;bot@reply.example.org&gt;" replyTo="bot+{token}@reply.example.org"/>
          </channels>
          <recipients>
            <recipient id="alice" locale="en" timeZone="Europe/Paris"><address channel="mail">alice@example.org</address></recipient>
            <recipient id="erin" locale="en" timeZone="Europe/Paris" authorization="notDetermined">
              <address channel="mail">erin@example.org</address>
            </recipient>
            <recipient id="fred" locale="de" timeZone="Europe/Paris" authorization="notDetermined">
              <address channel="post">fred@example.org</address>
            </recipient>
          </recipients>
        </chime>
        """
    }

    @Test("the first notification asks instead (once, in the recipient's language); nothing is sent until a reply or a POST to the link confirms; a wrong sender, another word or a GET confirms nothing")
    func doubleOptIn() throws {
        let smtp = try SMTPServer()
        let ws = try ReplyCorpusTests.workspace(Self.configuration(smtpPort: smtp.port))
        func schedule(_ items: [(String, String, String)]) throws {
            let json = items.map { PolicyTests.request($0.0, to: $0.1, at: $0.2) }
            try ws.write("requests.json", "[" + json.joined(separator: ",") + "]")
            let result = try ws.chime(["schedule", "--json", "requests.json"], now: "2026-11-20T08:00:00Z")
            #expect(result.status == 0, "\(result.stderr)")
        }
        func mails(to name: String) throws -> [String] {
            try PolicyTests.outbox(ws).values.filter { $0.contains("\nTo: \(name)@") }
        }

        try schedule([("a1", "alice", "2026-11-20T12:00:00"), ("e1", "erin", "2026-11-20T12:00:00"),
                      ("e2", "erin", "2026-11-20T12:00:00"), ("f1", "fred", "2026-11-20T12:00:00")])
        let first = try ws.chime(["run"], now: "2026-11-20T11:00:00Z")
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout == "fired 4, delivered 1, 3 awaiting opt-in, 2 asked to opt in\n", "\(first.stdout)")
        // alice's reminder went; erin got one request and no reminder; fred his, in German, over SMTP.
        #expect(try mails(to: "alice").count == 1)
        let erinMails = try mails(to: "erin")
        #expect(erinMails.count == 1)
        let request = try #require(erinMails.first)
        #expect(request.contains("Subject: Do you want reminders at this address?"), "\(request)")
        #expect(!request.contains("List-Unsubscribe"), "nothing to unsubscribe from yet")
        let text = PolicyTests.text(request)
        #expect(text.contains("Reminders are ready to be sent to erin@example.org, but none will come until you confirm"), "\(text)")
        #expect(text.contains("reply to this email with the word “Confirm”"), "\(text)")
        #expect(!text.contains("Title e"), "no reminder shows before the opt-in: \(text)")
        let erinToken = String(try #require(request.firstMatch(of: /Reply-To:\s+bot\+([^@]+)@reply\.example\.org/)).output.1)
        let erinLink = String(try #require(text.firstMatch(of: /\/a\/([a-z2-7]+)\/confirm\n/)).output.1)
        #expect(erinLink != erinToken, "the link's token confirms, and is not the reply token: \(text)")
        let sent = try smtp.messages()
        #expect(sent.count == 1 && sent.first?["to"] as? [String] == ["fred@example.org"], "\(sent)")
        let fredRequest = try #require(sent.first?["data"] as? String)
        #expect(PolicyTests.text(fredRequest).contains("Antworten Sie zum Bestätigen auf diese E-Mail mit dem Wort „Bestätigen“"), "\(fredRequest)")
        let fredToken = String(try #require(PolicyTests.text(fredRequest).firstMatch(of: /\/a\/([a-z2-7]+)\/confirm\n/)).output.1)
        // Neither request nor the reminders held back are listed as delivered.
        let delivered = try ws.chime(["delivered"]).stdout
        #expect(delivered.contains("a1") && !delivered.contains("e1") && !delivered.contains("f1"), "\(delivered)")

        // A later notification is held back too, and nobody is asked twice.
        try schedule([("e3", "erin", "2026-11-20T13:00:00")])
        #expect(try ws.chime(["run"], now: "2026-11-20T12:00:00Z").stdout == "fired 1, 1 awaiting opt-in\n")
        #expect(try mails(to: "erin").count == 1)

        // erin's replies: another word, then "Confirm" from a stranger, confirm nothing.
        func answer(_ token: String, from: String, _ body: String) throws -> String {
            try ReplyCorpusTests.ingest(ws, ReplyCorpusTests.reply(.init(deliveryID: "", token: token), from: from, body: body),
                                        now: "2026-11-20T12:30:00Z").stdout
        }
        #expect(try answer(erinToken, from: "erin@example.org", "1").hasPrefix("stdin: unmatched"))
        #expect(try answer(erinToken, from: "erin@example.org", "snooze").hasPrefix("stdin: unmatched"), "only confirm answers an opt-in")
        #expect(try answer(erinToken, from: "mallory@example.org", "Confirm").hasPrefix("stdin: forged-sender"))
        try schedule([("e4", "erin", "2026-11-20T14:00:00")])
        #expect(try ws.chime(["run"], now: "2026-11-20T13:00:00Z").stdout == "fired 1, 1 awaiting opt-in\n")

        // Her own "confirm" (any case) is carried out and answered in her thread.
        let confirmed = try answer(erinToken, from: "erin@example.org", "confirm\n\nthanks, Erin")
        #expect(confirmed.hasPrefix("stdin: responded: chime.confirm"), "\(confirmed)")
        #expect(try mails(to: "erin").contains { PolicyTests.text($0).contains("Confirmed: your reminders will come to you from now on.") })

        // fred's link: GET shows a form and changes nothing; only the confirm link works on it.
        let server = try ServeTests.Server(ws)
        defer { server.stop() }
        let page = try server.request("GET", "/a/\(fredToken)/confirm")
        #expect(page.status == 200 && page.body.contains("<form method=\"post\">") && page.body.contains("Bestätigen"), "\(page)")
        #expect(try server.request("GET", "/a/\(fredToken)/snooze").status == 403, "the confirm link's token is for confirm alone")
        let aliceToken = String(try #require(try mails(to: "alice").first?.firstMatch(of: /Reply-To:\s+bot\+([^@]+)@/)).output.1)
        #expect(try server.request("POST", "/a/\(aliceToken)/confirm").status == 403, "a reminder's token cannot confirm")
        try schedule([("f2", "fred", "2026-11-20T14:00:00")])
        #expect(try ws.chime(["run"], now: "2026-11-20T13:00:00Z").stdout == "fired 1, 1 awaiting opt-in\n")
        let post = try server.request("POST", "/a/\(fredToken)/confirm")
        #expect(post.status == 200 && post.body.contains("Bestätigen"), "\(post)")

        // From the next fire on, both get their reminders, and no request again.
        try schedule([("e5", "erin", "2026-11-20T15:00:00"), ("f3", "fred", "2026-11-20T15:00:00")])
        let after = try ws.chime(["run"], now: "2026-11-20T14:00:00Z")
        #expect(after.stdout == "fired 2, delivered 1\n", "\(after.stdout) \(after.stderr)")
        #expect(try mails(to: "erin").contains { PolicyTests.text($0).contains("Title e5") })
        #expect(try smtp.messages().count == 2)
        #expect((try smtp.messages().last?["data"] as? String ?? "").contains("Title f3"))
        let responses = try ws.chime(["responses"]).stdout
        #expect(responses.contains("chime.confirm"), "\(responses)")

        // What a person confirmed lifts notDetermined only: an operator's denied stays denied.
        try ws.write("chime.xml", Self.configuration(smtpPort: smtp.port).replacingOccurrences(
            of: #"id="erin" locale="en" timeZone="Europe/Paris" authorization="notDetermined""#,
            with: #"id="erin" locale="en" timeZone="Europe/Paris" authorization="denied""#))
        try schedule([("e6", "erin", "2026-11-20T16:00:00")])
        #expect(try ws.chime(["run"], now: "2026-11-20T15:00:00Z").stdout == "fired 1, 1 turned off\n")
    }

    @Test("chime check: a notDetermined recipient needs an email address to be asked at; the opt-in category is reserved")
    func checked() throws {
        let ws = try Workspace(configuration: """
            <chime version="1">
              <categories><category identifier="chime.optIn"><action identifier="ok" title="OK"/></category></categories>
              <channels><channel id="room" url="slack://hooks.slack.com/services/T0/B0/X"/></channels>
              <recipients>
                <recipient id="gina" authorization="notDetermined"><address channel="room"/></recipient>
              </recipients>
            </chime>
            """)
        let check = try ws.chime(["check"])
        #expect(check.status != 0)
        #expect(check.stderr.contains(#"category identifier "chime.optIn" is reserved for opt-in requests"#), "\(check.stderr)")
        #expect(check.stderr.contains(#"recipient "gina" is notDetermined but has no email address to ask to opt in"#), "\(check.stderr)")
        #expect(check.stderr.contains("chime.xml:5:"), "the recipient's line: \(check.stderr)")
    }
}
