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
    /// How web addresses in people's text (``linkRuns(_:)``) are written.
    public enum Links: Sendable {
        /// Escaped as the rest of the text.
        case escaped
        /// As written, for markdown that links them by itself: a backslash escape inside
        /// one (`a\_b`) is not undone there, and the link goes somewhere else.
        case asWritten
        /// As written, but an `@` that starts a word (after `/`, `?`, `=`…) as `%40`,
        /// which leads to the same place: Mattermost looks for mentions inside an
        /// address too, breaking words at `/`, so `https://x.example/@channel` notified
        /// the whole channel.
        case asWrittenWithoutMentions
    }

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
        let verbatim = links == .escaped ? [] : linkRuns(characters)
        var pieces: [String] = []
        pieces.reserveCapacity(characters.count)
        for (index, character) in characters.enumerated() {
            if !verbatim.contains(index) {
                pieces.append(escape(character))
            } else if links == .asWrittenWithoutMentions, character == "@", !(characters[index - 1].isLetter || characters[index - 1].isNumber) {
                pieces.append("%40")
            } else {
                pieces.append(String(character))
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
        let whole = escaped.joined(separator: "\n")
        guard length(whole, in: unit) > limit, !escaped.isEmpty else { return whole }
        func moreLine(_ left: Int) -> String { more(left).map(escape).joined() }
        var kept: [String] = []
        var used = 0
        for (index, block) in escaped.enumerated() {
            let left = escaped.count - index - 1
            let size = (kept.isEmpty ? 0 : 1) + length(block, in: unit)
            let tail = left == 0 ? 0 : 1 + length(moreLine(left), in: unit)
            guard used + size + tail <= limit else { break }
            kept.append(block)
            used += size
        }
        let left = escaped.count - kept.count
        guard kept.isEmpty else { return (kept + [moreLine(left)]).joined(separator: "\n") }
        guard left > 1 else { return fit(blocks[0], limit, unit, escaping: escape, links: links) }
        let tail = "\n" + moreLine(left - 1)
        return fit(blocks[0], limit - length(tail, in: unit), unit, escaping: escape, links: links) + tail
    }

    /// The positions of the characters of web addresses in `characters`: from `http://`
    /// or `https://` at the start of a word, up to the first space or `<`, as Discord's and
    /// Mattermost's markdown read an address (`https?://[^\s<]+`, their final character
    /// aside). Nothing in it is escaped: an escape inside (`/\@alice`, `Mercury_\(planet\)`,
    /// a word joiner after `@`) became part of the address, which then led elsewhere, and
    /// an escaped `)` at its end made the platform end the address on the backslash. What
    /// the run holds is read by the platform as the address, never as markup or a mention:
    /// its rule takes the text from the scheme on.
    static func linkRuns(_ characters: [Character]) -> IndexSet {
        var runs = IndexSet()
        var index = 0
        while index < characters.count {
            let startsWord = index == 0 || !(characters[index - 1].isLetter || characters[index - 1].isNumber)
            guard startsWord, characters[index] == "h", let scheme = scheme(characters, at: index) else {
                index += 1
                continue
            }
            var end = index + scheme
            while end < characters.count, !characters[end].isWhitespace, characters[end] != "<" { end += 1 }
            runs.insert(integersIn: index..<end)
            index = end
        }
        return runs
    }

    /// The length of `http://` or `https://` when `characters` has one at `index`.
    private static func scheme(_ characters: [Character], at index: Int) -> Int? {
        for scheme in ["https://", "http://"] where characters.count - index >= scheme.count + 1 {
            if zip(characters[index...], scheme).allSatisfy({ $0 == $1 }) { return scheme.count }
        }
        return nil
    }
}
