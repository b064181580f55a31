import ChimeTestSupport
import Foundation
import Testing

/// A text-input action answered where its button is a link: the `/a/` page takes the
/// text; and what a person is asked after pressing one, in their language.
extension OperatorTests {
    /// Amélie reads French. Her reminders come by email and to a log (adding an item
    /// by email waits for proof); the chat channels
    /// are previewed or pressed through `chime serve` (their webhooks point at a closed
    /// port): Slack with and without its app's secret, Discord, Teams, Telegram and
    /// Mattermost. Bruno, also French, gets a thread's reminders as one message, on the
    /// Slack channel `hook` (without secret) names.
    static func textPagesConfiguration(_ ws: Workspace, hook: String) -> String {
        let key = #"secret="file:\#(ws.path("slack.key"))""#
        return frenchConfiguration(ws)
            .replacingOccurrences(of: #"<action identifier="trashAction" title="Delete list" destructive="true"/>"#,
                                  with: #"<textInputAction identifier="addItem" title="Add item" textInputButtonTitle="Add" textInputPlaceholder="Milk, eggs…" authenticationRequired="true"/>"#)
            .replacingOccurrences(of: "</channels>", with: """
                  <channel id="links" url="slack://127.0.0.1:9/services/T0/B0/Y"/>
                    <channel id="guild" url="discord://127.0.0.1:9/api/webhooks/1/x"/>
                    <channel id="teams" url="msteams://127.0.0.1:9/webhookb2/x"/>
                    <channel id="tg" url="telegram://127.0.0.1:9/botTOKEN/sendMessage?chat_id=42" \(key)/>
                    <channel id="mm" url="mattermost://127.0.0.1:9/hooks/KEY" \(key) apiToken="file:\(ws.path("slack.key"))"/>
                    <channel id="hook" \(hook)/>
                  </channels>
                """)
            .replacingOccurrences(of: #"<address channel="team">U1</address>"#,
                                  with: #"<address channel="team">U1</address><address channel="tg"></address><address channel="mm">u1</address>"#)
            .replacingOccurrences(of: "</recipients>", with: """
                  <recipient id="bruno" locale="fr" timeZone="Europe/Paris" groupWait="2m"><address channel="hook"/></recipient>
                  </recipients>
                """)
    }

    /// A workspace whose `templates/` holds only the French for the action's button and
    /// placeholder: every other string is chime's own, built in.
    /// - Parameter hook: the attributes of Bruno's Slack channel (a closed port by default).
    static func textPagesWorkspace(hook: String = #"url="slack://127.0.0.1:9/services/T0/B0/Z""#) throws -> Workspace {
        let ws = try Workspace()
        try ws.write("slack.key", String(repeating: "k", count: 32))
        try ws.write("chime.xml", Self.textPagesConfiguration(ws, hook: hook))
        try FileManager.default.createDirectory(at: ws.url.appendingPathComponent("templates/fr"), withIntermediateDirectories: true)
        try ws.write("templates/fr/Localizable.strings", #""Add" = "Ajouter";"# + "\n" + #""Milk, eggs…" = "Lait, œufs…";"# + "\n")
        return ws
    }

    /// Amélie's workspace with one shopping reminder sent, what its chat buttons and links
    /// carry, and `chime serve` on it (for the caller to stop).
    static func servedReminder() throws -> (ws: Workspace, chat: ServeTests.Chat, server: ServeTests.Server) {
        let ws = try Self.textPagesWorkspace()
        _ = try ReplyCorpusTests.send(ws, ["list"], category: "shoppingListReminderCategory", recipient: "amelie", runMustSucceed: false)
        return (ws, try ServeTests.chat(ws, "list"), try ServeTests.Server(ws))
    }

    static let formHeaders = ["Content-Type": "application/x-www-form-urlencoded"]

    /// A form's body with `text` in it, as a browser sends it.
    static func form(text: String) -> [UInt8] {
        var allowed = CharacterSet.alphanumerics
        allowed.remove(charactersIn: "+&=")
        return Array(("text=" + (text.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")).utf8)
    }

    @Test("a text-input action's link page asks for its text in the recipient's language: GET shows a field with its placeholder and its button title and records nothing; an empty or too long text is refused in French with the field again, recording nothing; the typed text is recorded as the response's text, once")
    func textOnThePage() throws {
        let (ws, chat, server) = try Self.servedReminder()
        defer { server.stop() }
        let link = try #require(chat.links["addItem"])

        // GET: the question, a text field with the placeholder, the button that sends it.
        var page = try server.request("GET", link)
        #expect(page.status == 200 && page.body.contains(#"<html lang="fr""#) && page.body.contains("<h1>Shopping</h1>"), "\(page)")
        #expect(page.body.contains("<p>Votre texte pour « Ajouter un article » :</p>"), "\(page)")
        let field = try #require(page.body.firstMatch(of: /<textarea [^>]*>/)?.output, "\(page)")
        #expect(field.contains(#"name="text""#) && field.contains(#"placeholder="Lait, œufs…""#) && field.contains(" required"), "\(field)")
        #expect(page.body.contains(#"<form method="post">"#) && page.body.contains(">Ajouter</button>"), "\(page)")
        #expect(try ServeTests.responses(ws).isEmpty, "a GET never acts")
        // Any other action's page has no field.
        page = try server.request("GET", try #require(chat.links["justInform"]))
        #expect(page.body.contains("Effectuer « OK, compris » ?") && !page.body.contains("<textarea"), "\(page)")

        // Sent empty (blank, or no form at all), or longer than a page may send: refused in
        // French, the field shown again, nothing recorded.
        for body in [Self.form(text: " \n "), []] {
            page = try server.request("POST", link, headers: Self.formHeaders, body: body)
            #expect(page.status == 400 && page.body.contains("Shopping : saisissez d’abord votre texte pour « Ajouter un article »."), "\(page)")
            #expect(page.body.contains("<textarea") && page.body.contains(">Ajouter</button>"), "\(page)")
        }
        // Over 4 KB: as read (ASCII), or already as sent (percent-encoded, three bytes a byte).
        for long in [String(repeating: "a", count: 4100), String(repeating: "é", count: 2100)] {
            page = try server.request("POST", link, headers: Self.formHeaders, body: Self.form(text: long))
            #expect(page.status == 413 && page.body.contains("Shopping : votre texte pour « Ajouter un article » est trop long."), "\(page)")
        }
        #expect(try ServeTests.responses(ws).isEmpty, "nothing recorded")

        // The text typed: recorded as the response's text, and said back.
        page = try server.request("POST", link, headers: Self.formHeaders, body: Self.form(text: "Lait d’avoine, 2 citrons & du pain\n"))
        #expect(page.status == 200 && page.body.contains("Shopping : « Ajouter un article » bien reçu. (Lait d’avoine, 2 citrons &amp; du pain)"), "\(page)")
        #expect(!page.body.contains("<textarea"), "\(page)")
        let responses = try ServeTests.responses(ws)
        #expect(responses.count == 1 && responses.first?["actionIdentifier"] as? String == "addItem", "\(responses)")
        #expect(responses.first?["userText"] as? String == "Lait d’avoine, 2 citrons & du pain", "\(responses)")
        #expect(responses.first?["channel"] as? String == "link")
        // Once: the same link again is a replay, whatever its text.
        page = try server.request("POST", link, headers: Self.formHeaders, body: Self.form(text: "encore"))
        #expect(page.body.contains("Shopping : « Ajouter un article » était déjà fait."), "\(page)")
        #expect(try ServeTests.responses(ws).count == 1)
    }

    @Test("a text-input action answered by email that waits for proof is confirmed by its confirmation link's page with no text to type: the text of the reply stays")
    func confirmedWithoutField() throws {
        let ws = try Self.textPagesWorkspace()
        let sent = try #require(try ReplyCorpusTests.send(ws, ["list"], category: "shoppingListReminderCategory", recipient: "amelie",
                                                          runMustSucceed: false)["list"])
        let ingest = try ReplyCorpusTests.ingest(ws, ReplyCorpusTests.reply(sent, from: "amelie@example.fr", body: "2 du pain"))
        #expect(ingest.stdout.contains("(awaiting confirmation)"), "\(ingest.stdout) \(ingest.stderr)")
        // The answer shows the text its link confirms.
        #expect(ingest.stdout.contains("Veuillez confirmer « Ajouter un article » avec « du pain » ici : http://127.0.0.1/a/"), "\(ingest.stdout)")
        let link = String(try #require(ingest.stdout.firstMatch(of: /http:\/\/127\.0\.0\.1(\/a\/[a-z2-7]+\/addItem)/)).output.1)
        let server = try ServeTests.Server(ws)
        defer { server.stop() }
        let page = try server.request("GET", link)
        // The page shows the text it would carry out.
        #expect(page.body.contains("Effectuer « Ajouter un article » avec « du pain » ?") && !page.body.contains("<textarea"), "\(page)")
        let confirmed = try server.request("POST", link, headers: Self.formHeaders)
        #expect(confirmed.status == 200 && confirmed.body.contains("Shopping : « Ajouter un article » confirmé"), "\(confirmed)")
        let responses = try ServeTests.responses(ws)
        #expect(responses.count == 1 && responses.first?["userText"] as? String == "du pain", "\(responses)")
        #expect(responses.first?["status"] as? String == "carried out", "\(responses)")
    }

    @Test("a text waiting for confirmation gives way to the recipient's own: the action's link pressed with another text carries that one out, not the one anyone with the reply address could have sent")
    func waitingTextGivesWay() throws {
        let ws = try Self.textPagesWorkspace()
        let sent = try #require(try ReplyCorpusTests.send(ws, ["list"], category: "shoppingListReminderCategory", recipient: "amelie",
                                                          runMustSucceed: false)["list"])
        // Someone who had the reply address, writing as Amélie without proof.
        let forged = try ReplyCorpusTests.ingest(ws, ReplyCorpusTests.reply(sent, from: "amelie@example.fr", body: "2 10 kg de caviar"))
        #expect(forged.stdout.contains("(awaiting confirmation)") && forged.stdout.contains("avec « 10 kg de caviar »"), "\(forged.stdout)")
        let chat = try ServeTests.chat(ws, "list")
        let server = try ServeTests.Server(ws)
        defer { server.stop() }
        let link = try #require(chat.links["addItem"])
        // The action's page sent without a text does not confirm the one that waits: it
        // asks for the text.
        let empty = try server.request("POST", link, headers: Self.formHeaders, body: Self.form(text: ""))
        #expect(empty.body.contains("<textarea") && !empty.body.contains("confirmé"), "\(empty)")
        #expect(try ServeTests.responses(ws).first?["status"] as? String == "awaiting confirmation")
        let page = try server.request("POST", link, headers: Self.formHeaders, body: Self.form(text: "du lait"))
        #expect(page.status == 200 && page.body.contains("(du lait)"), "\(page)")
        let responses = try ServeTests.responses(ws)
        #expect(responses.count == 1 && responses.first?["userText"] as? String == "du lait", "\(responses)")
        #expect(responses.first?["status"] as? String == "carried out", "\(responses)")
    }

    @Test("a text-input action's button that opens its page (Discord, Teams, Slack without secret) says to type the text on that page, with the placeholder, in each shipped language; Slack with its secret says to reply; a thread's reminders grouped as one chat message say it of their links, which lead to the page that takes the text")
    func textPagesExplained() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("chime-textpages-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let (hook, certificate) = try WebhookServer.https(in: folder)
        let ws = try Self.textPagesWorkspace(hook: #"url="slack://127.0.0.1:\#(hook.port)/ok" caFile="\#(certificate.cert)""#)
        try ws.write("r.json", #"{"identifier": "p", "recipient": "amelie", "content": {"title": "Shopping", "categoryIdentifier": "shoppingListReminderCategory"}, "trigger": {"type": "timeInterval", "seconds": 60}}"#)
        func preview(_ channel: String, locale: String = "fr") throws -> [String: Any] {
            let shown = try ws.chime(["preview", "--json", "r.json", "--channel", channel, "--locale", locale])
            return try #require(try JSONSerialization.jsonObject(with: Data(shown.stdout.utf8)) as? [String: Any], "\(shown.stderr)")
        }
        func teamsText(_ body: [String: Any]) -> String {
            let card = ((body["attachments"] as? [[String: Any]])?.first?["content"] as? [String: Any])?["body"] as? [[String: Any]]
            // Each RichTextBlock's TextRuns, where Teams cards carry people's text.
            return (card ?? []).flatMap { $0["inlines"] as? [[String: Any]] ?? [] }.compactMap { $0["text"] as? String }.joined(separator: "\n")
        }
        func slackText(_ body: [String: Any]) -> String {
            ((body["blocks"] as? [[String: Any]]) ?? []).map { CoalescingTests.shown($0).text }.joined(separator: "\n")
        }
        let french = try Self.shipped("ui.textPage", "fr", ["Ajouter un article"]) + " (Lait, œufs…)"
        #expect(french == "Ajouter un article : appuyez dessus, puis saisissez votre texte sur la page qui s’ouvre (Lait, œufs…)")

        // Each language its own way (the placeholder is translated in French only).
        var lines: [String: String] = [:]
        for locale in ["en", "fr", "de", "es", "ru", "pl", "ar", "ja"] {
            let title = try Self.shipped("Add item", locale, [])
            let line = try Self.shipped("ui.textPage", locale, [title]) + (locale == "fr" ? " (Lait, œufs…)" : " (Milk, eggs…)")
            let text = teamsText(try preview("teams", locale: locale))
            #expect(text.contains(line), "\(locale): \(line)\n\(text)")
            lines[locale] = line
        }
        #expect(Set(lines.values).count == 8, "\(lines)")
        // Discord (its markdown escaped) and Slack's link buttons say the same.
        let discord = try preview("guild")
        let description = (((discord["embeds"] as? [[String: Any]])?.first)?["description"] as? String) ?? ""
        #expect(description.replacingOccurrences(of: "\\", with: "").contains(french), "\(description)")
        let links = try preview("links")
        #expect(slackText(links).contains(french), "\(links)")
        // Slack with its app's secret brings the text back in the thread: it says to reply.
        let team = slackText(try preview("team"))
        #expect(team.contains(try Self.shipped("ui.textReply", "fr", ["Ajouter un article"]) + " (Lait, œufs…)") && !team.contains("page"), "\(team)")

        // Bruno's thread of two goes as one message: each item's text-input link says so,
        // and the page it leads to takes the text.
        let requests = ["g1", "g2"].enumerated().map { index, id in
            #"{"identifier": "\#(id)", "recipient": "bruno", "content": {"title": "Liste \#(id)", "categoryIdentifier": "shoppingListReminderCategory", "threadIdentifier": "courses"}, "trigger": {"type": "date", "fireDate": "2026-11-24T12:00:\#(index * 30 + 10)", "timeZone": "Europe/Paris"}}"#
        }
        try ws.write("group.json", "[" + requests.joined(separator: ",") + "]")
        #expect(try ws.chime(["schedule", "--json", "group.json"], now: "2026-11-24T10:00:00Z").status == 0)
        let run = try ws.chime(["run"], now: "2026-11-24T11:03:00Z")
        #expect(run.stdout.contains("1 thread sent as one message (2 notifications)"), "\(run.stdout) \(run.stderr)")
        let post = try #require(try hook.requests().compactMap { $0["body"] as? String }.last)
        let text = slackText(try #require(try JSONSerialization.jsonObject(with: Data(post.utf8)) as? [String: Any]))
        let items = text.matches(of: /Ajouter un article : appuyez dessus, puis saisissez votre texte sur la page qui s’ouvre \(Lait, œufs…\): http:\/\/127\.0\.0\.1(\/a\/[a-z2-7]+\/addItem)/)
        #expect(items.count == 2, "\(text)")
        let link = String(try #require(items.first).output.1)
        let server = try ServeTests.Server(ws, ["--now", "2026-11-24T11:05:00Z"])
        defer { server.stop() }
        #expect(try server.request("GET", link).body.contains(#"placeholder="Lait, œufs…""#))
        let page = try server.request("POST", link, headers: Self.formHeaders, body: Self.form(text: "du beurre"))
        #expect(page.status == 200 && page.body.contains("« Ajouter un article » bien reçu. (du beurre)"), "\(page)")
        #expect(try ServeTests.responses(ws).first?["userText"] as? String == "du beurre")
    }

    @Test("what chime serve asks after a text-input button is pressed is in the recipient's language and shows the placeholder: Slack's and Mattermost's thread prompt, Slack's answer where no thread is known, Telegram's ForceReply prompt and its input placeholder; the reply to that prompt is recorded as the text")
    func textPromptsInTheirLanguage() throws {
        let (ws, chat, server) = try Self.servedReminder()
        defer { server.stop() }
        let secret = try ws.read("slack.key")
        func slack(_ press: String) throws -> String {
            let answer = try ServeTests.slack(server, form: press, secret: secret)
            let json = try JSONSerialization.jsonObject(with: Data(answer.body.utf8)) as? [String: Any]
            return try #require(json?["text"] as? String, "\(answer)")
        }

        // Slack: asked in the message's thread; with no message to thread under, in the answer.
        var asked = try slack(#"{"type":"block_actions","user":{"id":"U1"},"container":{"type":"message","message_ts":"1700000000.000100","channel_id":"C1"},"actions":[{"action_id":"a","value":"\#(chat.button(2))"}]}"#)
        #expect(asked == "Répondez dans le fil de ce message avec votre texte pour « Ajouter un article » (Lait, œufs…)", "\(asked)")
        asked = try slack(#"{"type":"block_actions","user":{"id":"U1"},"actions":[{"action_id":"a","value":"\#(chat.button(2))"}]}"#)
        #expect(asked == "Répondez avec votre texte pour « Ajouter un article » (Lait, œufs…)", "\(asked)")

        // Mattermost: asked in the post's thread.
        let press = #"{"user_id":"u1","post_id":"reminder00000000000000000","channel_id":"c1","context":{"token":"\#(chat.button(2))"}}"#
        let mattermost = try server.request("POST", "/mattermost/mm", body: Array(press.utf8))
        let ephemeral = (try JSONSerialization.jsonObject(with: Data(mattermost.body.utf8)) as? [String: Any])?["ephemeral_text"] as? String
        #expect(ephemeral.map(markdownShown) == "Répondez dans le fil de ce message avec votre texte pour « Ajouter un article » (Lait, œufs…)", "\(mattermost)")
        // Its title links to the action's page, where a direct message's reader (whose
        // thread no outgoing webhook brings) types the text.
        let page = "/a/\(chat.button(2).split(separator: ".")[0])/2)"
        #expect(ephemeral?.contains("« [Ajouter un article](http") == true && ephemeral?.contains(page) == true, "\(mattermost)")

        // Telegram: the ForceReply prompt, its link on the action's title, the placeholder in
        // the text and in the input field.
        let headers = ["X-Telegram-Bot-Api-Secret-Token": secret]
        let query = #"{"update_id":2,"callback_query":{"id":"q2","from":{"id":42},"data":"\#(chat.button(2))","message":{"message_id":7,"chat":{"id":42}}}}"#
        let prompt = try server.request("POST", "/telegram/tg", headers: headers, body: Array(query.utf8))
        let json = try #require(try JSONSerialization.jsonObject(with: Data(prompt.body.utf8)) as? [String: Any], "\(prompt)")
        let token = chat.button(2).split(separator: ".")[0]
        let link = "http://127.0.0.1/a/\(token)/2"
        #expect(json["text"] as? String == #"<a href="\#(link)">Ajouter un article</a> : répondez à ce message avec votre texte (Lait, œufs…)"#, "\(json)")
        #expect((json["reply_markup"] as? [String: Any])?["input_field_placeholder"] as? String == "Lait, œufs…", "\(json)")
        #expect(try ServeTests.responses(ws).isEmpty, "asking records nothing")
        // The reply to the prompt is the text, answered in French.
        let answer = #"{"update_id":3,"message":{"message_id":9,"from":{"id":42},"chat":{"id":42},"text":"Du lait","reply_to_message":{"from":{"id":7,"is_bot":true},"message_id":8,"text":"Ajouter un article : répondez à ce message avec votre texte (Lait, œufs…)","entities":[{"type":"text_link","offset":0,"length":18,"url":"\#(link)"}]}}}"#
        let done = try server.request("POST", "/telegram/tg", headers: headers, body: Array(answer.utf8))
        #expect(done.body.contains("Shopping : « Ajouter un article » bien reçu. (Du lait)"), "\(done)")
        #expect(try ServeTests.responses(ws).first?["userText"] as? String == "Du lait")
    }
}
