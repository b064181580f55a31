import ChimeCore

extension ChatPayload {
    /// An Adaptive Card (1.5, which Teams renders and which has `rtl`) in a message
    /// attachment. Incoming webhooks reject `Action.Submit`, so actions are
    /// `Action.OpenUrl` to signed links; the whole body stays under Teams' 28 KB.
    ///
    /// People's text is in `RichTextBlock` `TextRun`s, which Adaptive Cards never read as
    /// markdown (a `TextBlock` would make `[x](https://evil.example)` a link); mentions
    /// in a card are only those its `msteams.entities` list, which it has none of. For a
    /// right-to-left recipient the card says `rtl: true`.
    static func teams(_ message: ChatMessage) -> JSONValue {
        func run(_ text: String, _ style: [String: JSONValue] = [:]) -> JSONValue {
            .object(["type": .string("RichTextBlock"),
                     "inlines": .array([.object(style.merging(["type": .string("TextRun"), "text": .string(text)]) { _, new in new })])])
        }
        func card(_ text: String) -> JSONValue {
            var body: [JSONValue] = [run(TextLimit.fit(message.headline, 500, .utf16), ["weight": .string("Bolder"), "size": .string("Medium")])]
            if !text.isEmpty { body.append(run(text)) }
            if !message.dateText.isEmpty { body.append(run(message.dateText, ["isSubtle": .bool(true)])) }
            var actions: [JSONValue] = message.actions.prefix(NotificationCategory.maximumDefaultActions).map { action in
                var entry: [String: JSONValue] = ["type": .string("Action.OpenUrl"), "title": .string(TextLimit.fit(action.title, 100, .utf16)), "url": .string(link(action.url, 2048, .utf8, or: message))]
                if action.options.contains(.destructive) { entry["style"] = .string("destructive") }
                return .object(entry)
            }
            if !message.surfaces.bodyShowsContent {
                actions.append(.object(["type": .string("Action.OpenUrl"), "title": .string(message.words.view), "url": .string(message.viewURL)]))
            }
            var content: [String: JSONValue] = [
                "$schema": .string("http://adaptivecards.io/schemas/adaptive-card.json"),
                "type": .string("AdaptiveCard"), "version": .string("1.5"),
                "body": .array(body), "actions": .array(actions),
            ]
            if message.rightToLeft { content["rtl"] = .bool(true) }
            return .object([
                "type": .string("message"),
                "summary": .string(TextLimit.fit(message.surfaces.notificationText, 500, .utf16)),
                "attachments": .array([.object([
                    "contentType": .string("application/vnd.microsoft.card.adaptive"),
                    "content": .object(content),
                ])]),
            ])
        }
        // Shrink the text until the whole card fits, leaving room for HTTP framing; the
        // headline, already within 500, and the buttons stay.
        var limit = 20_000
        var payload = card(message.fittedText(limit, .utf8))
        while encode(payload).count > 27_000, limit > 100 {
            limit /= 2
            payload = card(message.fittedText(limit, .utf8))
        }
        return payload
    }
}
