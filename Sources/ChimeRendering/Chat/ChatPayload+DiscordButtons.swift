import ChimeCore

extension ChatPayload {
    /// A message to an application's webhook, whose presses come back Ed25519-signed to
    /// `chime serve`'s `/discord/CHANNEL` (the application's public key is the channel's
    /// `secret`): ``discord(_:)``'s message, its actions interactive buttons (type 2;
    /// `custom_id`, at most 100 characters, the `TOKEN.N` every platform's buttons carry;
    /// label 80; a destructive action red), five to a row. A foreground action that opens
    /// its target, and the View button, stay link buttons (url 512: a longer target leads
    /// to the reminder's view page, as in ``discord(_:)``).
    static func discordInteractive(_ message: ChatMessage) -> JSONValue {
        guard case .object(var body) = discord(message) else { return discord(message) }
        var buttons: [JSONValue] = message.actions.prefix(NotificationCategory.maximumDefaultActions).map { action in
            let label = JSONValue.string(TextLimit.fit(action.title, 80, .scalars))
            if action.opensTarget {
                return .object(["type": .integer(2), "style": .integer(5), "label": label, "url": .string(link(action.url, 512, .scalars, or: message))])
            }
            return .object(["type": .integer(2), "style": .integer(action.options.contains(.destructive) ? 4 : 2), "label": label,
                            "custom_id": .string(String(action.token.prefix(100)))])
        }
        if !message.surfaces.bodyShowsContent {
            buttons.append(.object(["type": .integer(2), "style": .integer(5), "label": .string(TextLimit.fit(message.words.view, 80, .scalars)),
                                    "url": .string(message.viewURL)]))
        }
        body["components"] = discordRows(buttons)
        return .object(body)
    }
}
