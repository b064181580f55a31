import ChimeCore

/// A short answer to a person on a chat platform (to a button pressed, a dialog's text, a
/// message in a thread), as the platform must receive it: its text inert as the
/// message's own text is (``ChatEscaping``: a reminder's or an action's title quoted in
/// it shows as typed, never as a link, markup or a mention), within the platform's limit
/// for such an answer, counted as the platform counts.
public enum ChatAnswer {
    /// Slack's `text` (sent with `mrkdwn: false`): `&<>` as entities; 4,000 UTF-16 units,
    /// past which Slack asks for blocks.
    public static func slack(_ text: String) -> String {
        TextLimit.fit(text, 4_000, .utf16, escaping: ChatEscaping.slack)
    }

    /// Discord's `content` (sent with no mention allowed): markdown escaped, web addresses
    /// as written; 2,000 code points.
    public static func discord(_ text: String) -> String {
        TextLimit.fit(text, 2_000, .scalars, escaping: ChatEscaping.discord, links: .asWritten)
    }

    /// Mattermost's `ephemeral_text` and a comment's `text`: markdown escaped, a word joiner
    /// after `@`, web addresses as written; 4,000 code points (a post takes 16,383).
    public static func mattermost(_ text: String) -> String {
        TextLimit.fit(text, 4_000, .scalars, escaping: ChatEscaping.mattermostMarkdown, links: .asWrittenWithoutMentions)
    }

    /// A Mattermost markdown link: `label` (markdown-escaped already) to `url`, whose `(`
    /// and `)` are percent-encoded so that the link ends where the URL does.
    public static func mattermostLink(_ label: String, _ url: String) -> String {
        "[\(label)](\(url.replacingOccurrences(of: "(", with: "%28").replacingOccurrences(of: ")", with: "%29")))"
    }

    /// Telegram's `answerCallbackQuery` text, shown as a notice as typed (no parse mode):
    /// 0–200 characters, counted in UTF-16 units as Telegram counts a message's.
    /// Telegram refuses a longer one, and the person's button spins with no answer.
    public static func telegramNotice(_ text: String) -> String {
        TextLimit.fit(text, 200, .utf16)
    }

    /// Telegram's `sendMessage` text with no parse mode: a word joiner after `@` (no
    /// mention) but in web addresses Telegram links, which it does before it looks for
    /// mentions; 4,096 UTF-16 units.
    public static func telegramMessage(_ text: String) -> String {
        TextLimit.fit(text, ChatPayload.telegramTextLimit, .utf16, escaping: ChatEscaping.telegramPlain(rightToLeft: false), links: .asWrittenWhereLinked)
    }
}
