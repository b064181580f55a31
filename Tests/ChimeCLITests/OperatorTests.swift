import ChimeTestSupport
import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Testing

/// What a new operator tripped on in their first week, each through the real `chime` as
/// they met it.
@Suite("An operator's first week", .serialized)
struct OperatorTests {
    static let configuration = """
        <chime version="1">
          <categories>
            <category identifier="shop"><action identifier="ok" title="OK, got it"/></category>
          </categories>
          <channels>
            <channel id="mail" url="maildir:./outbox" from="Reminders &lt;bot@example.org&gt;" replyTo="bot+{token}@reply.example.org"/>
          </channels>
          <replies linkBase="https://reminders.example.org/chime/links"/>
          <recipients>
            <recipient id="alice" locale="fr" timeZone="Europe/Paris"><address channel="mail">alice@example.org</address></recipient>
          </recipients>
        </chime>
        """

    @Test("List-Unsubscribe, List-Id and Message-ID go out as structured headers, never as encoded words: Python's email parser reads the unsubscribe URL, and chime preview shows the same header with links of the same length")
    func structuredHeaders() throws {
        let ws = try ReplyCorpusTests.workspace(Self.configuration)
        let sent = try ReplyCorpusTests.send(ws, ["a"], category: "shop")["a"]!
        let name = try #require(try FileManager.default.contentsOfDirectory(atPath: ws.path("outbox/new")).first)
        let raw = try ws.read("outbox/new/\(name)")
        let head = raw.components(separatedBy: "\n\n")[0]
        #expect(!head.contains("=?"), "no encoded word in any header: \(head)")
        let line = try #require(head.split(separator: "\n").first { $0.hasPrefix("List-Unsubscribe: ") })
        #expect(line.wholeMatch(of: /List-Unsubscribe: <https:\/\/reminders\.example\.org\/chime\/links\/u\/[a-z2-7]{55}\?c=shop>/) != nil, "\(line)")
        // A real mail client's parser: the URL, whole.
        try ws.write("read.py", """
            import email, email.policy, sys
            message = email.message_from_bytes(open(sys.argv[1], "rb").read(), policy=email.policy.default)
            print(message["List-Unsubscribe"]); print(message["List-Id"]); print(message["Message-ID"]); print(message["List-Unsubscribe-Post"])
            """)
        let parsed = try ChimeProcess.runProgram("/usr/bin/python3", [ws.path("read.py"), ws.path("outbox/new/\(name)")])
        let values = parsed.stdout.split(separator: "\n").map(String.init)
        #expect(values.count == 4, "\(parsed.stdout) \(parsed.stderr)")
        #expect(values.first?.wholeMatch(of: /<https:\/\/reminders\.example\.org\/chime\/links\/u\/[a-z2-7]{55}\?c=shop>/) != nil, "\(values)")
        #expect(values.dropFirst().first == "Chime reminders <reminders.example.org>")
        #expect(values.dropFirst(2).first == "<\(sent.messageID.replacingOccurrences(of: "reply.example.org", with: "example.org"))>")
        #expect(values.last == "List-Unsubscribe=One-Click")

        // The preview shows what goes out: the configured link base, links as long as these.
        try ws.write("r.json", #"{"identifier": "p", "recipient": "alice", "content": {"title": "Shopping", "categoryIdentifier": "shop"}, "trigger": {"type": "timeInterval", "seconds": 60}}"#)
        let shown = try ws.chime(["preview", "--json", "r.json", "--channel", "mail"], now: "2026-11-21T09:00:00Z")
        #expect(shown.status == 0, "\(shown.stderr)")
        let previewLine = try #require(shown.stdout.split(separator: "\n").first { $0.hasPrefix("List-Unsubscribe: ") })
        #expect(previewLine.wholeMatch(of: /List-Unsubscribe: <https:\/\/reminders\.example\.org\/chime\/links\/u\/[a-z2-7]{55}\?c=shop>/) != nil, "\(previewLine)")
    }

    @Test("\"Every May\" fires on May 1st at 00:00, once a year, and \"2027\" on its January 1st, as the rule that finer components are at their minimum says (and Foundation reads them); \"December at 9\" every day of December")
    func coarsestComponents() throws {
        let ws = try Workspace()
        try ws.write("r.json", """
            [{"identifier": "may", "recipient": "alice", "content": {"title": "Spring"}, "trigger": {"type": "calendar", "dateComponents": {"month": 5}, "timeZone": "Europe/Paris", "repeats": true}},
             {"identifier": "y", "recipient": "alice", "content": {"title": "New year"}, "trigger": {"type": "calendar", "dateComponents": {"year": 2027}, "timeZone": "UTC", "repeats": true}},
             {"identifier": "tue", "recipient": "alice", "content": {"title": "Second Tuesday"}, "trigger": {"type": "calendar", "dateComponents": {"month": 6, "weekday": 3, "weekdayOrdinal": 2}, "timeZone": "UTC", "repeats": true}},
             {"identifier": "dec", "recipient": "alice", "content": {"title": "Advent"}, "trigger": {"type": "calendar", "dateComponents": {"month": 12, "hour": 9}, "timeZone": "Europe/Paris", "repeats": true}}]
            """)
        let scheduled = try ws.chime(["schedule", "--json", "r.json"], now: "2026-11-24T12:00:00Z")
        #expect(scheduled.status == 0, "\(scheduled.stderr)")
        #expect(try ws.chime(["next", "may", "--count", "3"], now: "2026-11-24T12:00:00Z").stdout
                == "2027-05-01T00:00:00+02:00\n2028-05-01T00:00:00+02:00\n2029-05-01T00:00:00+02:00\n")
        #expect(try ws.chime(["next", "y", "--count", "3"], now: "2026-11-24T12:00:00Z").stdout == "2027-01-01T00:00:00Z\n")
        #expect(try ws.chime(["next", "tue", "--count", "2"], now: "2026-11-24T12:00:00Z").stdout
                == "2027-06-08T00:00:00Z\n2028-06-13T00:00:00Z\n", "weekday-level components keep their own meaning")
        // A time of day is finer than the day: every day of December at 09:00, not only the 1st.
        #expect(try ws.chime(["next", "dec", "--count", "3"], now: "2026-11-24T12:00:00Z").stdout
                == "2026-12-01T09:00:00+01:00\n2026-12-02T09:00:00+01:00\n2026-12-03T09:00:00+01:00\n")
        // Fired across the whole of May 2027: once.
        let run = try ws.chime(["run"], now: "2027-05-31T23:00:00Z")
        #expect(run.stdout.hasPrefix("fired 3"), "may and the new year, once each, and December's 31 mornings coalesced into one: \(run.stdout)")
    }

    @Test("Slack's, Discord's, Teams' and Telegram's URLs are taken as the platform gives them; another https:// URL is refused at its line, saying which scheme to write")
    func platformURLs() throws {
        let base = Workspace.defaultConfiguration
        let ws = try Workspace(configuration: base.replacingOccurrences(of: #"<channel id="box" url="maildir:./outbox"/>"#, with: """
            <channel id="box" url="maildir:./outbox"/>
                <channel id="team" url="https://hooks.slack.com/services/T000/B000/XXXX"/>
                <channel id="guild" url="https://discord.com/api/webhooks/1/abc"/>
            """))
        let check = try ws.chime(["check"])
        #expect(check.status == 0, "\(check.stderr)")
        try ws.write("chime.xml", base.replacingOccurrences(of: #"<channel id="box" url="maildir:./outbox"/>"#, with: """
            <channel id="box" url="maildir:./outbox"/>
                <channel id="mm" url="https://chat.example.org/hooks/KEY"/>
            """))
        let refused = try ws.chime(["check"])
        #expect(refused.status == 65)
        #expect(refused.stderr.contains(/chime\.xml:10:\d+: error: channel "mm": this https:\/\/ URL/) && refused.stderr.contains("write mattermost:// for Mattermost"),
                "\(refused.stderr)")
        #expect(!refused.stderr.contains("KEY"), "the URL's path (its token) is not repeated")
    }

    @Test("an address attribute that is not an email address is refused at its line and column: from, replyTo, returnPath and a recipient's address")
    func addressAttributes() throws {
        let good = Self.configuration
        let ws = try Workspace(configuration: good)
        #expect(try ws.chime(["check"]).status == 0)
        for (broken, attribute) in [
            (#"from="Reminders &lt;bot@example.org&gt;""#, #"from="chime at ops""#),
            (#"replyTo="bot+{token}@reply.example.org""#, #"replyTo="bot+{token} at reply""#),
            (#"<address channel="mail">alice@example.org</address>"#, #"<address channel="mail">alice at example.org</address>"#),
            (#"<address channel="mail">alice@example.org</address>"#, #"<address channel="mail">Alice &lt;alice@&gt;</address>"#),
            // What would have written a header of its own, or an empty one.
            (#"<address channel="mail">alice@example.org</address>"#, #"<address channel="mail">"a&#13;&#10;Bcc: evil@evil.example&#13;&#10;x"@example.org</address>"#),
            (#"from="Reminders &lt;bot@example.org&gt;""#, #"from="&quot;bot&#13;&#10;Bcc: evil@evil.example&quot;@example.org""#),
            (#"<address channel="mail">alice@example.org</address>"#, #"<address channel="mail">alice@[127.0.0.1&#13;&#10;X-Evil: yes]</address>"#),
            (#"from="Reminders &lt;bot@example.org&gt;""#, #"from="Reminders [bot] &lt;bot@example.org&gt;""#),
            (#"<address channel="mail">alice@example.org</address>"#, #"<address channel="mail">Alice (work &lt;alice@example.org&gt;</address>"#),
        ] {
            try ws.write("chime.xml", good.replacingOccurrences(of: broken, with: attribute))
            let check = try ws.chime(["check"])
            #expect(check.status == 65, "\(attribute)")
            #expect(check.stderr.contains(/chime\.xml:\d+:\d+: error: .*is not an email address/), "\(attribute): \(check.stderr)")
        }
        try ws.write("chime.xml", good.replacingOccurrences(of: #"from="Reminders &lt;bot@example.org&gt;""#, with: #"from="chime at ops""#))
        let check = try ws.chime(["check"])
        #expect(check.stderr.contains("chime.xml:6:"), "the channel's line: \(check.stderr)")

        // {token} where the reader of replies and bounces would never find it.
        for placed in ["bot-{token}@reply.example.org", "{token}@reply.example.org", "bot@{token}.example.org", "bot+{token}+{token}@reply.example.org"] {
            try ws.write("chime.xml", good.replacingOccurrences(of: #"replyTo="bot+{token}@reply.example.org""#, with: #"replyTo="\#(placed)""#))
            let check = try ws.chime(["check"])
            #expect(check.status == 65, "\(placed)")
            #expect(check.stderr.contains("puts {token} where replies and bounces cannot be read back by it: write it once, as local+{token}@domain"), "\(placed): \(check.stderr)")
        }
        // A linkBase goes into headers and pages as it is: an absolute http(s) URL only.
        for base in ["", "javascript:alert(1)", "http://x y/", "https://chime.example.org/&quot;&gt;&lt;b&gt;", "/chime/links"] {
            try ws.write("chime.xml", good.replacingOccurrences(of: #"linkBase="https://reminders.example.org/chime/links""#, with: #"linkBase="\#(base)""#))
            let check = try ws.chime(["check"])
            #expect(check.status == 65, "\(base)")
            #expect(check.stderr.contains(/chime\.xml:\d+:\d+: error: linkBase must be an absolute http or https URL/), "\(base): \(check.stderr)")
        }
        // Names as RFC 5322 writes them pass.
        for name in [#""Reminders [bot]" &lt;bot@example.org&gt;"#, "Reminders (ops) &lt;bot@example.org&gt;", "John Q. Public &lt;bot@example.org&gt;",
                     #""Al \"The Boss\" Ice" &lt;bot@example.org&gt;"#] {
            try ws.write("chime.xml", good.replacingOccurrences(of: #"from="Reminders &lt;bot@example.org&gt;""#, with: "from=\"\(name.replacingOccurrences(of: "\"", with: "&quot;"))\""))
            #expect(try ws.chime(["check"]).status == 0, "\(name)")
        }
    }

    @Test("chime check says when <replies linkBase> is missing, since every link would lead to chime.invalid; the example configuration sets it")
    func linkBaseMissing() throws {
        let ws = try Workspace(configuration: Self.configuration.replacingOccurrences(of: #"<replies linkBase="https://reminders.example.org/chime/links"/>"#, with: ""))
        let check = try ws.chime(["check"])
        #expect(check.status == 0, "a warning, not an error: \(check.stderr)")
        #expect(check.stderr.contains("chime.xml: warning: <replies linkBase> is not set"), "\(check.stderr)")
        try ws.write("chime.xml", Self.configuration)
        #expect(!(try ws.chime(["check"]).stderr.contains("linkBase")))
        let example = try ChimeProcess.run(["check", "--config", "deploy/chime.example.xml"])
        #expect(example.status == 0 && !example.stderr.contains("linkBase"), "\(example.stderr)")
        // The example's own linkBase, this machine's, with messages that leave it (a Slack
        // channel, a relay elsewhere): said for each; a local Maildir and relay are not.
        let loopback = Self.configuration.replacingOccurrences(of: "https://reminders.example.org/chime/links", with: "http://127.0.0.1:8080")
            .replacingOccurrences(of: "</channels>", with: """
                <channel id="team" url="slack://hooks.slack.com/services/T000/B000/XXXX"/>
                <channel id="relay" url="smtps://mail.example.org" from="bot@example.org"/>
                <channel id="postfix" url="smtp://127.0.0.1:25" from="bot@example.org"/>
                </channels>
                """)
        try ws.write("chime.xml", loopback)
        let away = try ws.chime(["check"])
        #expect(away.status == 0, "\(away.stderr)")
        let said = away.stderr.split(separator: "\n").filter { $0.contains("is this machine's own address") }
        #expect(said.count == 2 && said[0].contains("channel \"team\"") && said[1].contains("channel \"relay\""), "\(away.stderr)")
        // An email channel without replyTo: replies by its links, and to its digests,
        // carry no token; said for each such channel, not for one with replyTo.
        let noReplyTo = away.stderr.split(separator: "\n").filter { $0.contains("has no replyTo") }
        #expect(noReplyTo.count == 2 && noReplyTo[0].contains("channel \"relay\"") && noReplyTo[1].contains("channel \"postfix\""), "\(away.stderr)")
        #expect(!(example.stderr.contains("has no replyTo")), "\(example.stderr)")
    }

    @Test("a store that cannot be written or opened says what is wrong and what to do, exits 73, and loses nothing stored")
    func storeErrors() throws {
        let ws = try Workspace()
        #expect(try ws.chime(["schedule", "--id", "a", "--to", "alice", "--title", "Tea", "--in", "1h"]).status == 0)
        // As root, permissions bind only another user: run chime as nobody, from a copy
        // nobody may run wherever the checkout is.
        let runAs = getuid() == 0 ? ["/usr/sbin/runuser", "-u", "nobody", "--"] : []
        let binary = ws.path("chime-copy")
        try FileManager.default.copyItem(atPath: ChimeProcess.executable.path, toPath: binary)
        chmod(binary, 0o755)
        func chime(_ arguments: [String]) throws -> ChimeProcess.Result {
            let command = runAs + [binary] + arguments
            return try ChimeProcess.runProgram(command[0], Array(command.dropFirst()) + ["--config", ws.path("chime.xml")], timeout: 60)
        }
        for name in ["chime.sqlite", "chime.xml"] { chmod(ws.path(name), 0o644) }
        chmod(ws.url.path, 0o755)
        let readOnly = try chime(["schedule", "--id", "b", "--to", "alice", "--title", "Tea", "--in", "1h", "--store", ws.path("chime.sqlite")])
        #expect(readOnly.status == 73, "\(readOnly.stderr)")
        #expect(readOnly.stderr.contains("chime.sqlite: error: the store cannot be written: give the user running chime write access to the file and to its folder"),
                "\(readOnly.stderr)")
        #expect(!readOnly.stderr.contains("INSERT") && !readOnly.stderr.contains("SELECT"), "no SQL: \(readOnly.stderr)")
        chmod(ws.path("chime.sqlite"), 0o600)
        let unreadable = try chime(["pending", "--store", ws.path("chime.sqlite")])
        #expect(unreadable.status == 73 && unreadable.stderr.contains("the store cannot be opened or created: check that its folder exists"),
                "\(unreadable.stderr)")
        // Made by root (a command run by hand before the service's first run): said whose
        // it is, where the folder was fine.
        if getuid() == 0 {
            #expect(unreadable.stderr.contains("chime.sqlite belongs to root, and chime runs as nobody: chown nobody it"), "\(unreadable.stderr)")
        }
        // A command that makes the store (one that only reads refuses a missing store, 66).
        let noFolder = try chime(["store", "migrate", "--store", ws.path("missing/chime.sqlite")])
        #expect(noFolder.status == 73 && noFolder.stderr.contains("missing/chime.sqlite: error: the store cannot be opened or created"), "\(noFolder.stderr)")
        // Nothing stored was lost.
        chmod(ws.url.path, 0o700)
        #expect(try ws.chime(["pending"]).stdout.contains("a  alice"), "the reminder scheduled before is still there")
    }

    @Test("chime check warns of a password sent over smtp:// or imap:// upgraded only when offered, and of a channel that does not verify certificates; smtps://, ?starttls=required and a relay on this machine are not warned of")
    func transportSecurityWarnings() throws {
        func check(_ channels: String) throws -> ChimeProcess.Result {
            try Workspace(configuration: Self.configuration.replacingOccurrences(of: "</channels>", with: channels + "</channels>")).chime(["check"])
        }
        let opportunistic = try check(#"<channel id="relay" url="smtp://bot:pw@mail.example.org:587" from="bot@example.org"/>"#)
        #expect(opportunistic.status == 0 && opportunistic.stderr.contains(#"warning: channel "relay" sends its password over smtp:// upgraded to TLS only when the server offers it"#),
                "\(opportunistic.stderr)")
        #expect(!opportunistic.stderr.contains("pw@"), "the password is not repeated")
        let insecure = try check(#"<channel id="hook" url="jsons://example.org/hook?insecure=true"/>"#)
        #expect(insecure.stderr.contains(#"warning: channel "hook" does not verify TLS certificates (insecure=true)"#), "\(insecure.stderr)")
        for safe in [#"<channel id="relay" url="smtps://bot:pw@mail.example.org" from="bot@example.org"/>"#,
                     #"<channel id="relay" url="smtp://bot:pw@mail.example.org:587?starttls=required" from="bot@example.org"/>"#,
                     #"<channel id="relay" url="smtp://bot:pw@127.0.0.1:25" from="bot@example.org"/>"#,
                     #"<channel id="relay" url="smtp://mail.example.org" from="bot@example.org"/>"#] {
            let quiet = try check(safe.replacingOccurrences(of: "/>", with: #" replyTo="bot+{token}@example.org"/>"#))
            #expect(quiet.status == 0 && !quiet.stderr.contains("warning: channel \"relay\""), "\(safe): \(quiet.stderr)")
        }
    }

    @Test("a Slack or Telegram channel without its secret gets link buttons, not presses chime serve would refuse (Telegram's spinning, nothing recorded), and chime check says so; with one, presses",
          arguments: ["slack", "telegram"])
    func chatWithoutSecret(kind: String) throws {
        let (channel, platform) = kind == "slack"
            ? (#"<channel id="team" url="slack://hooks.slack.com/services/T0/B0/X"/>"#, "Slack")
            : (#"<channel id="team" url="telegram://api.telegram.org/botTOKEN/sendMessage?chat_id=42"/>"#, "Telegram")
        let configuration = Self.configuration
            .replacingOccurrences(of: "</channels>", with: channel + "</channels>")
            .replacingOccurrences(of: "</recipient>", with: #"<address channel="team"/></recipient>"#)
        let ws = try Workspace(configuration: configuration)
        let check = try ws.chime(["check"])
        #expect(check.status == 0 && check.stderr.contains(#"warning: channel "team" has no secret: presses on \#(platform) buttons cannot be verified"#), "\(check.stderr)")
        try ws.write("r.json", #"{"identifier": "p", "recipient": "alice", "content": {"title": "Shopping", "categoryIdentifier": "shop"}, "trigger": {"type": "timeInterval", "seconds": 60}}"#)
        /// The message's buttons, and the field a press sends back in (a link has none).
        func buttons(_ previews: String = "always") throws -> (buttons: [[String: Any]], pressField: String) {
            let shown = try ws.chime(["preview", "--json", "r.json", "--channel", "team", "--previews", previews])
            let body = try #require(try JSONSerialization.jsonObject(with: Data(shown.stdout.utf8)) as? [String: Any], "\(shown.stderr)")
            if kind == "slack" {
                let blocks = body["blocks"] as? [[String: Any]] ?? []
                return (blocks.first { $0["type"] as? String == "actions" }?["elements"] as? [[String: Any]] ?? [], "value")
            }
            return (((body["reply_markup"] as? [String: Any])?["inline_keyboard"] as? [[[String: Any]]] ?? []).flatMap { $0 }, "callback_data")
        }
        let (links, field) = try buttons()
        #expect(links.count == 1 && links.allSatisfy { $0[field] == nil && ($0["url"] as? String)?.contains("/chime/links/a/") == true }, "\(links)")
        try ws.write("chat.key", String(repeating: "s", count: 32))
        try ws.write("chime.xml", configuration.replacingOccurrences(of: channel, with: channel.replacingOccurrences(of: "/>", with: #" secret="file:\#(ws.path("chat.key"))"/>"#)))
        #expect(!(try ws.chime(["check"]).stderr.contains("has no secret")))
        let pressable = try buttons().buttons
        #expect(pressable.count == 1 && pressable.allSatisfy { $0[field] != nil && $0["url"] == nil }, "\(pressable)")
        guard kind == "telegram" else { return }
        // A linkBase whose host has no dot, which Telegram refuses in a button: said, and no
        // such link sent (the message would be refused whole).
        try ws.write("chime.xml", try ws.read("chime.xml").replacingOccurrences(of: "https://reminders.example.org/chime/links", with: "http://chime:8080"))
        #expect(try ws.chime(["check"]).stderr.contains(#"warning: channel "team": Telegram refuses buttons that link to a host without a dot (chime)"#))
        let hidden = try buttons("never").buttons
        #expect(hidden.count == 1 && hidden.allSatisfy { $0["callback_data"] != nil && $0["url"] == nil }, "\(hidden)")
    }
}
