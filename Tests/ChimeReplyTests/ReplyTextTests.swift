import ChimeCore
import ChimeMIME
@testable import ChimeReply
import ChimeXML
import Testing

@Suite("Reply text and action matching")
struct ReplyTextTests {
    @Test("quote headers in several languages end the new text", arguments: [
        "On Sat, Nov 21, 2026 at 10:00 AM Chime <bot@example.org> wrote:",
        "On Sat, Nov 21, 2026 at 10:00 AM Chime <\nbot@example.org> wrote:",
        "Le sam. 21 nov. 2026 à 10:00, Chime <bot@example.org> a écrit :",
        "Am Sa., 21. Nov. 2026 um 10:00 Uhr schrieb Chime <bot@example.org>:",
        "El sáb, 21 nov 2026 a las 10:00, Chime (<bot@example.org>) escribió:",
        "21 нояб. 2026 г., в 10:00, Chime <bot@example.org> написал(а):",
        "在 2026年11月21日 10:00，Chime <bot@example.org> 写道：",
        "2026年11月21日(土) 10:00 Chime <bot@example.org>:のメッセージ:",
        "2026/11/21 10:00、Chime <bot@example.org>のメール:",
        "Wiadomość napisana przez Chime <bot@example.org> w dniu 21.11.2026, o godz. 10:00:",
        "-----Original Message-----",
        "________________________________",
        "From: Chime <bot@example.org>\nSent: Saturday, November 21, 2026 10:00 AM",
        "Chime <bot@example.org> wrote on 11/21/2026 10:00:12 AM:",
        "De : Chime <bot@example.org>\nEnvoyé : samedi 21 novembre 2026 10:00",
    ])
    func quoteHeaders(header: String) {
        let reply = "Milk, eggs\n\n\(header)\n> Reply above this line to answer.\n> Shopping"
        #expect(ReplyText.extract(reply) == "Milk, eggs")
    }

    @Test("Yahoo's German header and QQ Mail's separator (spaced with no-break spaces) above Chime's marker, in a quote without >, end the new text", arguments: [
        "Am Montag, 2. März 2026, 09:31:00 MEZ hat Chime <chime@example.net> Folgendes geschrieben:",
        "------------------\u{A0}原始邮件\u{A0}------------------",
        "Am Sa., 21. Nov. 2026 um 10:00 Uhr schrieb Chime <bot@example.org>:",
    ])
    func unquotedHeaders(header: String) {
        let reply = "Brot\n\n\(header)\n\n\nAntworten Sie oberhalb dieser Zeile.\nEinkaufen"
        #expect(ReplyText.extract(reply, markers: ["Antworten Sie oberhalb dieser Zeile."]) == "Brot")
    }

    @Test("GMX's, web.de's and mail.com's header block, its date first, ends the new text; a reply that is only such a quote is empty")
    func dateFirstHeaderBlock() {
        let gmx = "Gesendet: Mittwoch, 02. Dezember 2026 um 01:37 Uhr\nVon: \"Chime\" <bot@example.org>\nAn: alice@example.org\nBetreff: Shopping\n\nShopping\nReply 1 for OK, got it"
        #expect(ReplyText.extract("Bis morgen\n\n" + gmx) == "Bis morgen")
        #expect(ReplyText.extract("\n\n" + gmx) == "")
        let mailCom = "Sent: Wednesday, December 02, 2026 at 1:37 AM\nFrom: Chime <bot@example.org>\nTo: alice@example.org\nSubject: Shopping\n\nShopping"
        #expect(ReplyText.extract(mailCom) == "")
        // A person's own lines that look a little like it stay.
        #expect(ReplyText.extract("Datum: morgen\nVon: Anna, mit Liebe") == "Datum: morgen\nVon: Anna, mit Liebe")
        #expect(ReplyText.extract("Date: Friday\nTo: the shop") == "Date: Friday\nTo: the shop")
    }

    @Test("an HTML-only reply whose charset only its <meta> names is read in that charset")
    func metaCharset() throws {
        // "Удалить список" in windows-1251, the part's Content-Type naming no charset.
        let words: [UInt8] = [211, 228, 224, 235, 232, 242, 252, 32, 241, 239, 232, 241, 238, 234]
        let head = "From: alice@example.org\r\nTo: bot@example.org\r\nSubject: Re: Shopping\r\nMIME-Version: 1.0\r\nContent-Type: text/html\r\nContent-Transfer-Encoding: 8bit\r\n\r\n"
        let page = Array(#"<html><head><meta http-equiv="Content-Type" content="text/html; charset=windows-1251"></head><body><div>"#.utf8)
            + words + Array("</div></body></html>\r\n".utf8)
        let mail = try #require(ParsedMail(bytes: Array(head.utf8) + page))
        #expect(ReplyText.body(of: mail) == "Удалить список")
        #expect(ReplyText.metaCharset(Array(#"<meta charset='Shift_JIS'>"#.utf8)) == "shift_jis")
        #expect(ReplyText.metaCharset(Array("<p>no charset</p>".utf8)) == nil)
    }

    @Test("signatures, sent-from lines and the marker go; a bottom-posted answer is found below the quote")
    func signaturesAndBottomPosting() {
        #expect(ReplyText.extract("2\n\nSent from my iPhone") == "2")
        #expect(ReplyText.extract("2\n-- \nAlice Example\nACME") == "2")
        #expect(ReplyText.extract("Liste löschen\n\nVon meinem iPhone gesendet") == "Liste löschen")
        #expect(ReplyText.extract("3\niPhoneから送信") == "3")
        #expect(ReplyText.extract("OK\nRéponds au-dessus\nRépondez au-dessus de cette ligne.\nShopping", markers: ["Répondez au-dessus de cette ligne."]) == "OK\nRéponds au-dessus")
        #expect(ReplyText.extract("On Sat, Nov 21, 2026 Chime wrote:\n> Shopping\n> Reply 1 for OK, got it\n\n1\n") == "1")
        // No header a client wrote above the quote, only Chime's marker, quoted: the
        // answer below it, or between the quoted lines, is the person's.
        let marker = ["Reply above this line to answer."]
        #expect(ReplyText.extract("> Reply above this line to answer.\n> Shopping\n> Reply 1 for OK, got it\n\n1\n", markers: marker) == "1")
        #expect(ReplyText.extract("> Reply above this line to answer.\n> Shopping\n2\n> Reply 1 for OK, got it\n", markers: marker) == "2")
        #expect(ReplyText.extract("3\n\n> Reply above this line to answer.\n> Shopping\n", markers: marker) == "3")
        #expect(ReplyText.extract("3\nReply above this line to answer.\nShopping\n2", markers: marker) == "3")
    }

    @Test("HTML replies: the quote containers of Gmail, Outlook, Apple Mail, Thunderbird and Yahoo are left out")
    func html() {
        let gmail = #"<div dir="ltr">Delete list<br></div><br><div class="gmail_quote"><div dir="ltr" class="gmail_attr">On Sat wrote:<br></div><blockquote>Reply 1</blockquote></div>"#
        #expect(ReplyText.extract(HTMLText.text(of: gmail)) == "Delete list")
        let outlook = #"<html><body><div>Milk&nbsp;and eggs</div><div id="appendonsend"></div><hr><div id="divRplyFwdMsg"><b>From:</b> Chime</div><div>Reply 1</div></body></html>"#
        #expect(ReplyText.extract(HTMLText.text(of: outlook)) == "Milk and eggs")
        let apple = #"<html><body>2<div><br><blockquote type="cite"><div>Reply 2 for Edit list</div></blockquote></div></body></html>"#
        #expect(ReplyText.extract(HTMLText.text(of: apple)) == "2")
        let yahoo = #"<div>OK, got it</div><div class="yahoo_quoted"><div>On Saturday Chime wrote:</div></div><script>alert(1)</script>"#
        #expect(ReplyText.extract(HTMLText.text(of: yahoo)) == "OK, got it")
    }

    @Test("Outlook mobile's signature in each language's own words goes; a sentence that starts like it stays", arguments: [
        ("Milk\n\nGet Outlook for Android<https://aka.ms/AAb9ysg>", "Milk"),
        ("Milch\n\nOutlook für Android<https://aka.ms/AAb9ysg> herunterladen", "Milch"),
        ("Süt\n\nAndroid için Outlook<https://aka.ms/AAb9ysg>'u edinin", "Süt"),
        ("우유\n\nAndroid용 Outlook<https://aka.ms/AAb9ysg> 받기", "우유"),
        ("牛乳\n\niOS 版 Outlook<https://aka.ms/o0ukef> を入手", "牛乳"),
        ("Tej\n\nOutlook beszerzése iOS rendszerre", "Tej"),
        ("Milk\n\nGet Outlook for the whole team, please", "Milk\n\nGet Outlook for the whole team, please"),
        ("Milch\n\nIch kann die Wohnung morgen beziehen", "Milch\n\nIch kann die Wohnung morgen beziehen"),
    ])
    func outlookMobile(reply: String, text: String) {
        #expect(ReplyText.extract(reply) == text)
    }

    @Test("the other mobile apps' lines go where they name a device or an app; the person's sentences stay", arguments: [
        ("Lait\n\nEnvoyé de Yahoo Mail pour Android", "Lait"),
        ("Lait\n\nEnvoyé de Paris", "Lait\n\nEnvoyé de Paris"),
        ("Mjölk\n\nSkickat med Spark", "Mjölk"),
        ("Lait\n\nEnvoyé de mon appareil Android avec K-9 Mail. Veuillez excuser ma brièveté.", "Lait"),
        ("Milch\n\nVon meinem Fairphone gesendet", "Milch"),
        ("Milch\n\nVon meinem Bruder habe ich nichts gehört", "Milch\n\nVon meinem Bruder habe ich nichts gehört"),
        ("好\n\n我明天发送", "好\n\n我明天发送"),
        ("好\n\n从我的 Galaxy 发送", "好"),
    ])
    func mobileSignatures(reply: String, text: String) {
        #expect(ReplyText.extract(reply) == text)
    }

    @Test("text above the quote and answers between its lines are both the person's; a 'sent from' line between them goes")
    func mixedTopAndInterleaved() {
        let reply = "See below.\n\nSent from my iPhone\n\n> On Apr 7, 2025, at 09:12, Chime <bot@example.org> wrote:\n>\n> Shopping\nYes.\n\n> Reply 1 for OK\n1\n> Reply 2 for Edit list"
        #expect(ReplyText.extract(reply) == "See below.\n\nYes.\n\n1")
        let gmail = "See below.\n\nOn Mon, Apr 7, 2025 at 9:12 AM Chime <bot@example.org> wrote:\n\n> Shopping\n\nYes.\n\n> Reply 1 for OK\n> Reply 2 for Edit list\n"
        #expect(ReplyText.extract(gmail) == "See below.\n\nYes.")
    }

    @Test("HTML of the Android and iOS apps: quote containers, separators and signatures by structure", arguments: [
        // Outlook for Android and iOS
        #"<div dir="auto">Milk</div><div id="ms-outlook-mobile-signature"><div>Get <a href="https://aka.ms/AAb9ysg">Outlook for Android</a></div></div><hr style="display:inline-block;width:98%" tabindex="-1"><div><b>From:</b> Chime</div><div>Reply 1</div>"#,
        // Samsung Email
        #"<div dir="auto">Milk</div><div id="composer_signature"><div>Sent from my Galaxy</div></div><div align="left"><!-- originalMessage --><div>From: Chime</div></div>Reply 1"#,
        // K-9 Mail, Thunderbird for Android
        #"<div dir="auto">Milk</div><div class="k9mail-signature">Sent from my Android device with K-9 Mail.</div><div class="gmail_quote"><div>On … wrote:</div><blockquote class="gmail_quote">Reply 1</blockquote></div>"#,
        // Yahoo Mail for Android
        #"<div>Milk</div><div id="ymail_android_signature"><a href="https://mail.onelink.me/">Sent from Yahoo Mail on Android</a></div><blockquote><div>On Mon, Chime wrote:</div><div>Reply 1</div></blockquote>"#,
        // Spark
        #"<div name="messageBodySection"><div>Milk</div></div><div name="messageSignatureSection"><div>Sent with Spark</div></div><div name="messageReplySection">On 7 Apr 2025, Chime wrote:<blockquote type="cite">Reply 1</blockquote></div>"#,
        // new Outlook and Outlook on the web
        #"<div>Milk</div><div id="mail-editor-reference-message-container"><div><b>From:</b> Chime</div><div>Reply 1</div></div>"#,
    ])
    func htmlApps(html: String) {
        #expect(ReplyText.extract(HTMLText.text(of: html)) == "Milk")
    }

    @Test("HTML: answers typed between a Gmail quote's parts are the person's; a forwarded message in one is not")
    func htmlInterleaved() {
        let gmail = #"<div dir="ltr">See below.</div><br><div class="gmail_quote"><div class="gmail_attr">On Mon Chime wrote:<br></div><blockquote class="gmail_quote"><div>Shopping</div></blockquote><div>Yes.</div><div><br></div><blockquote class="gmail_quote"><div>Reply 1</div></blockquote><div>1</div></div>"#
        #expect(ReplyText.extract(HTMLText.text(of: gmail)) == "See below.\n\nYes.\n\n1")
        let forwarded = #"<div dir="ltr">FYI</div><br><div class="gmail_quote"><div class="gmail_attr">---------- Forwarded message ---------<br>From: Chime</div><br><div dir="ltr">Reply 1 for OK</div></div>"#
        #expect(ReplyText.extract(HTMLText.text(of: forwarded)) == "FYI")
    }

    let category = NotificationCategory(
        identifier: "shopping",
        actions: [
            NotificationAction(identifier: "justInform", title: "OK, got it"),
            NotificationAction(identifier: "editList", title: "Edit list"),
            NotificationAction(identifier: "trashAction", title: "Delete list", options: [.destructive]),
            NotificationAction(identifier: "addItem", title: "Add item", textInput: .init(buttonTitle: "Add", placeholder: "")),
        ],
        options: [.customDismissAction])

    var matcher: ActionMatcher {
        ActionMatcher(category: category) { title in
            ["OK, got it": ["OK, compris", "OK"], "Delete list": ["Supprimer la liste", "Liste löschen", "Удалить список", "リストを削除"],
             "Add item": ["Ajouter un article", "項目を追加"]][title, default: []] + [title]
        }
    }

    @Test("numbers, identifiers and titles in any locale, without regard to case, accents and punctuation", arguments: [
        ("2", "editList", nil), ("#2", "editList", nil), (" 2. ", "editList", nil), ("trashAction", "trashAction", nil),
        ("DELETE LIST!", "trashAction", nil), ("supprimer la liste", "trashAction", nil), ("Liste loschen", "trashAction", nil),
        ("удалить список", "trashAction", nil), ("リストを削除", "trashAction", nil), ("ok, got it.", "justInform", nil),
        ("Add item: Milk", "addItem", "Milk"), ("4 Milk, eggs", "addItem", "Milk, eggs"), ("Ajouter un article : lait", "addItem", "lait"),
        ("項目を追加：牛乳", "addItem", "牛乳"), ("Crème fraîche", "addItem", "Crème fraîche"), ("dismiss", BuiltInAction.dismiss.rawValue, nil),
    ] as [(String, String, String?)])
    func matching(reply: String, action: String, text: String?) {
        #expect(matcher.match(text: reply) == ActionMatcher.Match(action: action, userText: text))
    }

    @Test("in a category whose one text-input action takes any other answer, thanks alone is no item: it matches nothing")
    func thanksAlone() {
        for reply in ["Thanks!", "thank you very much", "Merci beaucoup !", "Danke schön", "Спасибо!", "ありがとうございます"] {
            #expect(matcher.match(text: reply) == nil, "\(reply)")
        }
        #expect(matcher.match(text: "Milk, thanks") == ActionMatcher.Match(action: "addItem", userText: "Milk, thanks"))
    }

    @Test("an empty reply takes the subject's bracket tag, unless the reminder's title has it; else matches nothing")
    func subjectTag() {
        #expect(matcher.match(text: "", subject: "Re: Shopping [3]") == ActionMatcher.Match(action: "trashAction", userText: nil))
        #expect(matcher.match(text: "\n\n", subject: "Re: Shopping") == nil)
        #expect(matcher.match(text: "", subject: "Re: Backup [3]", title: "Backup [3]") == nil)
    }

    /// A category without a text-input action, whose unmatched replies stay unmatched.
    var plainMatcher: ActionMatcher {
        ActionMatcher(category: NotificationCategory(identifier: "plain", actions: Array(category.actions.prefix(3))), titles: { title in
            ["Delete list": ["Supprimer la liste", "Liste löschen", "リストを削除", "删除列表"], "OK, got it": ["OK"]][title, default: []] + [title]
        }, menuForms: .init(lines: ["Reply %1$u for %2$@", "Antworten Sie %1$u für %2$@", "%2$@：%1$uと返信"],
                         notes: ["cannot be undone", "kann nicht rückgängig gemacht werden", "no se puede deshacer", "nie można cofnąć"]))
    }

    @Test("an action's name followed by other words is another sentence, unless they thank or say please", arguments: [
        ("Delete list? No! Keep it.", nil), ("Supprimer la liste ? Non surtout pas", nil), ("Liste löschen? Nein, bitte nicht!", nil),
        ("3 bananas and 2 apples", nil), ("1 more thing: buy eggs too", nil), ("Done yet? Not really, tomorrow.", nil),
        ("Snooze? No thanks, going now.", nil), ("Keep me posted", nil),
        ("2 please", "editList"), ("OK, got it, thanks!", "justInform"), ("Delete list, merci beaucoup", "trashAction"),
        ("3", "trashAction"), ("Liste löschen, bitte", "trashAction"), ("done", BuiltInAction.done.rawValue),
        // Thanks of several words: "so much", "a lot", "merci bien", "danke sehr".
        ("Done, thank you so much!", BuiltInAction.done.rawValue), ("2, thanks a lot", "editList"), ("Delete list, merci bien", "trashAction"),
        ("Liste löschen, danke sehr", "trashAction"), ("Done - much appreciated", BuiltInAction.done.rawValue), ("Thanks a lot", nil),
        // Written without spaces, the name runs into what follows: a negation after it
        // (Japanese puts it after the verb) is not that action.
        ("リストを削除しないでください", nil), ("リストを削除しないで", nil), ("リストを削除は不要です", nil), ("リストを削除していません", nil),
        ("リストを削除やめて", nil), ("删除列表不了", nil),
        ("リストを削除してください", "trashAction"), ("リストを削除お願いします", "trashAction"), ("删除列表吧", "trashAction"),
        // Nor any other words run into it: only polite endings and thanks leave it the answer.
        ("リストを削除するかどうか迷っています", nil), ("リストを削除の日を変えて", nil), ("删除列表的时候告诉我", nil),
        ("リストを削除しました。ありがとう", "trashAction"), ("删除列表了，谢谢", "trashAction"),
        // The menu's number with a polite ending run into it, and in other scripts' digits.
        ("2お願いします", "editList"), ("2です", "editList"), ("２", "editList"), ("٢", "editList"), ("२", "editList"), ("٣ من فضلك", "trashAction"),
        ("2日後", nil),
    ] as [(String, String?)])
    func notTheActionsName(reply: String, action: String?) {
        #expect(plainMatcher.match(text: reply)?.action == action, "\(reply)")
    }

    @Test("a greeting alone on the first line is passed over for the answer below it, in the shipped languages' openings, and is no part of a text-input action's text")
    func greetingFirst() {
        #expect(plainMatcher.match(text: "Hi,\n\n2\n\nThanks")?.action == "editList")
        #expect(plainMatcher.match(text: "Bonjour Anna,\n2\nMerci")?.action == "editList")
        #expect(plainMatcher.match(text: "Hello there, I think we should talk\n2")?.action == nil)
        for opening in ["Liebe Anna,", "Sehr geehrte Damen und Herren,", "Dear Sir or Madam,", "Chère Anna,", "Estimado equipo,",
                        "Уважаемые коллеги,", "Szanowni Państwo,", "Good morning Chime."] {
            #expect(plainMatcher.match(text: "\(opening)\n\n2")?.action == "editList", "\(opening)")
            #expect(matcher.match(text: "\(opening)\n\n2")?.action == "editList", "\(opening)")
        }
        #expect(matcher.match(text: "Hi,\n\nMilch") == ActionMatcher.Match(action: "addItem", userText: "Milch"))
        #expect(matcher.match(text: "Hallo,\n\nMilch und Eier bitte.") == ActionMatcher.Match(action: "addItem", userText: "Milch und Eier bitte."))
    }

    @Test("please or thanks before the answer leave it the answer; the menu's number with its bracket")
    func politeFirst() {
        #expect(plainMatcher.match(text: "Please 2")?.action == "editList")
        #expect(plainMatcher.match(text: "Bitte 2")?.action == "editList")
        #expect(plainMatcher.match(text: "Bitte Liste löschen")?.action == "trashAction")
        #expect(matcher.match(text: "Please snooze 2h") == ActionMatcher.Match(action: BuiltInAction.snooze.rawValue, userText: "2h"))
        #expect(matcher.match(text: "Please, thanks") == nil, "courtesy alone is no item")
        #expect(matcher.match(text: "Please add eggs") == ActionMatcher.Match(action: "addItem", userText: "Please add eggs"))
        #expect(matcher.match(text: "4) Milch") == ActionMatcher.Match(action: "addItem", userText: "Milch"))
        #expect(matcher.match(text: "(4) Milch") == ActionMatcher.Match(action: "addItem", userText: "Milch"))
        #expect(matcher.match(text: "Snooze till 3pm") == ActionMatcher.Match(action: BuiltInAction.snooze.rawValue, userText: "till 3pm"))
        #expect(matcher.match(text: "Snooze jusqu'à 15h30")?.action == BuiltInAction.snooze.rawValue)
        #expect(matcher.match(text: "Snooze hasta las 15:00")?.action == BuiltInAction.snooze.rawValue)
    }

    @Test("a menu line copied as the email writes it is that action; a number beside another action's name is none")
    func menuLineCopied() {
        #expect(plainMatcher.match(text: "Reply 2 for Edit list")?.action == "editList")
        #expect(plainMatcher.match(text: "Antworten Sie 3 für Liste löschen")?.action == "trashAction")
        #expect(matcher.match(text: "Reply 2 for Edit list") == ActionMatcher.Match(action: "editList", userText: nil))
        #expect(plainMatcher.match(text: "I'd say 2, not Delete list")?.action == nil)
        #expect(plainMatcher.match(text: "2 or 3? Edit list or Delete list")?.action == nil)
        // The menu's own words, and nothing else: a sentence naming a number and an action
        // asks for no action (a second review: these deleted the list).
        #expect(plainMatcher.match(text: "Reply 3 for Delete list (cannot be undone)")?.action == "trashAction")
        #expect(plainMatcher.match(text: "Antworten Sie 3 für Liste löschen (kann nicht rückgängig gemacht werden)")?.action == "trashAction")
        #expect(plainMatcher.match(text: "リストを削除：3と返信")?.action == "trashAction")
        for sentence in ["Don't delete list yet, I still need 3", "リストを削除？まだ3個残ってるよ", "リストを削除？いいえ、3日待ってください。",
                         "リストを削除、12月3日にお願いします。"] {
            #expect(plainMatcher.match(text: sentence) == nil, "\(sentence)")
        }
    }

    @Test("a reply's lines split at LF, CRLF and CR, multi-byte text kept whole")
    func lineBreaks() {
        #expect(ReplyText.lines("") == [""])
        #expect(ReplyText.lines("ok") == ["ok"])
        #expect(ReplyText.lines("a\nb\r\nc\rd") == ["a", "b", "c", "d"])
        #expect(ReplyText.lines("a\r\r\nb\n\n") == ["a", "", "b", "", ""])
        #expect(ReplyText.lines("\r\nÉté ✓\r\n日本\n") == ["", "Été ✓", "日本", ""])
    }

    /// The pre-check spares most windows the joining; it must pass every window the
    /// joining would find: headers ending in a colon, a full-width colon or `>` above
    /// `|` lines, behind white space (ASCII and not), direction marks and blank lines.
    @Test("the header pre-check passes every window a header could end")
    func headerPreCheck() {
        let rules = QuoteRules.standard
        let endings = [":", "：", ":\u{200F}", ": ", ":\u{A0}", ":\u{3000}", "\u{200E}:", ":\t ", ">"]
        let heads = ["On Sat, Nov 21, 2026 at 10:00 AM Chime <bot@example.org> wrote", "Am 21.11.2026 um 10:00 schrieb Chime",
                     "2026/11/21 Chime <bot@example.org>", "Le sam. 21 nov. 2026, Chime a écrit", "在 2026年11月21日，Chime 写道"]
        var found = 0
        for head in heads {
            for ending in endings {
                let words = (head + ending).split(separator: " ").map(String.init)
                for wrap in [1, 2, 3] {
                    // The header wrapped into `wrap` lines, with the person's text above and
                    // quoted lines below.
                    let size = (words.count + wrap - 1) / wrap
                    let header = stride(from: 0, to: words.count, by: size).map { words[$0..<min($0 + size, words.count)].joined(separator: " ") }
                    for above in [[], ["Done"], ["Done", ""], ["Done", "  "]] {
                        let lines = above + header + ["| > Water the plants.", "> Reply 1 for Done"]
                        for index in lines.indices where rules.joinedWindow(lines, at: index) != nil {
                            found += 1
                            #expect(QuoteRules.mayEndWindow(lines, at: index), "\(lines) at \(index)")
                        }
                    }
                }
            }
        }
        #expect(found > 200)
        #expect(!QuoteRules.mayEndWindow(["Done", "", "On Sat, Nov 21, 2026 Chime wrote:"], at: 0))
        #expect(!QuoteRules.mayEndWindow(["Thanks, see you", "tomorrow at ten"], at: 0))
    }

    /// The patterns are compiled when first tried: each must still compile.
    @Test("every language's header patterns compile, and Outlook's signatures are made")
    func tablesCompile() {
        let rules = QuoteRules.standard
        let tables = QuoteLanguage.tables.filter { !$0.wrote.isEmpty }
        #expect(rules.wrote.count == tables.count)
        for (compiled, table) in zip(rules.wrote, tables) {
            #expect(compiled.patterns.expressions.count == table.wrote.count)
        }
        #expect(rules.outlookSignatures.count == 2 * QuoteLanguage.tables.flatMap(\.getOutlook).count)
    }

    @Test("trimming and blank lines as Characters decide them, for lines of spaces, marks, joiners and scripts")
    func trimmingAgreesWithCharacters() {
        // The Character-by-Character definitions the byte test spares most lines.
        func trimmed(_ line: String) -> String {
            guard let first = line.firstIndex(where: { !$0.isWhitespace || $0.isNewline }) else { return "" }
            return String(line[first...line.lastIndex(where: { !$0.isWhitespace || $0.isNewline })!])
        }
        func trimmedEnd(_ line: String) -> String {
            guard let last = line.lastIndex(where: { !$0.isWhitespace || $0.isNewline }) else { return "" }
            return String(line[...last])
        }
        let pieces = ["a", "Z", "!", "~", "1", " ", "\t", "\u{A0}", "\u{3000}", "\u{2003}", "\u{301}", "\u{200D}", "\u{600}", "\u{FE0F}",
                      "é", "\u{1F44D}", "\u{1F1EB}", "\r\n", "\r", "\u{85}", "\u{2028}", "א", "\u{200F}"]
        var random = SystemRandomNumberGenerator()
        for _ in 0..<3_000 {
            let line = (0..<Int.random(in: 0...6, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined()
            #expect(ReplyText.trimmed(line) == trimmed(line), "\(line.unicodeScalars.map { String($0.value, radix: 16) })")
            #expect(ReplyText.trimmedEnd(line) == trimmedEnd(line), "\(line.unicodeScalars.map { String($0.value, radix: 16) })")
            #expect(ReplyText.isBlank(line) == line.allSatisfy { $0.isWhitespace && !$0.isNewline },
                    "\(line.unicodeScalars.map { String($0.value, radix: 16) })")
        }
    }
}
