import ChimeCore
import Testing

@Suite("Channel URLs")
struct ChannelURLTests {
    @Test("accepted URLs and what they mean", arguments: [
        ("smtp://127.0.0.1:2525", ChannelKind.smtp, "127.0.0.1", 2525),
        ("smtps://mail.example.org", .smtps, "mail.example.org", nil),
        ("slack://hooks.slack.com/services/T000/B000/XXXX", .slack, "hooks.slack.com", nil),
        ("discord://discord.com/api/webhooks/1/abc", .discord, "discord.com", nil),
        ("mattermost://chat.example.org/hooks/KEY", .mattermost, "chat.example.org", nil),
        ("msteams://example.webhook.office.com/webhookb2/x", .msteams, "example.webhook.office.com", nil),
        ("telegram://api.telegram.org/botTOKEN/sendMessage?chat_id=42", .telegram, "api.telegram.org", nil),
        ("json://127.0.0.1:8080", .json, "127.0.0.1", 8080),
        // The platform's own URL, as pasted: its kind from its host.
        ("https://hooks.slack.com/services/T000/B000/XXXX", .slack, "hooks.slack.com", nil),
        ("https://discord.com/api/webhooks/1/abc", .discord, "discord.com", nil),
        ("https://discordapp.com/api/webhooks/1/abc", .discord, "discordapp.com", nil),
        ("https://example.webhook.office.com/webhookb2/x", .msteams, "example.webhook.office.com", nil),
        ("https://prod-12.westeurope.logic.azure.com:443/workflows/abc/triggers/manual/paths/invoke?sig=x", .msteams, "prod-12.westeurope.logic.azure.com", 443),
        ("https://api.telegram.org/botTOKEN/sendMessage?chat_id=42", .telegram, "api.telegram.org", nil),
    ] as [(String, ChannelKind, String, Int?)])
    func accepted(text: String, kind: ChannelKind, host: String, port: Int?) throws {
        let url = try ChannelURL(parsing: text)
        #expect(url.kind == kind)
        #expect(url.host == host)
        #expect(url.port == port)
    }

    @Test("local kinds take a path")
    func local() throws {
        #expect(try ChannelURL(parsing: "maildir:./outbox").path == "./outbox")
        #expect(try ChannelURL(parsing: "file:/var/log/chime.jsonl").path == "/var/log/chime.jsonl")
    }

    @Test("refused URLs and why", arguments: [
        ("gopher://x.example.org/", "unknown URL scheme \"gopher\" (expected one of smtp, smtps, maildir, file, slack, discord, mattermost, msteams, telegram, json, jsons, imap, imaps)"),
        ("hooks.slack.com/services/T/B/X", "the URL has no scheme (expected one of smtp, smtps, maildir, file, slack, discord, mattermost, msteams, telegram, json, jsons, imap, imaps)"),
        ("smtp:///nohost", "a smtp:// URL needs a host, as in smtp://mail.example.org:587"),
        ("slack://hooks.slack.com", "a slack:// URL needs the path the platform gave, as in slack://hooks.slack.com/services/T000/B000/XXXX"),
        ("maildir:", "a maildir: URL needs a path, as in maildir:./outbox"),
        ("smtp://mail.example.org?starttls=maybe", "starttls must be required or opportunistic"),
        ("smtp://mail.example.org?relay=yes", "unknown option \"relay\" for a smtp:// URL (known: starttls, pipelining, insecure)"),
        ("smtps://mail.example.org?pipelining=no", "pipelining must be true or false"),
        ("smtps://mail.example.org?size=1", "unknown option \"size\" for a smtps:// URL (known: pipelining, insecure)"),
        ("imap://imap.example.org/INBOX?pipelining=false", "unknown option \"pipelining\" for a imap:// URL (known: starttls, insecure)"),
        ("jsons://h.example.org/x?insecure=yes", "insecure must be true or false"),
        ("imaps://imap.example.org/INBOX?folder=x", "unknown option \"folder\" for a imaps:// URL (known: insecure)"),
        ("https://chat.example.org/hooks/KEY", "this https:// URL is no platform's known webhook host: write mattermost:// for Mattermost (its host is yours), jsons:// for a generic JSON webhook, or the platform's kind (slack, discord, mattermost, msteams, telegram, json, jsons) in place of https"),
        ("http://127.0.0.1:8080/hook", "an http:// URL is not a channel kind: write json:// for a generic JSON webhook over http"),
        ("https://hooks.slack.com.evil.test/services/T/B/X", "this https:// URL is no platform's known webhook host: write mattermost:// for Mattermost (its host is yours), jsons:// for a generic JSON webhook, or the platform's kind (slack, discord, mattermost, msteams, telegram, json, jsons) in place of https"),
    ])
    func refused(text: String, message: String) {
        #expect(throws: ChannelURL.ParseError(message: message)) { try ChannelURL(parsing: text) }
    }

    @Test("SMTP pipelines unless ?pipelining=false")
    func pipelining() throws {
        #expect(try ChannelURL(parsing: "smtp://mail.example.org").pipelining)
        #expect(try !ChannelURL(parsing: "smtp://mail.example.org?pipelining=false").pipelining)
        #expect(try ChannelURL(parsing: "smtps://mail.example.org?pipelining=true").pipelining)
    }

    @Test("a secret URL's scheme is not quoted")
    func secretScheme() {
        #expect(throws: ChannelURL.ParseError(message: "unknown URL scheme of the URL (expected one of smtp, smtps, maildir, file, slack, discord, mattermost, msteams, telegram, json, jsons, imap, imaps)")) {
            try ChannelURL(parsing: "hunter2:secret", isSecret: true)
        }
    }

    @Test("the description hides user information, path and query")
    func redacted() throws {
        let url = try ChannelURL(parsing: "smtp://bot:hunter2@mail.example.org:587/x?starttls=required")
        #expect(url.description == "smtp://mail.example.org:587/…")
        #expect(url.password == "hunter2")
        #expect(url.startTLS == .required)
        let hook = try ChannelURL(parsing: "slack://hooks.slack.com/services/T000/B000/XXXX")
        #expect(hook.description == "slack://hooks.slack.com/…")
    }

    @Test("an IMAP URL names its mailbox, INBOX by default, and takes starttls")
    func mailbox() throws {
        let url = try ChannelURL(parsing: "imap://chime:pw@imap.example.org/Replies%20to%20Chime?starttls=required")
        #expect(url.mailbox == "Replies to Chime")
        #expect(url.startTLS == .required && url.kind.isInbound && !url.kind.sendsOverNetwork && !url.kind.isWebhook)
        #expect(try ChannelURL(parsing: "imaps://imap.example.org").mailbox == "INBOX")
        #expect(url.description == "imap://imap.example.org/…")
    }

    @Test("a webhook's endpoint is the platform's https URL")
    func endpoint() throws {
        let url = try ChannelURL(parsing: "telegram://api.telegram.org/botTOKEN/sendMessage?chat_id=42&insecure=false")
        #expect(url.endpoint?.absoluteString == "https://api.telegram.org/botTOKEN/sendMessage?chat_id=42")
        #expect(try ChannelURL(parsing: "json://127.0.0.1:8080/hook").endpoint?.absoluteString == "http://127.0.0.1:8080/hook")
        #expect(try ChannelURL(parsing: "smtp://127.0.0.1").endpoint == nil)
        // As written: a token's %2B is no "+" (a space to the server), %2F no "/".
        let signed = try ChannelURL(parsing: "jsons://hooks.example.org/p/a%2Bb%2Fc?sig=ab%2Bc%2F%3D%3D&sp=%2Ftriggers")
        #expect(signed.endpoint?.absoluteString == "https://hooks.example.org/p/a%2Bb%2Fc?sig=ab%2Bc%2F%3D%3D&sp=%2Ftriggers")
        #expect(signed.endpointQuery.first?.value == "ab+c/==")
        #expect(try ChannelURL(parsing: "discord://discord.com/api/webhooks/1/a%2Bb").endpoint?.absoluteString
            == "https://discord.com/api/webhooks/1/a%2Bb?with_components=true")
    }
}
