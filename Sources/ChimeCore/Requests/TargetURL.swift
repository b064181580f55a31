import Foundation

/// What a request's `targetContentIdentifier` must be: the link a foreground action (and
/// the default action) opens, written as it is into email links and every chat platform's
/// buttons (Telegram url buttons, Discord link buttons, Slack's `url`, Teams'
/// `Action.OpenUrl`, Mattermost's `integration.url`), which take only absolute URLs (a
/// relative one makes Telegram and Discord refuse the whole message). Chime has no base
/// of the app's own to resolve a relative one against (`linkBase` is `chime serve`'s), so
/// it refuses one.
public enum TargetURL {
    /// Whether `text` is an absolute `http` or `https` URL with a host.
    public static func isAbsolute(_ text: String) -> Bool {
        guard !text.contains(where: \.isWhitespace), let url = URLComponents(string: text),
              let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" else { return false }
        return !(url.host ?? "").isEmpty
    }

    /// Why `target` is refused, naming the field; nil when it is absolute.
    public static func problem(_ target: String) -> String? {
        isAbsolute(target) ? nil
            : "content.targetContentIdentifier must be an absolute http(s) URL (such as https://app.example.org/lists/42), not \"\(target.prefix(80))\": "
                + "chat buttons and email links open it as it is"
    }
}
