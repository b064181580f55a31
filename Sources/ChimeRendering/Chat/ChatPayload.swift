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
        platformBody(for: kind, message, interactive: interactive) ?? generic(message)
    }

    /// The body as bytes: sorted keys, so the same message gives the same bytes.
    public static func encode(_ value: JSONValue) -> Data {
        Data(value.jsonBytes)
    }

    /// The JSON body for a channel kind as bytes, as ``encode(_:)`` gives
    /// ``body(for:_:interactive:)``'s, the generic one written directly.
    public static func bytes(for kind: ChannelKind, _ message: ChatMessage, interactive: Bool = true) -> [UInt8] {
        platformBody(for: kind, message, interactive: interactive)?.jsonBytes ?? genericBytes(message)
    }

    /// The body of a chat platform's own shape; nil for any other kind (the generic body).
    private static func platformBody(for kind: ChannelKind, _ message: ChatMessage, interactive: Bool) -> JSONValue? {
        switch kind {
        case .slack: slack(message, interactive: interactive)
        case .discord: interactive ? discordInteractive(message) : discord(message)
        case .mattermost: mattermost(message)
        case .msteams: teams(message)
        case .telegram: telegram(message, interactive: interactive)
        default: nil
        }
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
    /// for wherever it shows it. (As a value, read back from ``genericBytes(_:)``, its
    /// one definition.)
    static func generic(_ message: ChatMessage) -> JSONValue {
        // Bytes this file wrote: always JSON, always an object.
        (try? JSONDecoder().decode(JSONValue.self, from: Data(genericBytes(message)))) ?? .object([:])
    }

    /// The generic body's bytes, written member by member in key order (``JSONWriter``):
    /// a `file:` line or `json://` webhook for each message, without a dictionary built
    /// and sorted for it and each of its actions.
    static func genericBytes(_ message: ChatMessage) -> [UInt8] {
        func actions(_ list: [ChatMessage.Action], into json: inout JSONWriter) {
            json.array { json in
                for action in list {
                    json.object { json in
                        json.string("identifier", action.identifier)
                        json.key("options")
                        json.array { json in for name in action.options.names { json.string(name) } }
                        if let placeholder = action.placeholder { json.string("textInputPlaceholder", placeholder) }
                        json.string("title", action.title)
                        json.string("token", action.token)
                        json.string("url", action.url)
                    }
                }
            }
        }
        let shown = message.surfaces.bodyShowsContent
        var json = JSONWriter(capacity: 2_048)
        json.object { json in
            json.key("actions")
            actions(message.actions, into: &json)
            json.string("body", shown ? message.body : message.surfaces.placeholder)
            json.bool("contentHidden", !shown)
            json.string("date", message.dateText)
            json.string("direction", message.rightToLeft ? "rtl" : "ltr")
            json.key("minimalActions")
            actions(message.minimalActions, into: &json)
            json.string("notificationText", message.surfaces.notificationText)
            json.string("preheader", message.surfaces.preheader)
            json.string("subject", message.surfaces.subject)
            json.string("subtitle", shown ? message.subtitle : "")
            json.string("text", message.text)
            json.string("title", shown ? message.title : "")
            json.string("viewURL", message.viewURL)
        }
        return json.bytes
    }
}
