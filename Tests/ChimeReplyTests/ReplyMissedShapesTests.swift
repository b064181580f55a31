@testable import ChimeReply
import ChimeXML
import Testing

/// The shapes issue 18 lists as missed before its rules, each written here anew from what
/// the clients put above a quote: every one ends the person's text, and what the person
/// typed is kept exactly.
@Suite("Reply text: the quote headers, separators and signatures that used to be missed")
struct ReplyMissedShapesTests {
    static let quote = "> Shopping\n> Hey, you must go shopping, remember?\n> Reply 1 for OK, got it"

    @Test("quote headers in the languages that were missing", arguments: [
        // German Gmail with the name first, its date after "schrieb am".
        "Anna Beispiel <anna@example.org> schrieb am Fr., 28. März 2025, 14:03:",
        "Am Fr., 28. März 2025 um 14:03 Uhr schrieb Anna Beispiel <anna@example.org>:",
        // Russian Gmail (older) and mail.ru.
        "28 марта 2025 г., 14:03 пользователь \"Анна\" <anna@example.org> написал:",
        "Пятница, 28 марта 2025, 14:03 +03:00 от Анна <anna@example.org>:",
        // Ukrainian, Polish, Norwegian.
        "пт, 28 бер. 2025 р. о 14:03 Анна <anna@example.org> пише:",
        "pt., 28 mar 2025 o 14:03 Anna Przykład <anna@example.org> napisał(a):",
        "Den fre. 28. mar. 2025 kl. 14:03 skrev Anna <anna@example.org>:",
        // Swedish Outlook's block.
        "Från: Anna <anna@example.org>\nSkickat: den 28 mars 2025 14:03\nTill: Chime <bot@example.org>\nÄmne: Shopping",
    ])
    func languages(header: String) {
        #expect(ReplyText.extract("Mjölk och ägg\n\n\(header)\n\(Self.quote)") == "Mjölk och ägg")
    }

    @Test("English and numeric variants", arguments: [
        "2025-03-28 14:03 GMT+02:00 Anna <anna@example.org>:",
        "At 3/28/2025 02:03 PM, you wrote:",
        "Anna <anna@example.org> wrote:",
        "---- On Fri, 28 Mar 2025 14:03:00 +0200 Anna <anna@example.org> wrote ----",
        "*-------- Original Message --------*",
        "28.03.2025, 14:03, \"Anna\" <anna@example.org>:",
    ])
    func variants(header: String) {
        #expect(ReplyText.extract("Milk and eggs\n\n\(header)\n\(Self.quote)") == "Milk and eggs")
    }

    @Test("a date and name line followed by lines quoted with a bar")
    func barQuoted() {
        let reply = "Milk and eggs\n\n2025/3/28 Anna <anna@example.org>\n| Shopping\n| Hey, you must go shopping, remember?\n"
        #expect(ReplyText.extract(reply) == "Milk and eggs")
    }

    @Test("a quote header wrapped over several lines goes whole", arguments: [
        "On Fri, Mar 28, 2025 at 2:03 PM Anna Beispiel\n<anna@example.org> wrote:",
        "On Fri, Mar 28, 2025 at 2:03 PM Anna\nBeispiel <\nanna@example.org\n> wrote:",
        "On Fri, Mar 28, 2025 at 2:03 PM Chime <bot@example.org\n<mailto:bot@example.org>> wrote:",
    ])
    func wrapped(header: String) {
        #expect(ReplyText.extract("Milk and eggs\n\n\(header)\n\n\(Self.quote)") == "Milk and eggs")
    }

    @Test("separators go with the block below them: a dashed rule above Outlook's From:, Gmail's U+1427 line, a forwarded message")
    func separators() {
        #expect(ReplyText.extract("Milk\n\n-----\nFrom: Chime <bot@example.org>\nSent: Friday, March 28, 2025 2:03 PM\nTo: Anna\nSubject: Shopping\n\nShopping") == "Milk")
        #expect(ReplyText.extract("Milk\n\u{1427}\n\nOn Fri, Mar 28, 2025 at 2:03 PM Chime <bot@example.org> wrote:\n\(Self.quote)") == "Milk")
        #expect(ReplyText.extract("Milk\n\n---------- Forwarded message ---------\nFrom: Chime <bot@example.org>\nDate: Fri, Mar 28, 2025\nSubject: Shopping\n\nShopping") == "Milk")
    }

    @Test("Outlook.com's HTML containers")
    func outlookHTML() {
        let hotmail = #"<div>Milk and eggs</div><hr id="stopSpelling">Date: Fri, 28 Mar 2025<br>From: bot@example.org<br>Shopping"#
        #expect(ReplyText.extract(HTMLText.text(of: hotmail)) == "Milk and eggs")
        let web = #"<div dir="ltr">Milk and eggs</div><div id="divRplyFwdMsg" dir="ltr"><b>From:</b> Chime</div><div>Shopping</div>"#
        #expect(ReplyText.extract(HTMLText.text(of: web)) == "Milk and eggs")
    }

    @Test("a dash signature goes; the person's sentences that start like a signature or hold 'wrote:' stay")
    func signaturesAndSentences() {
        #expect(ReplyText.extract("Milk and eggs\n\n-Anna") == "Milk and eggs")
        #expect(ReplyText.extract("Sent from my office, the printer works again.") == "Sent from my office, the printer works again.")
        let inline = "Done. On Friday you wrote: buy milk, and I did.\nAnd eggs too."
        #expect(ReplyText.extract(inline) == inline)
    }

    @Test("the person's indentation and blank lines are kept; only trailing white space goes")
    func formatting() {
        let typed = "Groceries:\n  - milk\n  - eggs\n\n\n    (the big box)"
        #expect(ReplyText.extract(typed + "  \n\nOn Fri, Mar 28, 2025 at 2:03 PM Chime <bot@example.org> wrote:\n\(Self.quote)") == typed)
    }

    @Test("bottom-posted and interleaved answers are the text that is not quoted; a quote alone is empty")
    func bottomAndInterleaved() {
        #expect(ReplyText.extract("On Fri, Mar 28, 2025 at 2:03 PM Chime <bot@example.org> wrote:\n\(Self.quote)\n\nMilk and eggs\n") == "Milk and eggs")
        let interleaved = "On Fri, Mar 28, 2025 at 2:03 PM Chime <bot@example.org> wrote:\n> Shopping\nMilk\n> Hey, you must go shopping, remember?\nEggs too\n> Reply 1 for OK, got it"
        #expect(ReplyText.extract(interleaved) == "Milk\nEggs too")
        #expect(ReplyText.extract("On Fri, Mar 28, 2025 at 2:03 PM Chime <bot@example.org> wrote:\n\(Self.quote)\n") == "")
    }
}
