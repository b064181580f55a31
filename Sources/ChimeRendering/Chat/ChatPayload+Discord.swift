import ChimeCore

extension ChatPayload {
    /// A webhook message: `content` (2,000) is what the notification shows; one embed
    /// (title 256, description 4,096, footer 2,048, 6,000 in all); plain webhooks cannot
    /// carry interactive components, so actions are link buttons (label 80, url 512) to
    /// signed action URLs, five to a row. People's text is markdown-escaped
    /// (``ChatEscaping/discord(_:)``) and mentions are never parsed. Discord has no way
    /// to say a message's direction: its clients lay every message out left to right.
    static func discord(_ message: ChatMessage) -> JSONValue {
        let title = TextLimit.fit(message.headline, 256, .scalars, escaping: ChatEscaping.discord)
        let footer = TextLimit.fit(message.dateText, 2048, .scalars)
        let room = 6000 - TextLimit.length(title, in: .scalars) - TextLimit.length(footer, in: .scalars)
        let description = message.fittedText(min(4096, max(room, 1)), .scalars, escaping: ChatEscaping.discord, links: .asWritten)
        var embed: [String: JSONValue] = ["title": .string(title)]
        // Discord refuses an empty description: leave it out.
        if !description.isEmpty { embed["description"] = .string(description) }
        if !footer.isEmpty { embed["footer"] = .object(["text": .string(footer)]) }
        var links = message.actions.prefix(NotificationCategory.maximumDefaultActions).map { ($0.title, $0.url) }
        if !message.surfaces.bodyShowsContent { links.append((message.words.view, message.viewURL)) }
        let buttons: [JSONValue] = links.map { title, url in
            .object(["type": .integer(2), "style": .integer(5), "label": .string(TextLimit.fit(title, 80, .scalars)),
                     "url": .string(link(url, 512, .scalars, or: message))])
        }
        var body: [String: JSONValue] = [
            "content": .string(TextLimit.fit(message.surfaces.notificationText, 2000, .scalars, escaping: ChatEscaping.discord, links: .asWritten)),
            "embeds": .array([.object(embed)]),
            "allowed_mentions": .object(["parse": .array([])]),
        ]
        body["components"] = discordRows(buttons)
        return .object(body)
    }

    /// Discord's action rows (type 1) of at most five buttons each; nil for no button
    /// (Discord refuses an empty row).
    static func discordRows(_ buttons: [JSONValue]) -> JSONValue? {
        guard !buttons.isEmpty else { return nil }
        return .array(stride(from: 0, to: buttons.count, by: 5).map {
            .object(["type": .integer(1), "components": .array(Array(buttons[$0..<min($0 + 5, buttons.count)]))])
        })
    }
}
