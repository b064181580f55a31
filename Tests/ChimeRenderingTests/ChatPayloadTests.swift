import ChimeCore
import ChimeLocalization
@testable import ChimeRendering
import ChimeTestSupport
import Foundation
import Testing

@Suite("Chat payloads")
struct ChatPayloadTests {
    static let kinds: [ChannelKind] = [.slack, .discord, .mattermost, .msteams, .telegram, .json]

    private func message(title: String, body: String, previews: Recipient.ShowPreviews = .always) -> ChatMessage {
        let actions = [
            ChatMessage.Action(identifier: "justInform", number: 1, title: "OK, got it", url: "https://chime.example.org/a/1", token: "t1"),
            ChatMessage.Action(identifier: "editList", number: 2, title: "Edit list", options: [.foreground, .authenticationRequired], url: "https://example.org/lists/1", opensTarget: true, token: "t2"),
            ChatMessage.Action(identifier: "trashAction", number: 3, title: "Delete list", options: [.destructive, .authenticationRequired], url: "https://chime.example.org/a/3", token: String(repeating: "x", count: 100)),
        ]
        return ChatMessage(
            surfaces: PreviewSurfaces(title: title, subtitle: "Groceries", body: body, showPreviews: previews, options: [], placeholder: "Shopping reminder", threadCount: 1),
            title: title, subtitle: "Groceries", body: body, text: previews == .never ? "" : "Groceries\n\n" + body, dateText: "Tuesday, November 24 at 09:00",
            actions: actions, minimalActions: [actions[2], actions[1]], viewURL: "https://chime.example.org/v/1")
    }

    /// Telegram's text as it shows it: the tags of its HTML parse mode removed, the
    /// entities it knows decoded.
    static func telegramParsed(_ html: String) -> String {
        html.replacingOccurrences(of: "<[^>]*>", with: "", options: .regularExpression)
            .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&amp;", with: "&")
    }

    private func json(_ kind: ChannelKind, _ message: ChatMessage) throws -> [String: Any] {
        let data = ChatPayload.encode(ChatPayload.body(for: kind, message))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test("10,000-character bodies and 200-character titles stay within every platform's limits", arguments: kinds)
    func limits(kind: ChannelKind) throws {
        let title = String(repeating: "Títle👍 x", count: 25)
        let body = String(repeating: "Milk & <eggs> *now* 👨‍👩‍👧‍👦 ", count: 460)
        #expect(title.count == 200)
        #expect(body.count >= 10_000)
        let payload = try json(kind, message(title: title, body: body))
        let data = ChatPayload.encode(ChatPayload.body(for: kind, message(title: title, body: body)))
        switch kind {
        case .slack:
            let blocks = try #require(payload["blocks"] as? [[String: Any]])
            #expect(((blocks[0]["text"] as? [String: Any])?["text"] as? String)?.utf16.count ?? 999 <= 150)
            #expect(((blocks[1]["text"] as? [String: Any])?["text"] as? String)?.utf16.count ?? 9999 <= 3000)
            #expect((payload["text"] as? String)?.utf16.count ?? 9999 <= 3000)
            let buttons = try #require(blocks.last?["elements"] as? [[String: Any]])
            #expect(buttons.allSatisfy { (($0["text"] as? [String: Any])?["text"] as? String)?.utf16.count ?? 99 <= 75 })
            #expect(buttons.contains { $0["style"] as? String == "danger" && $0["confirm"] != nil })
        case .discord:
            #expect((payload["content"] as? String)?.unicodeScalars.count ?? 9999 <= 2000)
            let embed = try #require((payload["embeds"] as? [[String: Any]])?.first)
            let title = try #require(embed["title"] as? String)
            let description = try #require(embed["description"] as? String)
            #expect(title.unicodeScalars.count <= 256)
            #expect(description.unicodeScalars.count <= 4096)
            #expect(title.unicodeScalars.count + description.unicodeScalars.count + 40 <= 6000)
            let rows = try #require(payload["components"] as? [[String: Any]])
            #expect(rows.allSatisfy { ($0["components"] as? [Any])?.count ?? 9 <= 5 })
        case .mattermost:
            #expect((payload["text"] as? String)?.unicodeScalars.count ?? 99999 <= 16_383)
            let attachment = try #require((payload["attachments"] as? [[String: Any]])?.first)
            let actions = try #require(attachment["actions"] as? [[String: Any]])
            #expect(actions.allSatisfy { ($0["id"] as? String)?.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) } == true })
        case .msteams:
            #expect(data.count <= 28_000)
            let content = try #require(((payload["attachments"] as? [[String: Any]])?.first)?["content"] as? [String: Any])
            #expect((content["actions"] as? [[String: Any]])?.allSatisfy { $0["type"] as? String == "Action.OpenUrl" } == true)
        case .telegram:
            // Telegram counts its 4,096 after parsing the HTML: tags out, entities decoded.
            #expect(Self.telegramParsed(try #require(payload["text"] as? String)).utf16.count <= 4096)
            let rows = try #require((payload["reply_markup"] as? [String: Any])?["inline_keyboard"] as? [[[String: Any]]])
            for button in rows.flatMap({ $0 }) {
                if let data = button["callback_data"] as? String { #expect(data.utf8.count <= 64 && !data.isEmpty) }
            }
        default:
            #expect(payload["actions"] != nil && payload["minimalActions"] != nil)
        }
    }

    @Test("never: no word of the content anywhere in any payload (random content, through the composer and its templates)", arguments: kinds)
    func neverLeaks(kind: ChannelKind) throws {
        var generator = SplitMix(seed: 7)
        let templates = EmailComposerTests.templates
        let composer = ChatComposer(localizer: try Localizer(directory: templates), templates: try TemplateSet(directory: templates))
        let channel = Channel(id: "chat", url: try ChannelURL(parsing: "\(kind.rawValue)://hooks.example.org/path"))
        for _ in 0..<100 {
            let words = generator.words(12, length: 7, alphabet: Array("bcdfghjkmnpqrstvwxzжщ"))
            var content = NotificationContent(title: words[0...2].joined(separator: " "), body: words[5...].joined(separator: " "),
                                              categoryIdentifier: EmailComposerTests.shopping.identifier)
            content.subtitle = words[3...4].joined(separator: " ")
            let notification = OutgoingNotification(
                request: NotificationRequest(identifier: "n", recipient: "r", content: content, trigger: .timeInterval(seconds: 60, repeats: false)),
                recipient: Recipient(id: "r", locale: "en", timeZone: "Europe/Paris", showPreviews: .never),
                address: .init(channel: "chat", value: ""), channel: channel,
                fireDate: Instant(seconds: 1_795_507_200), deliveryID: "d1", coalesced: 0)
            let m = try composer.compose(notification, category: EmailComposerTests.shopping)
            let text = String(decoding: ChatPayload.encode(ChatPayload.body(for: kind, m)), as: UTF8.self)
            for word in words {
                #expect(!text.contains(word), "\(kind): \(word) leaked")
            }
            #expect(text.contains("Shopping reminder"))
        }
    }

    @Test("a destructive action's confirmation on Slack keeps its question whole under a long title: the title is cut inside it")
    func confirmationKeepsQuestion() throws {
        let templates = EmailComposerTests.templates
        let composer = ChatComposer(localizer: try Localizer(directory: templates), templates: try TemplateSet(directory: templates))
        let channel = Channel(id: "chat", url: try ChannelURL(parsing: "slack://hooks.slack.com/services/T0/B0/X"))
        let content = NotificationContent(title: String(repeating: "Weekly groceries ", count: 20), categoryIdentifier: EmailComposerTests.shopping.identifier)
        let notification = OutgoingNotification(
            request: NotificationRequest(identifier: "n", recipient: "r", content: content, trigger: .timeInterval(seconds: 60, repeats: false)),
            recipient: Recipient(id: "r", locale: "en", timeZone: "Europe/Paris"),
            address: .init(channel: "chat", value: ""), channel: channel,
            fireDate: Instant(seconds: 1_795_507_200), deliveryID: "d1", coalesced: 0)
        let m = try composer.compose(notification, category: EmailComposerTests.shopping)
        let text = String(decoding: ChatPayload.encode(ChatPayload.body(for: .slack, m)), as: UTF8.self)
        let payload = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        let buttons = (payload["blocks"] as? [[String: Any]] ?? []).flatMap { $0["elements"] as? [[String: Any]] ?? [] }
        let confirm = try #require(buttons.compactMap { ($0["confirm"] as? [String: Any])?["text"] as? [String: Any] }.first?["text"] as? String)
        #expect(confirm.hasSuffix("…”: are you sure? This cannot be undone.") && confirm.count <= 300, "\(confirm)")
    }

    @Test("user text is escaped for each platform's markup")
    func escaping() throws {
        let m = message(title: "<b>bold</b> & *stars*", body: "<script>@everyone</script>")
        let slack = try json(.slack, m)
        #expect(slack["text"] as? String == "&lt;b&gt;bold&lt;/b&gt; &amp; *stars*: Groceries: &lt;script&gt;@everyone&lt;/script&gt;")
        #expect(slack["mrkdwn"] as? Bool == false)
        let telegram = try json(.telegram, m)
        #expect((telegram["text"] as? String)?.contains("&lt;b&gt;bold&lt;/b&gt; &amp;") == true)
        let discord = try json(.discord, m)
        #expect((discord["allowed_mentions"] as? [String: Any])?["parse"] as? [Any] != nil)
        #expect((discord["content"] as? String)?.contains("\\*stars\\*") == true)
    }

    @Test("a < or @ joined to a mark in one character is escaped all the same: no link, mention or tag gets through")
    func escapingByScalar() throws {
        let m = message(title: "Rent \u{0605}<a href=\"https://evil.example\">\u{034F}pay\u{0605}</a>\u{034F}",
                        body: "Team \u{0605}<!channel>\u{034F} \u{0605}@here <\u{0338}")
        let slack = try #require(try json(.slack, m)["text"] as? String)
        #expect(!slack.contains("<!channel>") && !slack.contains("<a href"))
        #expect(slack.contains("\u{0605}&lt;!channel&gt;\u{034F}"))
        let telegram = try #require(try json(.telegram, m)["text"] as? String)
        #expect(!telegram.contains("<a href") && !telegram.contains("<\u{0338}"))
        #expect(telegram.contains("\u{0605}@\u{2060}here"))
        let discord = try #require(try json(.discord, m)["content"] as? String)
        #expect(discord.contains("\u{0605}\\<\\!") || discord.contains("\u{0605}\\<!"))
        let mattermost = try #require(try json(.mattermost, m)["text"] as? String)
        #expect(mattermost.contains("\u{0605}@\u{2060}here"))
    }

    @Test("in Discord and Mattermost markdown a web address goes as written, and still links where it points")
    func linksKept() throws {
        let m = message(title: "On call", body: "Rota: https://wiki.example.org/on-call_rota?week=4 and *not* this_")
        for kind in [ChannelKind.discord, .mattermost] {
            let payload = String(decoding: ChatPayload.encode(ChatPayload.body(for: kind, m)), as: UTF8.self)
            #expect(payload.contains("https://wiki.example.org/on-call_rota?week=4 and \\\\*not\\\\* this\\\\_"), "\(kind): \(payload)")
        }
        #expect(TextLimit.linkRuns(Array("see https://a.example/x_y) [z](http://b.example)")) == IndexSet(integersIn: 4..<26).union(IndexSet(integersIn: 31..<48)))
        // Addresses with @, parentheses and the like go whole, unescaped: they link where they point.
        let people = message(title: "Links", body: "Profile: https://mastodon.social/@alice Wiki: https://en.wikipedia.org/wiki/Mercury_(planet) [x](y)")
        for kind in [ChannelKind.discord, .mattermost] {
            let payload = String(decoding: ChatPayload.encode(ChatPayload.body(for: kind, people)), as: UTF8.self)
            #expect(payload.contains("https://mastodon.social/@alice ") && payload.contains("https://en.wikipedia.org/wiki/Mercury_(planet) "), "\(kind): \(payload)")
            #expect(payload.contains("\\\\[x\\\\]"), "markup outside an address is still escaped: \(kind): \(payload)")
        }
    }

    @Test("a Mattermost title that links to the view page (content hidden) is plain text, as Mattermost shows it: no markdown backslashes; @ still no mention")
    func mattermostLinkedTitle() throws {
        var m = message(title: "Tea", body: "b", previews: .never)
        m.surfaces = PreviewSurfaces(title: "Tea", subtitle: "", body: "b", showPreviews: .never, options: [],
                                     placeholder: "Reminder (private) - to-do & more @here", threadCount: 1)
        let attachment = try #require((try json(.mattermost, m)["attachments"] as? [[String: Any]])?.first)
        #expect(attachment["title"] as? String == "Reminder (private) - to-do & more @\u{2060}here", "\(attachment)")
        #expect(attachment["title_link"] as? String == "https://chime.example.org/v/1")
        // Shown content has no link: its title is markdown, escaped as such.
        let shown = try #require((try json(.mattermost, message(title: "Tea (hot)", body: "b"))["attachments"] as? [[String: Any]])?.first)
        #expect(shown["title"] as? String == "Tea \\(hot\\)" && shown["title_link"] == nil, "\(shown)")
    }

    @Test("a Mattermost post links the target of a foreground action under its text (its buttons only call back, and the target was nowhere in the post), within the attachment's 7,000 characters whatever the body's length")
    func mattermostTargetLinks() throws {
        for body in ["b", String(repeating: "Milk & <eggs> ", count: 800)] {
            var m = message(title: "Tea", body: body)
            m.actions[1].url = "https://example.org/lists/(1)?a=1"
            let attachment = try #require((try json(.mattermost, m)["attachments"] as? [[String: Any]])?.first)
            let text = try #require(attachment["text"] as? String)
            #expect(text.hasSuffix("\n\n[Edit list](https://example.org/lists/%281%29?a=1)"), "\(text.suffix(200))")
            #expect(text.unicodeScalars.count <= 7000, "\(text.unicodeScalars.count)")
            #expect(!text.contains("chime.example.org/a/"), "actions that call back are not links")
        }
        let plain = try #require((try json(.mattermost, message(title: "Tea", body: "b"))["attachments"] as? [[String: Any]])?.first)
        #expect((plain["text"] as? String)?.contains("](") == true, "the helper's message has a foreground action with a target")
    }

    @Test("a grouped Telegram message in a right-to-left language marks every line: each entry's first, not only the first entry's, and the line saying how many more", arguments: [3, 300])
    func telegramGroupedRightToLeft(count: Int) throws {
        var m = message(title: "Tea", body: "b")
        let entries = (1...count).map { "\($0). Item \($0) pour Anna\nsecond line of item \($0)" }
        m.list = ChatMessage.List(entries: entries) { "… and \($0) more" }
        m.text = entries.joined(separator: "\n")
        m.rightToLeft = true
        let text = try #require(try json(.telegram, m)["text"] as? String)
        let lines = Self.telegramParsed(text).split(separator: "\n", omittingEmptySubsequences: true)
        #expect(lines.count >= 6, "\(lines)")
        #expect(lines.allSatisfy { $0.contains("\u{200F}") }, "\(lines.filter { !$0.contains("\u{200F}") })")
        if count > 3 { #expect(lines.contains { $0.hasSuffix(" more") }, "\(lines.suffix(2))") }
        #expect(Self.telegramParsed(text).utf16.count <= 4096)
    }

    @Test("no text notifies a whole Mattermost channel: not a character reference, not an address")
    func mattermostMentionsHidden() throws {
        let m = message(title: "Standup &#64;channel", body: "Notes: https://x.example/@channel and https://x.example/a@here, mail me@example.org, &commat;all"
                            + " https://@Here.example.org/x https://x.example/?a&#64;all https://x.example/#/@alice https://bob@channel.example/")
        let payload = try json(.mattermost, m)
        let text = try #require(payload["text"] as? String)
        let attachment = try #require((payload["attachments"] as? [[String: Any]])?.first)
        let title = try #require(attachment["title"] as? String)
        for shown in [text, title] {
            // Mattermost reads `&#64;` as `@` before it looks for mentions; `\&` is a literal `&`.
            #expect(shown.contains("\\&\\#64;channel") && !shown.replacingOccurrences(of: "\\&", with: "").contains("&"), "\(shown)")
        }
        #expect(text.contains("\\&commat;all"), "\(text)")
        #expect(text.contains("https://x.example/%40channel "), "\(text)")
        // An `@` inside a word, or before a name that notifies no channel, is left as written.
        #expect(text.contains("https://x.example/a@here,") && text.contains("https://x.example/#/@alice ") && text.contains("https://bob@channel.example/"), "\(text)")
        // One in the host part, or a character reference, and the address is escaped as text.
        #expect(text.contains("https://@\u{2060}Here.example.org/x") && text.contains("https://x.example/?a\\&\\#64;all"), "\(text)")
        let answer = ChatAnswer.mattermost("see https://x.example/@all &#64;here")
        #expect(answer == "see https://x.example/%40all \\&\\#64;here", "\(answer)")
    }

    @Test("Telegram writes web addresses as typed: no word joiner inside one, which had sent the link elsewhere")
    func telegramLinksWhole() throws {
        let m = message(title: "Profile", body: "See https://mastodon.social/@alice or ask @bob")
        let text = try #require(try json(.telegram, m)["text"] as? String)
        #expect(text.contains("https://mastodon.social/@alice "), "\(text)")
        #expect(text.contains("@\u{2060}bob"), "\(text)")
        #expect(ChatAnswer.telegramMessage("https://youtube.com/@handle, @bob") == "https://youtube.com/@handle, @\u{2060}bob")
        // Telegram does not link an address whose host is no domain name, and finds a mention in it.
        #expect(ChatAnswer.telegramMessage("https://intranet/@alice_admin https://x.c/@bob https://@carol") == "https://intranet/@\u{2060}alice_admin https://x.c/@\u{2060}bob https://@\u{2060}carol")
    }

    @Test("a Discord application's link button never carries a url past 512 characters: it leads to the view page")
    func discordInteractiveLongLink() throws {
        var m = message(title: "t", body: "b")
        m.actions[1].url = "https://example.org/" + String(repeating: "a", count: 600)
        let payload = String(decoding: ChatPayload.encode(ChatPayload.discordInteractive(m)), as: UTF8.self)
        #expect(!payload.contains(String(repeating: "a", count: 600)))
        #expect(payload.contains("https://chime.example.org/v/1"))
    }

    @Test("a Discord application's button for a foreground action opens its target, whatever the target's path (one with /a/ in it was taken for an action link, and pressing it opened nothing)")
    func discordTargetLikeActionLink() throws {
        let templates = EmailComposerTests.templates
        var content = NotificationContent(title: "Shopping", body: "Milk", categoryIdentifier: EmailComposerTests.shopping.identifier)
        let channel = Channel(id: "c", url: try ChannelURL(parsing: "discord://discord.com/api/webhooks/1/x"), signingSecret: String(repeating: "a", count: 64))
        func buttons(target: String?) throws -> [String: [String: Any]] {
            content.targetContentIdentifier = target
            let notification = OutgoingNotification(
                request: NotificationRequest(identifier: "r", recipient: "r", content: content, trigger: .timeInterval(seconds: 60, repeats: false)),
                recipient: Recipient(id: "r", locale: "en", timeZone: "Europe/Paris"), address: .init(channel: "c", value: ""), channel: channel,
                fireDate: Instant(rfc3339: "2026-11-24T08:00:00Z")!, deliveryID: "r.1", coalesced: 0)
            let message = try ChatComposer(localizer: try Localizer(directory: templates), templates: try TemplateSet(directory: templates))
                .compose(notification, category: EmailComposerTests.shopping)
            let body = try #require(try JSONSerialization.jsonObject(with: ChatPayload.encode(ChatPayload.body(for: .discord, message, interactive: channel.takesPresses))) as? [String: Any])
            let rows = body["components"] as? [[String: Any]] ?? []
            let all = rows.flatMap { $0["components"] as? [[String: Any]] ?? [] }
            return Dictionary(all.map { ($0["label"] as? String ?? "", $0) }) { first, _ in first }
        }
        let foreground = try #require(EmailComposerTests.shopping.actions.first { $0.options.contains(.foreground) }).title
        for target in ["https://shop.example/a/lists/42", "https://shop.example/lists/42"] {
            let button = try buttons(target: target)[foreground]
            #expect(button?["url"] as? String == target && button?["custom_id"] == nil, "\(String(describing: button))")
        }
        // Without a target the foreground action is pressed like the others.
        #expect(try buttons(target: nil)[foreground]?["custom_id"] != nil)
    }

    @Test("a shortened text never ends inside an escape", arguments: ["&", "<", "@", "*"])
    func cutBetweenEscapes(character: String) {
        let text = String(repeating: character, count: 5000)
        for limit in 90...100 {
            for escape in [ChatEscaping.slack, ChatEscaping.discord, ChatEscaping.mattermostMarkdown, ChatEscaping.mattermostPlain] {
                let cut = TextLimit.fit(text, limit, .utf16, escaping: escape)
                #expect(cut.utf16.count <= limit)
                #expect(cut.hasSuffix("…"))
                let whole = escape(Character(character))
                let kept = String(cut.dropLast())
                #expect(kept == String(repeating: whole, count: kept.utf16.count / whole.utf16.count), "\(kept.suffix(8))")
            }
        }
    }

    @Test("blocks (a grouped message's entries) are kept whole, escaped, and followed by how many more there are when they do not all fit")
    func blocks() {
        let blocks = (1...10).map { "\($0). <item> \($0)\n   Done: https://x.example/a/\(String(repeating: "t", count: 40))/done" }
        let more = { (left: Int) in "… and \(left) more" }
        let all = TextLimit.fit(blocks: blocks, 10_000, .utf16, escaping: ChatEscaping.slack, more: more)
        #expect(all == blocks.map { $0.replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;") }.joined(separator: "\n"))
        let cut = TextLimit.fit(blocks: blocks, 300, .utf16, escaping: ChatEscaping.slack, more: more)
        #expect(cut.utf16.count <= 300)
        let kept = cut.split(separator: "\n").filter { $0.contains("/done") }
        #expect(kept.count == 3 && kept.allSatisfy { $0.hasSuffix(String(repeating: "t", count: 40) + "/done") }, "\(cut)")
        #expect(cut.hasSuffix("\n… and 7 more"), "\(cut)")
        // A first block too long alone is cut as one text is, the count after it.
        let long = TextLimit.fit(blocks: [String(repeating: "a", count: 500), "b"], 100, .utf16, escaping: ChatEscaping.slack, more: more)
        #expect(long.utf16.count <= 100 && long.hasSuffix("…\n… and 1 more"), "\(long)")
    }

    @Test("truncation keeps whole characters and ends with an ellipsis")
    func truncation() {
        let family = "👨‍👩‍👧‍👦"
        let cut = TextLimit.fit(String(repeating: family, count: 10), 30, .utf16)
        #expect(cut.hasSuffix("…"))
        #expect(cut.dropLast().allSatisfy { String($0) == family })
        #expect(cut.utf16.count <= 30)
        #expect(TextLimit.fit("short", 10, .utf16) == "short")
    }

    @Test("a category's own chat.text template shapes the message text, and never sees hidden content")
    func categoryTemplate() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("chime-chat-\(UUID().uuidString)")
        let folder = root.appendingPathComponent("mustache/\(EmailComposerTests.shopping.identifier)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        try "{{% CONTENT_TYPE: TEXT}}{{title}} — {{body}} ({{date}})\n".write(to: folder.appendingPathComponent("chat.text.mustache"), atomically: true, encoding: .utf8)
        let composer = ChatComposer(localizer: try Localizer(directory: EmailComposerTests.templates), templates: try TemplateSet(directory: root.path))
        func compose(_ previews: Recipient.ShowPreviews, category: NotificationCategory?) throws -> ChatMessage {
            try composer.compose(OutgoingNotification(
                request: NotificationRequest(identifier: "n", recipient: "r", content: NotificationContent(title: "Milk", body: "and <eggs>", categoryIdentifier: category?.identifier ?? ""),
                                             trigger: .timeInterval(seconds: 60, repeats: false)),
                recipient: Recipient(id: "r", locale: "fr", timeZone: "Europe/Paris", showPreviews: previews),
                address: .init(channel: "c", value: ""), channel: Channel(id: "c", url: try ChannelURL(parsing: "slack://hooks.example.org/x")),
                fireDate: Instant(rfc3339: "2026-11-24T08:00:00Z")!, deliveryID: "d", coalesced: 0), category: category)
        }
        #expect(try compose(.always, category: EmailComposerTests.shopping).text == "Milk — and <eggs> (mardi 24 novembre à 09:00)")
        #expect(try compose(.always, category: nil).text == "and <eggs>")
        #expect(try compose(.never, category: EmailComposerTests.shopping).text == "")
        let slack = String(decoding: ChatPayload.encode(ChatPayload.body(for: .slack, try compose(.always, category: EmailComposerTests.shopping))), as: UTF8.self)
        #expect(slack.contains(#""text":"Milk — and <eggs> (mardi 24 novembre à 09:00)","type":"plain_text""#))
    }

    /// What `chime run` sends (``ChatPayload/bytes(for:_:interactive:)``, the generic body
    /// written member by member) is what the value gives, for every kind, whatever the
    /// text holds: escapes, control characters, non-ASCII, hidden content, a text input.
    @Test("the bytes sent are the body's value written out, for every kind", arguments: kinds)
    func bytesAreTheValue(kind: ChannelKind) {
        var typed = message(title: "Quote \"this\" \\ and\tthat\u{1}", body: "Line 1\nLine 2 — ünïcödé 👍 </script>")
        typed.actions[0].placeholder = "Say \"when\""
        for message in [typed, message(title: "Hidden", body: "Secret", previews: .never), message(title: "", body: "")] {
            for interactive in [true, false] {
                let bytes = ChatPayload.bytes(for: kind, message, interactive: interactive)
                #expect(bytes == Array(ChatPayload.encode(ChatPayload.body(for: kind, message, interactive: interactive))))
                #expect((try? JSONSerialization.jsonObject(with: Data(bytes))) is [String: Any])
            }
        }
    }
}

/// swift-mustache parses in time growing with a template's tags times its size, and reads
/// sections recursively: a template past the bounds is refused, at its first line.
@Suite("Template bounds")
struct TemplateBoundTests {
    func templates(_ text: String) throws -> String? {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("chime-bounds-\(UUID().uuidString)")
        let folder = root.appendingPathComponent("mustache")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        try text.write(to: folder.appendingPathComponent("chat.text.mustache"), atomically: true, encoding: .utf8)
        do {
            _ = try TemplateSet(directory: root.path)
            return nil
        } catch {
            return "\(error)"
        }
    }

    @Test("4,000 nested sections and 20,000 tags are refused with why, not a crash or minutes of parsing; 1,000 tags are read")
    func bounds() throws {
        let nested = String(repeating: "{{#a}}", count: 4_000) + "x" + String(repeating: "{{/a}}", count: 4_000)
        let refused = try templates(nested)
        #expect(refused?.contains(":1:1: error: a template may hold at most 1000 tags") == true, "\(refused ?? "read")")
        #expect(try templates(String(repeating: "{{a}}", count: 20_000))?.contains("at most 1000 tags ({{…}}); this one holds 20000") == true)
        #expect(try templates(String(repeating: "x", count: 200_000))?.contains("a template may be at most 128 KB") == true)
        #expect(try templates(String(repeating: "{{title}} ", count: 1_000)) == nil)
    }
}

/// A category's `hiddenPreviewsBodyPlaceholder` that names a key of some locale but of
/// none the recipient's falls back to: the reminder is held (as `chime check` says it is
/// missing), never sent with the raw key.
@Suite("Placeholder keys")
struct PlaceholderKeyTests {
    @Test("a placeholder key only Russian has: an English recipient's message is refused with the key named; a Russian one's shows the text; a literal placeholder is its own text")
    func missingForLocale() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("chime-placeholder-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root.appendingPathComponent("ru.lproj"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        try #""new.msgs" = "Новые сообщения";"#.write(to: root.appendingPathComponent("ru.lproj/Localizable.strings"), atomically: true, encoding: .utf8)
        let composer = ChatComposer(localizer: try Localizer(directory: root.path), templates: try TemplateSet())
        func compose(_ locale: String, placeholder: String) throws -> ChatMessage {
            let category = NotificationCategory(identifier: "c", actions: [], hiddenPreviewsBodyPlaceholder: placeholder)
            return try composer.compose(OutgoingNotification(
                request: NotificationRequest(identifier: "n", recipient: "r", content: NotificationContent(title: "Milk", body: "eggs", categoryIdentifier: "c"),
                                             trigger: .timeInterval(seconds: 60, repeats: false)),
                recipient: Recipient(id: "r", locale: locale, timeZone: "Europe/Paris", showPreviews: .never),
                address: .init(channel: "c", value: ""), channel: Channel(id: "c", url: try ChannelURL(parsing: "slack://hooks.example.org/x")),
                fireDate: Instant(rfc3339: "2026-11-24T08:00:00Z")!, deliveryID: "d", coalesced: 0), category: category)
        }
        #expect(throws: LocalizedContent.MissingKey.self) { try compose("en", placeholder: "new.msgs") }
        #expect(try compose("ru", placeholder: "new.msgs").surfaces.notificationText.contains("Новые сообщения"))
        #expect(try compose("en", placeholder: "Something new").surfaces.notificationText.contains("Something new"))
    }
}
