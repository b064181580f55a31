import ChimeCore

extension ChatPayload {
    /// An incoming-webhook post with one attachment: `text` (16,383) the notification;
    /// actions with `integration.url` (chime serve's `/mattermost/CHANNEL`) and
    /// `context.token`. People's text is markdown-escaped and its `@` never a mention
    /// (``ChatEscaping/mattermostMarkdown(_:)``). Mattermost has no way to say a post's
    /// direction: its clients lay every post out left to right.
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
            "fallback": .string(TextLimit.fit(message.surfaces.notificationText, 3000, .scalars, escaping: ChatEscaping.mattermostPlain)),
            // A title with a `title_link` (the view page's, where the content is hidden) is
            // shown as plain text inside the link, markdown unread: escaped for markdown, it
            // showed its backslashes ("Reminder \(private\)").
            "title": .string(TextLimit.fit(message.headline, 1000, .scalars,
                                           escaping: message.surfaces.bodyShowsContent ? ChatEscaping.mattermostMarkdown : ChatEscaping.mattermostPlain)),
            "text": .string(mattermostText(message)),
            "footer": .string(TextLimit.fit(message.dateText, 1000, .scalars)),
        ]
        if !message.surfaces.bodyShowsContent { attachment["title_link"] = .string(message.viewURL) }
        if !actions.isEmpty { attachment["actions"] = .array(actions) }
        return .object([
            "text": .string(TextLimit.fit(message.surfaces.notificationText, 4000, .scalars, escaping: ChatEscaping.mattermostMarkdown, links: .asWrittenWithoutMentions)),
            "attachments": .array([.object(attachment)]),
        ])
    }

    /// The attachment's text, and under it a link for each foreground action that opens
    /// the request's target: a Mattermost button can only call back, never open a page,
    /// and the target was nowhere in the post (Slack's, Discord's and Telegram's buttons
    /// open it).
    static func mattermostText(_ message: ChatMessage) -> String {
        let links = message.actions.prefix(NotificationCategory.maximumDefaultActions).filter(\.opensTarget).map { action in
            ChatAnswer.mattermostLink(TextLimit.fit(action.title, 100, .scalars, escaping: ChatEscaping.mattermostMarkdown),
                                      link(action.url, 2000, .scalars, or: message))
        }
        let lines = links.joined(separator: "\n")
        let text = message.fittedText(7000 - lines.unicodeScalars.count - 2, .scalars, escaping: ChatEscaping.mattermostMarkdown,
                                      links: .asWrittenWithoutMentions)
        return [text, lines].filter { !$0.isEmpty }.joined(separator: "\n\n")
    }
}
