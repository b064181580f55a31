/// What follows a preheader that must end an inbox's snippet: mail clients build the
/// snippet from the first text of a message (the hidden preheader, then the body) and
/// cut it after one or two lines, so blank characters that no client collapses fill it
/// up, as mail senders do, and the body's first words never reach it.
public enum PreheaderPadding {
    /// How many blanks: 200, past the longest snippets (Outlook's, Apple Mail's two
    /// lines), each one character as a client counts and shows them (the invisible
    /// character joins the blank it follows).
    static let count = 200

    /// For the HTML part's hidden preheader, as markup: `&zwnj;&nbsp;` (zero-width
    /// non-joiner, then a no-break space, which HTML never collapses), written as entities
    /// so that the part stays ASCII (quoted-printable, not base64).
    public static let html = String(repeating: "&zwnj;&nbsp;", count: count)

    /// For the text part: a plain space (where the line may wrap) and a combining
    /// grapheme joiner (U+034F, invisible), which keeps the spaces from being one run that
    /// a client would collapse. (So much non-ASCII text makes GMime choose base64 for the
    /// part, which every client reads.)
    public static let text = String(repeating: " \u{034F}", count: count)
}
