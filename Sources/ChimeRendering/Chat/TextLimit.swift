/// Platform limits on text, counted the way each platform counts, and truncation that
/// never cuts a character (grapheme cluster) and ends with an ellipsis.
public enum TextLimit {
    /// What a platform counts.
    public enum Unit: Sendable {
        /// UTF-16 code units (Telegram, Slack, JavaScript-based limits).
        case utf16
        /// Unicode scalars (Discord, Mattermost).
        case scalars
        /// UTF-8 bytes (Telegram's callback_data, Teams' payload size).
        case utf8
    }

    public static func length(_ text: String, in unit: Unit) -> Int {
        switch unit {
        case .utf16: text.utf16.count
        case .scalars: text.unicodeScalars.count
        case .utf8: text.utf8.count
        }
    }

    /// The text itself when it fits, else its longest prefix of whole characters that
    /// fits with the ellipsis after it.
    public static func fit(_ text: String, _ limit: Int, _ unit: Unit, ellipsis: String = "…") -> String {
        guard length(text, in: unit) > limit else { return text }
        let room = limit - length(ellipsis, in: unit)
        guard room > 0 else { return String(ellipsis.prefix(max(0, limit))) }
        var result = ""
        var used = 0
        for character in text {
            let size = length(String(character), in: unit)
            if used + size > room { break }
            result.append(character)
            used += size
        }
        return result + ellipsis
    }
}

extension TextLimit {
    /// The text with each character escaped by `escape`, fitting `limit` as escaped: when
    /// it does not fit whole, the longest prefix of whole characters whose escapes fit with
    /// the (escaped) ellipsis after it. A cut never falls inside an escape (`&lt;`, `\*`,
    /// a zero-width break after `@`), so a shortened text never ends in half an entity.
    /// - Parameters:
    ///   - text: people's text, not yet escaped.
    ///   - limit: the platform's limit, counted in `unit` on the escaped text.
    ///   - escape: one character as the platform must receive it.
    public static func fit(_ text: String, _ limit: Int, _ unit: Unit, escaping escape: (Character) -> String,
                           ellipsis: String = "…") -> String {
        let escaped = text.map(escape).joined()
        guard length(escaped, in: unit) > limit else { return escaped }
        let tail = ellipsis.map(escape).joined()
        let room = limit - length(tail, in: unit)
        guard room > 0 else { return "" }
        var result = ""
        var used = 0
        for character in text {
            let piece = escape(character)
            let size = length(piece, in: unit)
            if used + size > room { break }
            result += piece
            used += size
        }
        return result + tail
    }
}
