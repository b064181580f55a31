/// How people's text (a reminder's title, subtitle, body, the category's action titles
/// as translated) is made inert on each platform: whatever it holds, it shows as the
/// characters typed, never as markup, a link or a mention that notifies a channel.
///
/// Each escape maps one character to what the platform must receive, so that
/// ``TextLimit/fit(_:_:_:escaping:ellipsis:)`` can shorten escaped text without ever
/// cutting an escape in two.
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
        switch character {
        case "&": "&amp;"
        case "<": "&lt;"
        case ">": "&gt;"
        default: String(character)
        }
    }

    /// Discord markdown: a backslash before each character markdown or a mention could
    /// start with (`*_~`|>#[]()-`, `<` of `<@id>` and `<#id>`, `@` of `@everyone`), so
    /// `[x](https://evil.example)` shows as typed. `allowed_mentions` stops pings too.
    static func discord(_ character: Character) -> String {
        "\\*_~`|>#[]()-<@".contains(character) ? "\\" + String(character) : String(character)
    }

    /// Mattermost markdown (a post's text, an attachment's title and text): a backslash
    /// before each ASCII punctuation CommonMark lets be escaped that starts markup or a
    /// link, and a word joiner after `@`, which Mattermost does not take as a mention
    /// (`@channel`, `@here`, `@all` would notify the whole channel).
    static func mattermostMarkdown(_ character: Character) -> String {
        if character == "@" { return "@" + joiner }
        return "\\*_~`|>#[]()!<-+".contains(character) ? "\\" + String(character) : String(character)
    }

    /// Mattermost plain text (an attachment's fallback, shown by notifications as is):
    /// mentions only.
    static func mattermostPlain(_ character: Character) -> String {
        character == "@" ? "@" + joiner : String(character)
    }

    /// Telegram's text as the recipient reads it, before HTML escaping: a word joiner
    /// after `@` (no `@username` mention), and for a right-to-left recipient a
    /// right-to-left mark at the start of each line. Counted as Telegram counts its 4,096.
    static func telegramPlain(rightToLeft: Bool) -> (Character) -> String {
        { character in
            if character == "@" { return "@" + joiner }
            if rightToLeft, character.isNewline { return String(character) + rightToLeftMark }
            return String(character)
        }
    }

    /// `&`, `<` and `>` escaped as ``slack(_:)`` escapes them: what Telegram's HTML parse
    /// mode asks, applied after ``telegramPlain(rightToLeft:)``.
    static func html(_ text: String) -> String {
        text.map(slack).joined()
    }
}
