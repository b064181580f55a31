import ChimeCore

extension ChatPayload {
    /// Block Kit: header (150), section (3,000), context, actions (buttons: text 75,
    /// value 2,000, url 3,000, action_id 255, unique in the message); `destructive` is
    /// `style: danger` with a confirm dialog; `text` is the notification fallback. Not
    /// `interactive` (no signing secret to verify presses with), each button is a link
    /// to its signed action page.
    ///
    /// People's text is `plain_text` in the blocks, which Slack never formats, and `text`
    /// goes with `mrkdwn: false` and `&<>` escaped, so `*bold*`, `<!channel>` and
    /// `<https://…|…>` show as typed. Slack has no way to say a message's direction: its
    /// clients lay every message out left to right.
    static func slack(_ message: ChatMessage, interactive: Bool = true) -> JSONValue {
        func plain(_ text: String, _ limit: Int) -> JSONValue {
            .object(["type": .string("plain_text"), "text": .string(TextLimit.fit(text.isEmpty ? " " : text, limit, .utf16))])
        }
        var blocks: [JSONValue] = [.object(["type": .string("header"), "text": plain(message.headline, 150)])]
        if message.list != nil {
            // A thread's message or a digest: each entry's action links in its text.
            blocks.append(slackRichText(message.fittedText(3000, .utf16), links: Self.linkBase(of: message)))
        } else if !message.shownText.isEmpty {
            blocks.append(.object(["type": .string("section"), "text": .object(["type": .string("plain_text"), "text": .string(message.fittedText(3000, .utf16))])]))
        }
        blocks.append(.object(["type": .string("context"), "elements": .array([plain(message.dateText, 2000)])]))
        var buttons: [JSONValue] = message.actions.prefix(NotificationCategory.maximumDefaultActions).map { action in
            var button: [String: JSONValue] = [
                "type": .string("button"), "text": plain(action.title, 75),
                // The action's number, not its identifier: unique and short whatever the
                // identifiers (long ones, Arabic ones, one named like the View button).
                // chime serve reads the press's value, never its action_id.
                "action_id": .string("chime.action.\(action.number)"),
            ]
            if interactive {
                button["value"] = .string(TextLimit.fit(action.token, 2000, .utf16, ellipsis: ""))
            } else {
                button["url"] = .string(link(action.url, 3000, .utf16, or: message))
            }
            if action.options.contains(.destructive) {
                button["style"] = .string("danger")
                button["confirm"] = .object([
                    "title": plain(action.title, 100), "text": plain(message.words.areYouSure, 300),
                    "confirm": plain(message.words.confirm, 30), "deny": plain(message.words.cancel, 30),
                    "style": .string("danger"),
                ])
            }
            if action.options.contains(.foreground) { button["url"] = .string(link(action.url, 3000, .utf16, or: message)) }
            return .object(button)
        }
        if !message.surfaces.bodyShowsContent {
            buttons.append(.object(["type": .string("button"), "text": plain(message.words.view, 75),
                                    "action_id": .string("chime.view"), "url": .string(message.viewURL)]))
        }
        if !buttons.isEmpty { blocks.append(.object(["type": .string("actions"), "elements": .array(buttons)])) }
        return .object([
            "text": .string(TextLimit.fit(message.surfaces.notificationText, 3000, .utf16, escaping: ChatEscaping.slack)),
            "mrkdwn": .bool(false),
            "blocks": .array(blocks),
        ])
    }

    /// A rich text block of `text`, each of Chime's own links in it (those starting with
    /// `base`, up to the next white space) a link element, the rest text elements, which
    /// Slack shows as typed, as plain_text: in a plain_text section Slack makes no link of
    /// a URL, and the action links of a thread's message or a digest had to be copied by
    /// hand. An address in people's text stays text.
    static func slackRichText(_ text: String, links base: String?) -> JSONValue {
        var elements: [JSONValue] = []
        func add(text part: Substring) {
            if !part.isEmpty { elements.append(.object(["type": .string("text"), "text": .string(String(part))])) }
        }
        var rest = Substring(text)
        while let base, !base.isEmpty, let start = rest.range(of: base) {
            let end = rest[start.lowerBound...].firstIndex(where: \.isWhitespace) ?? rest.endIndex
            add(text: rest[..<start.lowerBound])
            elements.append(.object(["type": .string("link"), "url": .string(String(rest[start.lowerBound..<end]))]))
            rest = rest[end...]
        }
        add(text: rest)
        if elements.isEmpty { add(text: " ") }
        return .object(["type": .string("rich_text"), "elements": .array([
            .object(["type": .string("rich_text_section"), "elements": .array(elements)]),
        ])])
    }

    /// Where a message's links to `chime serve` begin (its linkBase, and a slash): read
    /// from its view link, `{linkBase}/v/TOKEN`.
    static func linkBase(of message: ChatMessage) -> String? {
        message.viewURL.range(of: "/v/", options: .backwards).map { String(message.viewURL[..<$0.lowerBound]) + "/" }
    }
}
