import Foundation

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
    ///   - links: how web addresses are written (``Links``).
    public static func fit(_ text: String, _ limit: Int, _ unit: Unit, escaping escape: (Character) -> String,
                           links: Links = .escaped, ellipsis: String = "…") -> String {
        let characters = Array(text)
        let (verbatim, encoded) = written(characters, links)
        var pieces: [String] = []
        pieces.reserveCapacity(characters.count)
        for (index, character) in characters.enumerated() {
            if !verbatim.contains(index) {
                pieces.append(escape(character))
            } else {
                pieces.append(encoded.contains(index) ? "%40" : String(character))
            }
        }
        let escaped = pieces.joined()
        guard length(escaped, in: unit) > limit else { return escaped }
        let tail = ellipsis.map(escape).joined()
        let room = limit - length(tail, in: unit)
        guard room > 0 else { return "" }
        var result = ""
        var used = 0
        for piece in pieces {
            let size = length(piece, in: unit)
            if used + size > room { break }
            result += piece
            used += size
        }
        return result + tail
    }

    /// Blocks of text (a grouped message's entries, each its lines) one per line, escaped
    /// and fitting `limit` as ``fit(_:_:_:escaping:links:ellipsis:)`` fits one
    /// text, but whole blocks only: when they do not all fit, as many as fit with the
    /// line `more(count left out)` after them. A cut never falls inside a block, so no
    /// link of one is cut short (a link cut short still looks like one, and leads
    /// nowhere). A first block too long alone is cut as one text is.
    public static func fit(blocks: [String], _ limit: Int, _ unit: Unit, escaping escape: (Character) -> String,
                           links: Links = .escaped, more: (Int) -> String) -> String {
        let escaped = blocks.map { fit($0, Int.max, unit, escaping: escape, links: links) }
        // The line break between blocks escaped as one inside a block is (Telegram's
        // right-to-left mark after it): a bare one left every entry after the first, and
        // the "… more" line, laid out left to right.
        let newline = escape("\n"), newlineLength = length(newline, in: unit)
        let whole = escaped.joined(separator: newline)
        guard length(whole, in: unit) > limit, !escaped.isEmpty else { return whole }
        func moreLine(_ left: Int) -> String { more(left).map(escape).joined() }
        var kept: [String] = []
        var used = 0
        for (index, block) in escaped.enumerated() {
            let left = escaped.count - index - 1
            let size = (kept.isEmpty ? 0 : newlineLength) + length(block, in: unit)
            let tail = left == 0 ? 0 : newlineLength + length(moreLine(left), in: unit)
            guard used + size + tail <= limit else { break }
            kept.append(block)
            used += size
        }
        let left = escaped.count - kept.count
        guard kept.isEmpty else { return (kept + [moreLine(left)]).joined(separator: newline) }
        guard left > 1 else { return fit(blocks[0], limit, unit, escaping: escape, links: links) }
        let tail = newline + moreLine(left - 1)
        return fit(blocks[0], limit - length(tail, in: unit), unit, escaping: escape, links: links) + tail
    }
}
