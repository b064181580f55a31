import ChimeCore
import Foundation

/// The HTTP body of a chat message for each platform, keeping to each one's published
/// limits whatever the content, so the platform never rejects it; people's text escaped
/// for each one's markup (``ChatEscaping``); the direction of right-to-left languages
/// said where the platform has a way to. One file per platform: `ChatPayload+Slack.swift`…
public enum ChatPayload {
    /// The JSON body for a channel kind.
    /// - Parameter interactive: whether the platform's presses come back verified (a
    ///   Slack channel with its app's signing secret): without, buttons are links.
    public static func body(for kind: ChannelKind, _ message: ChatMessage, interactive: Bool = true) -> JSONValue {
        switch kind {
        case .slack: slack(message, interactive: interactive)
        case .discord: interactive ? discordInteractive(message) : discord(message)
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

    /// A button's link within a platform's limit: the action's own, or, when that is too
    /// long to carry whole (a long identifier, percent-escaped), the message's short view
    /// link, whose page offers the reminder's actions; never a link cut short, which
    /// would lead nowhere.
    static func link(_ url: String, _ limit: Int, _ unit: TextLimit.Unit, or message: ChatMessage) -> String {
        TextLimit.length(url, in: unit) <= limit ? url : message.viewURL
    }

    // MARK: Generic JSON

    /// The `json://` / `jsons://` body: a documented object with the surfaces, the
    /// content (only what may show), the date, the direction of the recipient's language,
    /// and both action sets. People's text is as they wrote it: the receiver escapes it
    /// for wherever it shows it.
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
            "direction": .string(message.rightToLeft ? "rtl" : "ltr"),
            "date": .string(message.dateText),
            "viewURL": .string(message.viewURL),
            "actions": actions(message.actions),
            "minimalActions": actions(message.minimalActions),
        ])
    }
}
