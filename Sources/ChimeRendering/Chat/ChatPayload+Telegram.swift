import ChimeCore
import Foundation

extension ChatPayload {
    /// Telegram's limit on a message's text, counted in UTF-16 after its HTML is parsed.
    static let telegramTextLimit = 4096

    /// How many invisible characters keep hidden content out of Telegram's first lines:
    /// as many as an email's preheader padding (``PreheaderPadding``), past what a push
    /// notification or the chat list shows.
    static let telegramPadding = 200

    /// `sendMessage` with HTML parse mode: `text` (4,096 after parsing), buttons in an
    /// `inline_keyboard` whose `callback_data` is at most 64 bytes; not `interactive` (no
    /// secret token to verify presses with), each button is a link to its signed action
    /// page.
    ///
    /// The start of the text is the push notification and the chat list's preview. Where
    /// the recipient's previews hide the content but the opened chat may show it
    /// (`whenAuthenticated`), the text starts with what the surfaces show (the
    /// placeholder) and the date, then 200 invisible characters, then the title and text
    /// as a spoiler (`<tg-spoiler>`, which Telegram also hides in notifications and
    /// previews, shown by a tap in the chat).
    ///
    /// Every part is fitted to its share of the 4,096 as the recipient reads it, then
    /// HTML-escaped, so a cut never falls inside `&lt;` and the bold and italic tags are
    /// closed by construction. People's `@` is never a mention (``ChatEscaping``). For
    /// a right-to-left recipient each line starts with a right-to-left mark: Telegram's
    /// Bot API has no direction setting, its apps take a line's from its first strong
    /// character.
    static func telegram(_ message: ChatMessage, interactive: Bool = true) -> JSONValue {
        var fitted = TelegramText(rightToLeft: message.rightToLeft)
        let hides = message.surfaces.bodyShowsHiddenContent
        let headline = hides ? message.surfaces.subject : message.headline
        // Fitted in order of importance (headline, date, then the text); shown in the
        // order of reading.
        let head = fitted.part(headline, cap: 1024)
        let date = message.dateText.isEmpty ? "" : fitted.part(message.dateText, cap: 256)
        var parts = ["<b>\(head)</b>"]
        if hides {
            if !date.isEmpty { parts.append("<i>\(date)</i>") }
            parts.append(fitted.padding(telegramPadding))
            var hidden: [String] = []
            if !message.title.isEmpty, message.title != message.surfaces.subject {
                hidden.append("<b>\(fitted.part(message.title, cap: 1024))</b>")
            }
            if !message.shownText.isEmpty { hidden.append(fitted.part(of: message)) }
            if !hidden.isEmpty { parts.append("<tg-spoiler>" + hidden.joined(separator: "\n\n") + "</tg-spoiler>") }
        } else {
            if !message.shownText.isEmpty { parts.append(fitted.part(of: message)) }
            if !date.isEmpty { parts.append("<i>\(date)</i>") }
        }
        let text = parts.joined(separator: "\n\n")
        // Telegram refuses the whole message (BUTTON_URL_INVALID) when a button links to a
        // host without a dot (`http://intranet/…`, `http://localhost:8080`): such a link
        // is left out, a foreground action then pressed in the chat where presses come back.
        var rows: [JSONValue] = message.actions.prefix(NotificationCategory.maximumDefaultActions).compactMap { action in
            let title = JSONValue.string(TextLimit.fit(action.title, 64, .utf16))
            let linked = (action.options.contains(.foreground) || !interactive) && telegramLinkable(action.url)
            if !linked, !interactive { return nil }
            let button: [String: JSONValue] = linked
                ? ["text": title, "url": .string(action.url)]
                : ["text": title, "callback_data": .string(TextLimit.fit(action.token, 64, .utf8, ellipsis: ""))]
            return .array([.object(button)])
        }
        if !message.surfaces.bodyShowsContent, telegramLinkable(message.viewURL) {
            rows.append(.array([.object(["text": .string(message.words.view), "url": .string(message.viewURL)])]))
        }
        var body: [String: JSONValue] = ["text": .string(text), "parse_mode": .string("HTML"), "disable_web_page_preview": .bool(true)]
        if !rows.isEmpty { body["reply_markup"] = .object(["inline_keyboard": .array(rows)]) }
        return .object(body)
    }
}

extension ChatPayload {
    /// Whether Telegram takes `url` for a button: its host has a dot (a domain name or an
    /// IPv4 address).
    public static func telegramLinkable(_ url: String) -> Bool {
        URLComponents(string: url)?.host?.contains(".") == true
    }
}

/// The parts of a Telegram text sharing its 4,096 UTF-16 units as the recipient reads
/// them, each part and the blank line before it counted.
struct TelegramText {
    let rightToLeft: Bool
    private(set) var left = ChatPayload.telegramTextLimit

    init(rightToLeft: Bool) {
        self.rightToLeft = rightToLeft
    }

    private var mark: String { rightToLeft ? ChatEscaping.rightToLeftMark : "" }

    /// One part, at most `cap` units and what is left, as HTML: fitted as read, then
    /// escaped.
    mutating func part(_ text: String, cap: Int) -> String {
        part(cap: cap) { [rightToLeft] room in TextLimit.fit(text, room, .utf16, escaping: ChatEscaping.telegramPlain(rightToLeft: rightToLeft), links: .asWrittenWhereLinked) }
    }

    /// The message's text in what is left (``ChatMessage/fittedText(_:_:escaping:links:)``:
    /// a grouped message's whole entries), as HTML.
    mutating func part(of message: ChatMessage) -> String {
        part(cap: .max) { [rightToLeft] room in message.fittedText(room, .utf16, escaping: ChatEscaping.telegramPlain(rightToLeft: rightToLeft), links: .asWrittenWhereLinked) }
    }

    /// A part `fit` makes within the room given it, counted and escaped.
    private mutating func part(cap: Int, _ fit: (Int) -> String) -> String {
        let separator = 2 + mark.utf16.count
        let room = min(cap, left - separator)
        guard room > 0 else { return "" }
        let read = fit(room)
        left -= separator + read.utf16.count
        return ChatEscaping.html(mark + read)
    }

    /// A line of zero-width spaces, taken from what is left.
    mutating func padding(_ count: Int) -> String {
        left -= 2 + count
        return String(repeating: "\u{200B}", count: count)
    }
}
