/// How people's text (a reminder's title, subtitle, body, the category's action titles
/// as translated) is made inert on each platform: whatever it holds, it shows as the
/// characters typed, never as markup, a link or a mention that notifies a channel.
///
/// Each escape maps one character to what the platform must receive, so that
/// ``TextLimit/fit(_:_:_:escaping:ellipsis:)`` can shorten escaped text without ever
/// cutting an escape in two. Within a character each scalar is looked at: a platform's
/// parser reads scalars, and to it a `<` with a mark joined to it (U+0605 before, U+0338
/// after: one `Character` to Swift) is still the start of markup.
enum ChatEscaping {
    /// U+2060 WORD JOINER, invisible and never a line break: after `@` it stops every
    /// platform's mention parser (`@channel`, `@here`, `@all`, `@everyone`, `@username`)
    /// while the text reads the same.
    static let joiner = "\u{2060}"

    /// U+200F RIGHT-TO-LEFT MARK: at the start of a line it sets the line's direction
    /// where a client takes it from the first strong character (Telegram's apps).
    static let rightToLeftMark = "\u{200F}"

    /// Slack: `&`, `<` and `>` as entities, which Slack asks of every text it parses;
    /// its control sequences (`<!channel>`, `<https://…|…>`, `<@U…>`) all start with `<`.
    /// Slack has no escape for `*`, `_`, `~` or backticks: the blocks carry people's text
    /// as `plain_text`, and the message's `text` is sent with `mrkdwn: false`.
    static func slack(_ character: Character) -> String {
        eachScalar(of: character) { scalar in
            switch scalar {
            case "&": "&amp;"
            case "<": "&lt;"
            case ">": "&gt;"
            default: nil
            }
        }
    }

    /// Discord markdown: a backslash before each character markdown or a mention could
    /// start with (`*_~`|>#[]()-`, `<` of `<@id>` and `<#id>`, `@` of `@everyone`), so
    /// `[x](https://evil.example)` shows as typed. `allowed_mentions` stops pings too.
    static func discord(_ character: Character) -> String {
        eachScalar(of: character) { "\\*_~`|>#[]()-<@".unicodeScalars.contains($0) ? "\\" + String($0) : nil }
    }

    /// Mattermost markdown (a post's text, an attachment's title and text): a backslash
    /// before each ASCII punctuation CommonMark lets be escaped that starts markup, a link
    /// or a character reference, and a word joiner after `@`, which Mattermost does not
    /// take as a mention (`@channel`, `@here`, `@all` would notify the whole channel).
    /// `&` is escaped as well: Mattermost reads `&#64;channel` as `@channel` before it
    /// looks for mentions, and notified the channel.
    static func mattermostMarkdown(_ character: Character) -> String {
        eachScalar(of: character) { scalar in
            if scalar == "@" { return "@" + joiner }
            return "\\*_~`|>#[]()!<-+&".unicodeScalars.contains(scalar) ? "\\" + String(scalar) : nil
        }
    }

    /// Mattermost plain text (an attachment's fallback, shown by notifications as is):
    /// mentions only.
    static func mattermostPlain(_ character: Character) -> String {
        eachScalar(of: character) { $0 == "@" ? "@" + joiner : nil }
    }

    /// Telegram's text as the recipient reads it, before HTML escaping: a word joiner
    /// after `@` (no `@username` mention), and for a right-to-left recipient a
    /// right-to-left mark at the start of each line. Counted as Telegram counts its 4,096.
    static func telegramPlain(rightToLeft: Bool) -> (Character) -> String {
        { character in
            if rightToLeft, character.isNewline { return String(character) + rightToLeftMark }
            return eachScalar(of: character) { $0 == "@" ? "@" + joiner : nil }
        }
    }

    /// `&`, `<` and `>` escaped as ``slack(_:)`` escapes them: what Telegram's HTML parse
    /// mode asks, applied after ``telegramPlain(rightToLeft:)``.
    static func html(_ text: String) -> String {
        text.map(slack).joined()
    }

    /// `character` with each scalar `escape` has an escape for replaced by it.
    private static func eachScalar(of character: Character, _ escape: (Unicode.Scalar) -> String?) -> String {
        var escaped = ""
        for scalar in character.unicodeScalars {
            if let replacement = escape(scalar) { escaped += replacement } else { escaped.unicodeScalars.append(scalar) }
        }
        return escaped
    }
}
