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
        if !message.shownText.isEmpty {
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
}
