import ChimeCore
import Foundation

/// The HTTP body of a chat message for each platform, keeping to each one's published
/// limits so the platform never rejects it.
public enum ChatPayload {
    /// The JSON body for a channel kind.
    /// - Parameter interactive: whether the platform's presses come back verified (a
    ///   Slack channel with its app's signing secret): without, buttons are links.
    public static func body(for kind: ChannelKind, _ message: ChatMessage, interactive: Bool = true) -> JSONValue {
        switch kind {
        case .slack: slack(message, interactive: interactive)
        case .discord: discord(message)
        case .mattermost: mattermost(message)
        case .msteams: teams(message)
        case .telegram: telegram(message)
        default: generic(message)
        }
    }

    /// The body as bytes: sorted keys, so the same message gives the same bytes.
    public static func encode(_ value: JSONValue) -> Data {
        Data(value.jsonBytes)
    }

    // MARK: Slack Block Kit

    /// Block Kit: header (150), section (3,000), context, actions (buttons: text 75,
    /// value 2,000, action_id 255); `destructive` is `style: danger` with a confirm
    /// dialog; `text` is the notification fallback. Not `interactive` (no signing
    /// secret to verify presses with), each button is a link to its signed action page.
    static func slack(_ message: ChatMessage, interactive: Bool = true) -> JSONValue {
        func plain(_ text: String, _ limit: Int) -> JSONValue {
            .object(["type": .string("plain_text"), "text": .string(TextLimit.fit(text.isEmpty ? " " : text, limit, .utf16))])
        }
        var blocks: [JSONValue] = [.object(["type": .string("header"), "text": plain(message.headline, 150)])]
        let text = message.shownText
        if !text.isEmpty {
            blocks.append(.object(["type": .string("section"),
                                   "text": .object(["type": .string("mrkdwn"), "text": .string(TextLimit.fit(htmlEscape(text), 3000, .utf16))])]))
        }
        blocks.append(.object(["type": .string("context"), "elements": .array([.object(["type": .string("plain_text"), "text": .string(TextLimit.fit(message.dateText.isEmpty ? " " : message.dateText, 2000, .utf16))])])]))
        var buttons: [JSONValue] = message.actions.prefix(NotificationCategory.maximumDefaultActions).map { action in
            var button: [String: JSONValue] = [
                "type": .string("button"), "text": plain(action.title, 75),
                "action_id": .string(TextLimit.fit(action.identifier, 255, .utf16, ellipsis: "")),
            ]
            if interactive {
                button["value"] = .string(TextLimit.fit(action.token, 2000, .utf16, ellipsis: ""))
            } else {
                button["url"] = .string(TextLimit.fit(action.url, 3000, .utf16, ellipsis: ""))
            }
            if action.options.contains(.destructive) {
                button["style"] = .string("danger")
                button["confirm"] = .object([
                    "title": plain(action.title, 100), "text": plain(message.words.areYouSure, 300),
                    "confirm": plain(message.words.confirm, 30), "deny": plain(message.words.cancel, 30),
                    "style": .string("danger"),
                ])
            }
            if action.options.contains(.foreground) { button["url"] = .string(TextLimit.fit(action.url, 3000, .utf16, ellipsis: "")) }
            return .object(button)
        }
        if !message.surfaces.bodyShowsContent {
            buttons.append(.object(["type": .string("button"), "text": plain(message.words.view, 75),
                                    "action_id": .string("chime.view"), "url": .string(message.viewURL)]))
        }
        if !buttons.isEmpty { blocks.append(.object(["type": .string("actions"), "elements": .array(buttons)])) }
        return .object([
            "text": .string(TextLimit.fit(htmlEscape(message.surfaces.notificationText), 3000, .utf16)),
            "blocks": .array(blocks),
        ])
    }

    // MARK: Discord

    /// A webhook message: `content` (2,000) is what the notification shows; one embed
    /// (title 256, description 4,096, footer 2,048, 6,000 in all); plain webhooks cannot
    /// carry interactive components, so actions are link buttons (label 80) to signed
    /// action URLs, five to a row. Mentions are never parsed.
    static func discord(_ message: ChatMessage) -> JSONValue {
        let title = TextLimit.fit(discordEscape(message.headline), 256, .scalars)
        let footer = TextLimit.fit(message.dateText, 2048, .scalars)
        let room = 6000 - TextLimit.length(title, in: .scalars) - TextLimit.length(footer, in: .scalars)
        let description = TextLimit.fit(discordEscape(message.shownText), min(4096, max(room, 1)), .scalars)
        var embed: [String: JSONValue] = ["title": .string(title)]
        // Discord refuses an empty description: leave it out.
        if !description.isEmpty { embed["description"] = .string(description) }
        if !footer.isEmpty { embed["footer"] = .object(["text": .string(footer)]) }
        var links = message.actions.prefix(NotificationCategory.maximumDefaultActions).map { ($0.title, $0.url) }
        if !message.surfaces.bodyShowsContent { links.append((message.words.view, message.viewURL)) }
        let buttons: [JSONValue] = links.map { title, url in
            .object(["type": .integer(2), "style": .integer(5), "label": .string(TextLimit.fit(title, 80, .scalars)),
                     "url": .string(TextLimit.fit(url, 512, .scalars, ellipsis: ""))])
        }
        var body: [String: JSONValue] = [
            "content": .string(TextLimit.fit(discordEscape(message.surfaces.notificationText), 2000, .scalars)),
            "embeds": .array([.object(embed)]),
            "allowed_mentions": .object(["parse": .array([])]),
        ]
        if !buttons.isEmpty {
            body["components"] = .array(stride(from: 0, to: buttons.count, by: 5).map {
                .object(["type": .integer(1), "components": .array(Array(buttons[$0..<min($0 + 5, buttons.count)]))])
            })
        }
        return .object(body)
    }

    /// Discord markdown's special characters, escaped with a backslash.
    static func discordEscape(_ text: String) -> String {
        var result = ""
        for character in text {
            if "\\*_~`|>#[]()-".contains(character) { result.append("\\") }
            result.append(character)
        }
        return result
    }

    // MARK: Mattermost

    /// An incoming-webhook post with one attachment: `text` (16,383) the notification;
    /// actions with `integration.url` (chime serve's `/mattermost/CHANNEL`) and `context.token`.
    static func mattermost(_ message: ChatMessage) -> JSONValue {
        let actions: [JSONValue] = message.actions.prefix(NotificationCategory.maximumDefaultActions).enumerated().map { index, action in
            var entry: [String: JSONValue] = [
                // Mattermost wants alphanumeric ids.
                "id": .string("a\(index)" + action.identifier.filter { $0.isASCII && ($0.isLetter || $0.isNumber) }.prefix(40)),
                "name": .string(TextLimit.fit(action.title, 100, .scalars)),
                // Presses come to chime serve's /mattermost/CHANNEL with the token in the
                // context; the /a/ link is for platforms whose buttons open a page.
                "integration": .object(["url": .string(message.pressURL ?? action.url), "context": .object(["token": .string(action.token)])]),
            ]
            if action.options.contains(.destructive) { entry["style"] = .string("danger") }
            return .object(entry)
        }
        var attachment: [String: JSONValue] = [
            "fallback": .string(TextLimit.fit(message.surfaces.notificationText, 3000, .scalars)),
            "title": .string(TextLimit.fit(message.headline, 1000, .scalars)),
            "text": .string(TextLimit.fit(message.shownText, 7000, .scalars)),
            "footer": .string(TextLimit.fit(message.dateText, 1000, .scalars)),
        ]
        if !message.surfaces.bodyShowsContent { attachment["title_link"] = .string(message.viewURL) }
        if !actions.isEmpty { attachment["actions"] = .array(actions) }
        return .object([
            "text": .string(TextLimit.fit(message.surfaces.notificationText, 4000, .scalars)),
            "attachments": .array([.object(attachment)]),
        ])
    }

    // MARK: Microsoft Teams

    /// An Adaptive Card (1.4) in a message attachment. Incoming webhooks reject
    /// `Action.Submit`, so actions are `Action.OpenUrl` to signed links; the whole body
    /// stays under Teams' 28 KB.
    static func teams(_ message: ChatMessage) -> JSONValue {
        func card(_ text: String) -> JSONValue {
            var body: [JSONValue] = [
                .object(["type": .string("TextBlock"), "text": .string(TextLimit.fit(message.headline, 500, .utf16)),
                         "weight": .string("Bolder"), "size": .string("Medium"), "wrap": .bool(true)]),
            ]
            if !text.isEmpty { body.append(.object(["type": .string("TextBlock"), "text": .string(text), "wrap": .bool(true)])) }
            if !message.dateText.isEmpty {
                body.append(.object(["type": .string("TextBlock"), "text": .string(message.dateText), "isSubtle": .bool(true), "wrap": .bool(true)]))
            }
            var actions: [JSONValue] = message.actions.prefix(NotificationCategory.maximumDefaultActions).map { action in
                var entry: [String: JSONValue] = ["type": .string("Action.OpenUrl"), "title": .string(TextLimit.fit(action.title, 100, .utf16)), "url": .string(action.url)]
                if action.options.contains(.destructive) { entry["style"] = .string("destructive") }
                return .object(entry)
            }
            if !message.surfaces.bodyShowsContent {
                actions.append(.object(["type": .string("Action.OpenUrl"), "title": .string(message.words.view), "url": .string(message.viewURL)]))
            }
            return .object([
                "type": .string("message"),
                "summary": .string(TextLimit.fit(message.surfaces.notificationText, 500, .utf16)),
                "attachments": .array([.object([
                    "contentType": .string("application/vnd.microsoft.card.adaptive"),
                    "content": .object([
                        "$schema": .string("http://adaptivecards.io/schemas/adaptive-card.json"),
                        "type": .string("AdaptiveCard"), "version": .string("1.4"),
                        "body": .array(body), "actions": .array(actions),
                    ]),
                ])]),
            ])
        }
        // Shrink the text until the whole card fits, leaving room for HTTP framing.
        var limit = 20_000
        var payload = card(TextLimit.fit(message.shownText, limit, .utf8))
        while encode(payload).count > 27_000, limit > 100 {
            limit /= 2
            payload = card(TextLimit.fit(message.shownText, limit, .utf8))
        }
        return payload
    }

    // MARK: Telegram

    /// `sendMessage` with HTML parse mode: `text` (4,096 after parsing), buttons in an
    /// `inline_keyboard` whose `callback_data` is at most 64 bytes. The start of the text
    /// is the push preview, so it is the surface text; content follows only when it may
    /// show.
    static func telegram(_ message: ChatMessage) -> JSONValue {
        var lines = ["<b>\(htmlEscape(message.headline))</b>"]
        if !message.shownText.isEmpty { lines.append(htmlEscape(message.shownText)) }
        if !message.dateText.isEmpty { lines.append("<i>\(htmlEscape(message.dateText))</i>") }
        // Escaping adds markup that Telegram does not count; fitting the escaped text to
        // 4,096 keeps the parsed text under it too (truncation never splits an entity
        // because it cuts whole characters of already-escaped text, and the tags are
        // closed by construction: see below).
        let text = fitTelegram(lines)
        var rows: [JSONValue] = message.actions.prefix(NotificationCategory.maximumDefaultActions).map { action in
            let button: [String: JSONValue] = action.options.contains(.foreground)
                ? ["text": .string(TextLimit.fit(action.title, 64, .utf16)), "url": .string(action.url)]
                : ["text": .string(TextLimit.fit(action.title, 64, .utf16)), "callback_data": .string(TextLimit.fit(action.token, 64, .utf8, ellipsis: ""))]
            return .array([.object(button)])
        }
        if !message.surfaces.bodyShowsContent {
            rows.append(.array([.object(["text": .string(message.words.view), "url": .string(message.viewURL)])]))
        }
        var body: [String: JSONValue] = ["text": .string(text), "parse_mode": .string("HTML"), "disable_web_page_preview": .bool(true)]
        if !rows.isEmpty { body["reply_markup"] = .object(["inline_keyboard": .array(rows)]) }
        return .object(body)
    }

    private static func fitTelegram(_ lines: [String]) -> String {
        let whole = lines.joined(separator: "\n\n")
        guard whole.utf16.count > 4096 else { return whole }
        // Keep the bold headline and the (italic) date whole; cut the plain middle.
        let head = lines.first ?? ""
        let tail = lines.count > 2 ? lines.last! : ""
        let middle = lines.count > 1 ? lines[1] : ""
        let room = 4096 - head.utf16.count - tail.utf16.count - 4
        // Cut before any partial "&…;" entity.
        var cut = TextLimit.fit(middle, max(room, 1), .utf16)
        if let amp = cut.lastIndex(of: "&"), !cut[amp...].contains(";") {
            cut = String(cut[..<amp]) + "…"
        }
        return [head, cut, tail].filter { !$0.isEmpty }.joined(separator: "\n\n")
    }

    /// `&`, `<` and `>` escaped: what HTML (Telegram, Teams) and Slack's mrkdwn both ask.
    static func htmlEscape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
    }

    // MARK: Generic JSON

    /// The `json://` / `jsons://` body: a documented object with the surfaces, the
    /// content (only what may show), the date, and both action sets.
    static func generic(_ message: ChatMessage) -> JSONValue {
        func actions(_ list: [ChatMessage.Action]) -> JSONValue {
            .array(list.map { action in
                var entry: [String: JSONValue] = [
                    "identifier": .string(action.identifier), "title": .string(action.title),
                    "options": .array(action.options.names.map(JSONValue.string)),
                    "url": .string(action.url), "token": .string(action.token),
                ]
                if let placeholder = action.placeholder { entry["textInputPlaceholder"] = .string(placeholder) }
                return .object(entry)
            })
        }
        let shown = message.surfaces.bodyShowsContent
        return .object([
            "subject": .string(message.surfaces.subject),
            "preheader": .string(message.surfaces.preheader),
            "notificationText": .string(message.surfaces.notificationText),
            "title": .string(shown ? message.title : ""),
            "subtitle": .string(shown ? message.subtitle : ""),
            "body": .string(shown ? message.body : message.surfaces.placeholder),
            "text": .string(message.text),
            "contentHidden": .bool(!shown),
            "date": .string(message.dateText),
            "viewURL": .string(message.viewURL),
            "actions": actions(message.actions),
            "minimalActions": actions(message.minimalActions),
        ])
    }
}
