@testable import ChimeReply
import ChimeCore
import ChimeMIME
import ChimeXML
import Testing

/// Replies as mail clients write them that a review found misread: the answer under a
/// greeting the list lacked, a number with its action's title after it, a blank plain
/// part beside the HTML that holds the answer, quote headers with no table of their
/// language, and charsets that clients label narrower than what they write.
@Suite("Reply text: the forms of real clients found misread")
struct ReplyClientFormsTests {
    static let quote = "> Shopping\n> Hey, you must go shopping, remember?\n> Reply 1 for OK, got it"

    /// The shopping category of the matcher's own tests (OK, Edit list, Delete list, Add item).
    var category: NotificationCategory { ReplyTextTests().category }

    var matcher: ActionMatcher {
        ActionMatcher(category: category, titles: { title in
            ["Edit list": ["Modifier la liste", "Liste bearbeiten", "Изменить список", "リストを編集"]][title, default: []] + [title]
        }, menuForms: .init(lines: ["Reply %1$u for %2$@", "%2$@：%1$uと返信"], notes: ["cannot be undone"]))
    }

    @Test("a greeting on a line of its own, in the shipped languages, is passed over to the answer below it", arguments: [
        "Good morning,\n\n2", "Good afternoon!\n2", "Morning,\n2", "Bonsoir,\n\n2", "Guten Morgen,\n2", "Moin,\n2",
        "Buenas tardes,\n2", "Добрый день!\n\n2", "Доброе утро,\n2", "Witam,\n2", "お疲れ様です。\n2", "おはようございます\n2", "您好，\n2",
    ])
    func greetings(reply: String) {
        // Before, "Good morning,\n\n2" became the shopping list's item "Good morning,\n\n2".
        #expect(matcher.match(text: reply) == ActionMatcher.Match(action: "editList", userText: nil), "\(reply)")
    }

    @Test("the menu's number followed by its own action's title, as people copy the menu's line, is that action", arguments: [
        "2 - Edit list", "2. Edit list", "2) edit list", "2: Liste bearbeiten", "2 – Modifier la liste", "2番", "2번",
    ])
    func numberAndTitle(reply: String) {
        #expect(matcher.match(text: reply) == ActionMatcher.Match(action: "editList", userText: nil), "\(reply)")
    }

    @Test("a number followed by another action's title is not taken for either")
    func numberAndOtherTitle() {
        // The shopping category's one text-input action takes it as its text, as any
        // answer naming no action; a category without one matches nothing.
        #expect(matcher.match(text: "2 - Delete list")?.action == "addItem")
        let plain = ActionMatcher(category: NotificationCategory(identifier: "plain", actions: Array(category.actions.prefix(3)))) { [$0] }
        #expect(plain.match(text: "2 - Delete list") == nil)
        #expect(plain.match(text: "3 - Delete list") == ActionMatcher.Match(action: "trashAction", userText: nil))
    }

    @Test("quote headers of languages without a table, naming the address they quote, end the answer", arguments: [
        // Gmail in Catalan and Lithuanian, on one line and wrapped as Gmail wraps them.
        "El dl., 7 d’abr. 2025 a les 9:12, Reminders (<bot@example.org>) va escriure:",
        "El dl., 7 d’abr. 2025 a les 9:12, Reminders (<bot@example.org>) va\nescriure:",
        "2025-04-07, pr, 09:12, Reminders <bot@example.org> rašė:",
        "På mån 7 apr. 2025 kl 09:12 skrev Reminders <bot@example.org>:",
    ])
    func unknownLanguageHeaders(header: String) {
        #expect(ReplyText.extract("Llet i ous\n\n\(header)\n\n\(Self.quote)") == "Llet i ous", "\(header)")
        // Nothing typed above it: nothing is the answer (not the header, as an item).
        #expect(ReplyText.extract("\(header)\n\(Self.quote)") == "", "\(header)")
    }

    @Test("a line of the person's own that ends with a colon before their quote stays theirs when it names no address, and an answer written right above such a header stays")
    func ownColonLine() {
        #expect(ReplyText.extract("Add item: milk, eggs, and also:\n\(Self.quote)") == "Add item: milk, eggs, and also:")
        let header = "El dl., 7 d’abr. 2025 a les 9:12, Reminders (<bot@example.org>) va escriure:"
        #expect(ReplyText.extract("Fet\n\(header)\n\(Self.quote)") == "Fet")
        #expect(ReplyText.extract("Llet i ous\n\(header)\n\(Self.quote)") == "Llet i ous")
    }

    @Test("an answer written right above a quote header that begins as headers begin, with no blank line, stays the answer; a header wrapped after its name or address is still one header", arguments: [
        "On Sat, Nov 21, 2026 at 10:00 AM Chime <bot@example.org> wrote:", "Le sam. 21 nov. 2026 à 10:00, Chime <bot@example.org> a écrit :",
        "Am Sa., 21. Nov. 2026 um 10:00 Uhr schrieb Chime <bot@example.org>:", "On 21 Nov 2026, at 10:00, Chime <bot@example.org> wrote:",
    ])
    func answerRightAboveHeader(header: String) {
        for answer in ["Yes, delete it", "2", "Done", "Milk and eggs please", "Snooze until 15:00"] {
            #expect(ReplyText.extract("\(answer)\n\(header)\n\(Self.quote)") == answer, "\(answer)")
        }
        #expect(ReplyText.extract("Yes\nOn Sat, Nov 21, 2026 at 10:00 AM Reminders from Chime <\nreminders-bot@example.org> wrote:\n\(Self.quote)") == "Yes")
        #expect(ReplyText.extract("Yes\n\nOn Sat, Nov 21, 2026 at 10:00 AM Chime <\nbot@example.org> wrote:\n\(Self.quote)") == "Yes")
        #expect(ReplyText.extract("Igen\n\nChime\n<bot@example.org> ezt írta (időpont: 2025. ápr. 7., H, 9:12):\n\(Self.quote)") == "Igen")
    }

    @Test("a greeting that begins with a shorter one is read whole, the same in every run; an action named like a greeting is that action")
    func longestGreeting() {
        for reply in ["Buenas noches\n2", "Buenas tardes María José,\n2", "Good morning Anna,\n2"] {
            #expect(matcher.match(text: reply) == ActionMatcher.Match(action: "editList", userText: nil), "\(reply)")
        }
        let morning = ActionMatcher(category: NotificationCategory(identifier: "walk", actions: [NotificationAction(identifier: "am", title: "Morning"),
                                                                                               NotificationAction(identifier: "pm", title: "Evening")])) { [$0] }
        #expect(morning.match(text: "Morning\nAnna") == ActionMatcher.Match(action: "am", userText: nil))
    }

    @Test("separators: Zimbra's \"Mail original\", Turkish Outlook's with its dotted capital I")
    func separators() {
        let block = "De: \"Reminders\" <bot@example.org>\nÀ: \"Anna\" <anna@example.org>\nEnvoyé: Lundi 7 Avril 2025 09:12:00\nObjet: Shopping\n\nShopping"
        #expect(ReplyText.extract("Du lait\n\n----- Mail original -----\n\(block)") == "Du lait")
        #expect(ReplyText.extract("Süt\n\n----- Mail original -----\nShopping\nHey") == "Süt")
        #expect(ReplyText.extract("Süt ve yumurta\n\n-----Özgün İleti-----\nKimden: Reminders\nGönderildi: 7 Nisan 2025\nKonu: Shopping\n\nShopping") == "Süt ve yumurta")
    }

    @Test("greetings and salutations a second review found: with a colon, a title and a name, in the recipients' other languages, several lines of a Japanese opening", arguments: [
        "Estimados señores:\n\n2", "Hola Ana:\n2", "Hej,\n2", "Доброго времени суток!\n2", "Grüß Gott,\n2", "Grüezi,\n2",
        "Sehr geehrte Frau Dr. Müller,\n\n2", "Ciao,\n2", "Hoi,\n2", "Olá,\n2", "Dobrý den,\n2", "Merhaba,\n2",
        "お世話になっております。\n山田です。\n\n2でお願いします。", "Chime様\n\n2", "こんにちは、山田です。\n\n2", "مرحبا أحمد،\n\n٢",
        "안녕하세요.\n\n2", "שלום,\n\n2", "Γεια σας,\n\n2", "สวัสดีครับ\n\n2", "Chào anh,\n\n2", "Halo,\n\n2", "नमस्ते,\n\n2",
        "Добрий день!\n\n2",
    ])
    func moreGreetings(reply: String) {
        // Before, each was the shopping list's item, the greeting and the answer its text.
        #expect(matcher.match(text: reply) == ActionMatcher.Match(action: "editList", userText: nil), "\(reply)")
    }

    @Test("thanks, please and yes around the answer in the recipients' languages, a Japanese menu line copied whole", arguments: [
        "2 감사합니다", "2 谢谢", "2 ครับ", "2 nhé", "2 terima kasih", "2 ευχαριστώ", "2 дякую", "2 धन्यवाद", "2 grazie",
        "2でよろしくお願いします。", "2番でお願いいたします。", "2 よろしくお願いします", "2番にします",
        "Ja, Liste bearbeiten", "Oui, 2", "Sí, 2", "Yes, edit list", "リストを編集：2と返信", "نعم، 2", "はい、2",
    ])
    func courtesyAround(reply: String) {
        #expect(matcher.match(text: reply) == ActionMatcher.Match(action: "editList", userText: nil), "\(reply)")
    }

    @Test("a text-input answer keeps neither the menu number's counter nor the direction marks around it; yes alone is still an item")
    func textInputEdges() {
        #expect(matcher.match(text: "4番：牛乳") == ActionMatcher.Match(action: "addItem", userText: "牛乳"))
        #expect(matcher.match(text: "4번 우유") == ActionMatcher.Match(action: "addItem", userText: "우유"))
        #expect(matcher.match(text: "\u{202B}4 חלב\u{202C}") == ActionMatcher.Match(action: "addItem", userText: "חלב"))
        #expect(matcher.match(text: "\u{202B}חלב ולחם\u{202C}") == ActionMatcher.Match(action: "addItem", userText: "חלב ולחם"))
        #expect(matcher.match(text: "Ja, Milch") == ActionMatcher.Match(action: "addItem", userText: "Ja, Milch"))
    }

    @Test("what a second review found the first fixes took: an answer after a greeting on its line, a sentence ending in です, a counter that is a word's, a word of a courtesy phrase")
    func notPassedOver() {
        for (reply, text) in [("お疲れ様です。牛乳をお願いします。\nよろしくお願いします。", "お疲れ様です。牛乳をお願いします。\nよろしくお願いします。"),
                              ("Hi, oat milk please.\nThanks!", "Hi, oat milk please.\nThanks!"), ("Hola, leche de avena:\ngracias", "Hola, leche de avena:\ngracias"),
                              ("こんにちは。\n買うものは卵です。\nよろしくお願いします。", "買うものは卵です。\nよろしくお願いします。"),
                              ("4 番茶", "番茶"), ("4番組表を買う", "番組表を買う"), ("Ласка", "Ласка")] {
            #expect(matcher.match(text: reply) == ActionMatcher.Match(action: "addItem", userText: text), "\(reply)")
        }
        #expect(matcher.match(text: "2 per favore") == ActionMatcher.Match(action: "editList", userText: nil))
        #expect(matcher.match(text: "2 будь ласка") == ActionMatcher.Match(action: "editList", userText: nil))
    }

    /// The shipped example's shopping category as a matcher reads it: aliases, "OK" among
    /// the first action's names, the menu's forms in English, German, Spanish, Polish and
    /// Japanese.
    var aliased: ActionMatcher {
        let category = NotificationCategory(identifier: "shop", actions: [
            NotificationAction(identifier: "justInform", title: "OK, got it"),
            NotificationAction(identifier: "editList", title: "Edit list"),
            NotificationAction(identifier: "trashAction", title: "Delete list", options: [.destructive], aliases: ["delete", "trash", "remove"]),
            NotificationAction(identifier: "addItem", title: "Add item", textInput: .init(buttonTitle: "Add", placeholder: "")),
        ])
        return ActionMatcher(category: category, titles: { title in
            ["OK, got it": ["OK", "OK, verstanden"], "Delete list": ["Liste löschen", "Eliminar lista", "Usuń listę", "リストを削除"]][title, default: []] + [title]
        }, menuForms: .init(lines: ["Reply %1$u for %2$@", "Open", "Antworten Sie %1$u für %2$@", "Responde %1$u para %2$@", "Odpowiedz %1$u: %2$@",
                                    "%2$@：%1$uと返信"],
                            notes: ["cannot be undone", "kann nicht rückgängig gemacht werden", "no se puede deshacer", "nie można cofnąć"]))
    }

    @Test("a third review: menu lines with a shorter name, an alias, the HTML menu's link, a polite ending run in, after a greeting; a no beside one is none")
    func menuLinesAgain() {
        for (reply, action) in [("Reply 1 for OK, got it", "justInform"), ("Antworten Sie 1 für OK, verstanden", "justInform"),
                                ("Reply 3 for Delete list (cannot be undone)", "trashAction"), ("Reply 2 for Edit list — Open", "editList"),
                                ("リストを削除：3と返信お願いします", "trashAction"), ("Hallo,\nAntworten Sie 3 für Liste löschen (kann nicht rückgängig gemacht werden)", "trashAction"),
                                ("Hi,\n\nReply 2 for Edit list\n\nThanks", "editList")] {
            #expect(aliased.match(text: reply) == ActionMatcher.Match(action: action, userText: nil), "\(reply)")
        }
        for refusal in ["Reply 3 for Delete list? No!", "3 Delete list? No.", "No - 3 (Delete list)", "¿3 Eliminar lista? No", "Nicht 3 - Liste löschen",
                        "Bitte nicht: 3 – Liste löschen", "3 Usuń listę? Nie."] {
            #expect(aliased.match(text: refusal)?.action != "trashAction", "\(refusal)")
        }
    }

    @Test("a menu line's words are what its placeholders leave, numbered or not (%@, %d, %2$u); a percent sign of another kind is kept")
    func menuLinePlaceholders() {
        #expect(ActionMatcher.MenuForms.withoutPlaceholders("Reply %1$u for %2$@") == "Reply   for  ")
        #expect(ActionMatcher.MenuForms.withoutPlaceholders("%@：%dと返信") == " ： と返信")
        #expect(ActionMatcher.MenuForms.withoutPlaceholders("100% %2d %x %12$s %") == "100% %2d %x %12$s %")
        #expect(ActionMatcher.MenuForms.withoutPlaceholders("أرسل %١$u من أجل: %٢$@، %１$d") == "أرسل   من أجل:  ،  ")
        #expect(aliased.match(text: "Odpowiedz 2: Edit list") == ActionMatcher.Match(action: "editList", userText: nil))
    }

    @Test("thanks in German whole; a greeting over a list is the list; a snooze written before スヌーズ too long to be a time is none")
    func thirdReviewEdges() {
        #expect(aliased.match(text: "Vielen Dank!") == nil)
        #expect(aliased.match(text: "2, vielen Dank") == ActionMatcher.Match(action: "editList", userText: nil))
        #expect(aliased.match(text: "Liste löschen, vielen Dank") == ActionMatcher.Match(action: "trashAction", userText: nil))
        #expect(aliased.match(text: "Hallo, Hafermilch, Eier, Brot:\nDanke!")
                == ActionMatcher.Match(action: "addItem", userText: "Hallo, Hafermilch, Eier, Brot:\nDanke!"))
        let snoozing = ActionMatcher(category: NotificationCategory(identifier: "plain"), titles: { [$0] }, builtIns: [.snooze: ["スヌーズ"]])
        #expect(snoozing.match(text: "15:30までスヌーズ") == ActionMatcher.Match(action: BuiltInAction.snooze.rawValue, userText: "15:30まで"))
        #expect(snoozing.match(text: String(repeating: "1", count: 20_000) + "スヌーズ") == nil)
    }

    @Test("a fourth review: footers with a link, a Mobilgerät, a mobile app go; the full salām is a greeting; Dutch thanks count")
    func fourthReview() {
        for footer in ["Sent from Mail<https://go.microsoft.com/fwlink/?LinkId=550986> for Windows", "Gesendet vom Mobilgerät",
                       "Wysłane z aplikacji mobilnej", "Sent from Yahoo Mail for iPhone <https://overview.mail.yahoo.com/?.src=iOS>"] {
            #expect(ReplyText.extract("Milk\n\n\(footer)\n\n\(Self.quote)") == "Milk", "\(footer)")
        }
        #expect(aliased.match(text: "السلام عليكم ورحمة الله وبركاته،\n1") == ActionMatcher.Match(action: "justInform", userText: nil))
        #expect(aliased.match(text: "Dank je!") == nil)
        #expect(aliased.match(text: "2 dank je") == ActionMatcher.Match(action: "editList", userText: nil))
    }

    @Test("an answer's last line naming a phone in a sentence after a colon stays")
    func deviceInASentence() {
        #expect(ReplyText.extract("Enviado desde el celular de mi esposa: leche y pan\n\n\(Self.quote)") == "Enviado desde el celular de mi esposa: leche y pan")
        #expect(ReplyText.extract("Leche\n\nEnviado desde mi celular\n\n\(Self.quote)") == "Leche")
    }

    @Test("an empty reply's subject names an action only by a bracket at its end: a reply count (Re[3]:) is none")
    func replyCountSubject() {
        #expect(matcher.match(text: "", subject: "Re[3]: Shopping") == nil)
        #expect(matcher.match(text: "", subject: "Re[2]: Re: Shopping") == nil)
        #expect(matcher.match(text: "", subject: "Re: Shopping [2]") == ActionMatcher.Match(action: "editList", userText: nil))
        #expect(matcher.match(text: "", subject: "Re: Shopping [2] ") == ActionMatcher.Match(action: "editList", userText: nil))
    }

    @Test("letters whose mark is part of them match as typed without it: Wylacz is Wyłącz, Schliessen is Schließen")
    func unmarkedLetters() {
        let category = NotificationCategory(identifier: "c", actions: [NotificationAction(identifier: "off", title: "Wyłącz"),
                                                                       NotificationAction(identifier: "close", title: "Schließen")])
        let matcher = ActionMatcher(category: category) { [$0] }
        #expect(matcher.match(text: "Wylacz") == ActionMatcher.Match(action: "off", userText: nil))
        #expect(matcher.match(text: "schliessen") == ActionMatcher.Match(action: "close", userText: nil))
        #expect(matcher.match(text: "Wyłącz") == ActionMatcher.Match(action: "off", userText: nil))
    }

    @Test("an answer right above a header beginning with a group of words (Italian, Portuguese, Polish), and an answer of two lines above one", arguments: [
        "Il giorno lun 7 apr 2025 alle ore 09:13 Chime <chime@example.org> ha scritto:",
        "Em seg., 7 de abr. de 2025 às 09:13, Chime <chime@example.org> escreveu:",
        "W dniu 7.04.2025 o 09:13, Chime pisze:",
        "On Mon, Apr 7, 2025 at 9:13 AM Chime <chime@example.org> wrote:",
    ])
    func answerAboveGroupHeader(header: String) {
        #expect(ReplyText.extract("3\n\(header)\n\n\(Self.quote)") == "3", "\(header)")
        #expect(ReplyText.extract("Delete list\nThanks\n\(header)\n\(Self.quote)") == "Delete list\nThanks", "\(header)")
    }

    @Test("a line of the person's own beginning as a group header begins (\"A …\", \"Il …\") stays above one; a Russian sentence with писал is no header")
    func ownLineAboveGroupHeader() {
        #expect(ReplyText.extract("A lista precisa de leite.\nEm seg., 7 de dez. de 2026 às 09:00, Chime <chime@example.org> escreveu:\n\(Self.quote)")
                == "A lista precisa de leite.")
        #expect(ReplyText.extract("Il latte, grazie.\nIl giorno lun 7 dic 2026 alle ore 09:00 Chime <chime@example.org> ha scritto:\n\(Self.quote)")
                == "Il latte, grazie.")
        let outlook = "-----Original Message-----\nFrom: Chime <chime@example.org>\nSent: Monday, December 7, 2026 9:00 AM\nTo: Anna\nSubject: Shopping\n\nShopping"
        #expect(ReplyText.extract("Как я писал вчера, купите ещё:\nмолоко\n\n\(outlook)") == "Как я писал вчера, купите ещё:\nмолоко")
    }

    @Test("Roundcube's Russian header, its date last, above or below the answer; Zimbra's German separator over its quoted fields")
    func roundcubeAndZimbra() {
        let roundcube = "Chime писал 2025-04-07 09:13:"
        #expect(ReplyText.extract("\(roundcube)\n\(Self.quote)\n\nУдалить список") == "Удалить список")
        #expect(ReplyText.extract("Молоко\n\n\(roundcube)\n\(Self.quote)") == "Молоко")
        let zimbra = "----- Ursprüngliche Mail -----\n> Von: \"Chime\" <chime@example.org>\n> An: \"Anna\" <anna@example.net>\n> Gesendet: Montag, 7. April 2025 09:13:00\n> Betreff: Einkauf\n\n\(Self.quote)"
        #expect(ReplyText.extract("\(zimbra)\n\nListe löschen") == "Liste löschen")
        #expect(ReplyText.extract("Milch\n\n\(zimbra)") == "Milch")
    }

    @Test("a short line ending the text stays the person's unless it names a device, their own (\"my\") or a product: sent, not sent from a phone", arguments: [
        "Wurde gestern gesendet", "Kargo dün gönderildi", "Von meinem Konto abgebucht", "Enviado desde casa", "Wysłane z domu", "Von meinem Mann",
    ])
    func notSentFrom(line: String) {
        #expect(ReplyText.extract("Milch\n\(line)\n\n\(Self.quote)") == "Milch\n\(line)")
        #expect(ReplyText.extract("\(line)\n\n\(Self.quote)") == line)
    }

    @Test("Catalan: Gmail's and Thunderbird's quote headers, Outlook's header block and the iPhone's signature end the answer")
    func catalan() {
        for header in ["El dia dv., 21 de nov. 2026 a les 10:00, Chime (<bot@example.org>) va escriure:", "Chime ha escrit:",
                       "De: Chime <bot@example.org>\nEnviat: dissabte, 21 de novembre de 2026 10:00\nPer a: Anna <anna@example.net>\nAssumpte: Compra"] {
            #expect(ReplyText.extract("Llet i ous\n\n\(header)\n\(Self.quote)") == "Llet i ous", "\(header)")
        }
        #expect(ReplyText.extract("Llet\n\nEnviat des del meu iPhone\n\n\(Self.quote)") == "Llet")
        #expect(ReplyText.extract("Llet\n\nEnviat des del meu iPhone") == "Llet")
        #expect(ReplyText.extract("Llet\nEnviat des de casa") == "Llet\nEnviat des de casa", "sent from home, a sentence")
    }

    @Test("the mobile signatures still go", arguments: [
        "Von meinem Fairphone gesendet", "Sent from my Nokia", "Sent from Nokia", "Odesláno z iPhonu", "Wysłane z iPhone'a",
        "Fairphone'umdan gönderildi", "Von meinem iPhone gesendet", "Xperiaから送信",
        "Sent on the go", "Inviato da cellulare", "Wysłane z komórki", "Отправлено с планшета", "Sent from iCloud",
    ])
    func stillSentFrom(line: String) {
        #expect(ReplyText.extract("Milch\n\n\(line)\n\n\(Self.quote)") == "Milch", "\(line)")
    }

    @Test("one item under a line ending with a colon is the item, not a \"-Name\" signature")
    func oneDashedItem() {
        #expect(ReplyText.extract("Artikel hinzufügen:\n- Vollkornbrot\n\n\(Self.quote)") == "Artikel hinzufügen:\n- Vollkornbrot")
        #expect(ReplyText.extract("Milch bitte\n-Anna\n\n\(Self.quote)") == "Milch bitte")
    }

    @Test("HTML: a <pre>'s lines are lines, and Thunderbird's signature (moz-signature) goes")
    func preformattedHTML() {
        let thunderbird = "<p>Milch<br></p><pre class=\"moz-signature\" cols=\"72\">-- \nAnna Müller\nTel. 0123 456</pre>"
            + "<div class=\"moz-cite-prefix\">Am 07.04.25 um 09:13 schrieb Chime:<br></div><blockquote type=\"cite\">Einkauf</blockquote>"
        #expect(ReplyText.extract(HTMLText.text(of: thunderbird)) == "Milch")
        #expect(ReplyText.extract(HTMLText.text(of: "<pre>Milch\nEier\n\nBrot</pre><blockquote>Einkauf</blockquote>")) == "Milch\nEier\n\nBrot")
    }

    @Test("an HTML-only reply in 7-bit ISO-2022-JP, its charset named only by its <meta>, is read in it")
    func iso2022MetaOnly() throws {
        let jis = "\u{1B}$B$j$s$4\u{1B}(B" // りんご
        let message = "From: a@example.jp\r\nTo: bot@example.org\r\nSubject: Re\r\nMIME-Version: 1.0\r\nContent-Type: text/html\r\n"
            + "Content-Transfer-Encoding: 7bit\r\n\r\n<html><head><meta http-equiv=\"Content-Type\" content=\"text/html; charset=iso-2022-jp\"></head>"
            + "<body><div>\(jis)</div></body></html>\r\n"
        let mail = try #require(ParsedMail(bytes: Array(message.utf8)))
        #expect(ReplyText.extract(ReplyText.body(of: mail)) == "りんご")
    }

    /// A two-part reply: an empty text/plain beside HTML that holds the answer.
    static let blankPlain = """
        From: Anna <anna@example.org>\r
        To: bot@example.org\r
        Subject: Re: Shopping\r
        MIME-Version: 1.0\r
        Content-Type: multipart/alternative; boundary="b"\r
        \r
        --b\r
        Content-Type: text/plain; charset=utf-8\r
        \r
        \r
        \r
        --b\r
        Content-Type: text/html; charset=utf-8\r
        \r
        <div>2</div><blockquote type="cite"><div>Shopping</div><div>Reply 1 for OK, got it</div></blockquote>\r
        --b--\r

        """

    @Test("a blank plain-text part leaves the answer to the HTML part beside it")
    func blankPlainPart() throws {
        let mail = try #require(ParsedMail(bytes: Array(Self.blankPlain.utf8)))
        #expect(ReplyText.extract(ReplyText.body(of: mail)) == "2")
        // A plain part with the answer is still the one read.
        let both = Self.blankPlain.replacingOccurrences(of: "charset=utf-8\r\n\r\n\r\n\r\n", with: "charset=utf-8\r\n\r\n3\r\n\r\n")
        #expect(ReplyText.extract(ReplyText.body(of: try #require(ParsedMail(bytes: Array(both.utf8))))) == "3")
    }

    @Test("charsets labelled narrower than the client writes are read as the Windows code pages they are", arguments: [
        // Shift_JIS labelled, "②番" as Windows writes it (CP932's NEC row); EUC-KR
        // labelled, "똠양꿍 추가" in CP949's extension; GB2312 labelled, a character of
        // GBK's; ISO-8859-1 labelled, Windows-1252's quotes (as WHATWG reads the label).
        ("shift_jis", [0x87, 0x41, 0x94, 0xD4] as [UInt8], "②番"),
        ("ks_c_5601-1987", [0x8C, 0x63, 0xBE, 0xE7, 0xB2, 0xE1, 0x20, 0xC3, 0xDF, 0xB0, 0xA1], "똠양꿍 추가"),
        ("euc-kr", [0x8C, 0x63], "똠"),
        // Older Korean clients' labels; TIS-620 labelled, Windows-874's ellipsis (0x85).
        ("x-windows-949", [0xBF, 0xEC, 0xC0, 0xAF], "우유"),
        ("tis-620", [0xB9, 0xC1, 0x85], "นม…"),
        ("gb2312", [0x86, 0x41], "咥"),
        ("iso-8859-1", [0x93, 0x4F, 0x4B, 0x94], "“OK”"),
    ])
    func charsetSupersets(charset: String, bytes: [UInt8], text: String) throws {
        let head = "From: Anna <anna@example.org>\r\nTo: bot@example.org\r\nSubject: Re\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=\(charset)\r\nContent-Transfer-Encoding: 8bit\r\n\r\n"
        let mail = try #require(ParsedMail(bytes: Array(head.utf8) + bytes + Array("\r\n".utf8)))
        #expect(ReplyText.body(of: mail).trimmingCharacters(in: .whitespacesAndNewlines) == text, "\(charset)")
    }

    /// A reply with these headers and parts (each its own headers, a blank line, its
    /// body), in a multipart/mixed, read as Chime reads it.
    static func mixed(_ parts: [String]) throws -> String {
        let message = "From: a@example.org\r\nTo: bot@example.org\r\nSubject: Re: Shopping\r\nMIME-Version: 1.0\r\n"
            + "Content-Type: multipart/mixed; boundary=\"outer\"\r\n\r\n"
            + parts.map { "--outer\r\n" + $0 + "\r\n" }.joined() + "--outer--\r\n"
        let mail = try #require(ParsedMail(bytes: Array(message.utf8)))
        return ReplyText.extract(ReplyText.body(of: mail))
    }

    static let htmlAnswer = "Content-Type: text/html; charset=utf-8\r\n\r\n<div dir=\"ltr\">2</div><div class=\"gmail_quote\">"
        + "<div class=\"gmail_attr\">On Tue, Nov 24, 2026 at 9:02 AM Chime wrote:</div><blockquote class=\"gmail_quote\">Shopping</blockquote></div>"

    @Test("the answer is the first written part in the message's order: a disclaimer, a list footer or an unnamed text attachment after an HTML-only answer is not it")
    func firstWrittenPart() throws {
        #expect(try Self.mixed([Self.htmlAnswer, "Content-Type: text/plain\r\nContent-Disposition: inline\r\n\r\nThis e-mail is confidential."]) == "2")
        #expect(try Self.mixed([Self.htmlAnswer, "Content-Type: text/plain\r\nContent-Disposition: attachment\r\n\r\n3"]) == "2")
        #expect(try Self.mixed(["Content-Type: text/plain\r\nContent-Disposition: attachment\r\n\r\n3", Self.htmlAnswer]) == "2")
        // Plain still goes before HTML among an alternative's versions.
        let alternative = "Content-Type: multipart/alternative; boundary=\"alt\"\r\n\r\n--alt\r\nContent-Type: text/plain\r\n\r\n1\r\n--alt\r\n"
            + Self.htmlAnswer + "\r\n--alt--"
        #expect(try Self.mixed([alternative, "Content-Type: text/plain\r\n\r\n-- \r\nList footer"]) == "1")
    }

    @Test("Apple Mail's plain message with a picture in it, three parts: the text after the picture is read on; a blank first part is passed over")
    func textAroundPicture() throws {
        let picture = "Content-Type: image/png; name=\"a.png\"\r\nContent-Disposition: inline; filename=\"a.png\"\r\nContent-Transfer-Encoding: base64\r\n\r\niVBORw0KGgo="
        #expect(try Self.mixed(["Content-Type: text/plain\r\n\r\n4 milk", picture, "Content-Type: text/plain\r\n\r\nand eggs"]) == "4 milk\nand eggs")
        #expect(try Self.mixed(["Content-Type: text/plain\r\n\r\n\r\n", picture, "Content-Type: text/plain\r\n\r\n2"]) == "2")
    }

    @Test("Japanese as Windows writes it: ISO-2022-JP with NEC's circled digits and half-width katakana, EUC-JP with the circled digits; labels of WHATWG's table iconv lacks")
    func japaneseWindowsForms() throws {
        func plain(_ charset: String, _ body: [UInt8]) throws -> String {
            let head = "From: a@example.jp\r\nTo: bot@example.org\r\nSubject: Re\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=\(charset)\r\n\r\n"
            let mail = try #require(ParsedMail(bytes: Array(head.utf8) + body + [0x0D, 0x0A]))
            return ReplyText.extract(ReplyText.body(of: mail))
        }
        // ESC $ B, ② (row 13) 番, ESC ( B; then ESC ( I, ｶﾀ, ESC ( B.
        #expect(try plain("ISO-2022-JP", Array("\u{1B}$B-\"HV\u{1B}(B".utf8)) == "②番")
        #expect(try plain("iso-2022-jp", Array("4 \u{1B}$B5mF}\u{1B}(B \u{1B}(I6@\u{1B}(B".utf8)) == "4 牛乳 ｶﾀ")
        #expect(try plain("EUC-JP", [0xAD, 0xA2, 0xC8, 0xD6]) == "②番")
        #expect(try plain("x-euc-jp", [0xC8, 0xD6]) == "番")
        #expect(try plain("x-cp1251", [0xCC, 0xEE, 0xEB, 0xEE, 0xEA, 0xEE]) == "Молоко")
        #expect(try plain("ks_c_5601-1989", [0xBF, 0xEC, 0xC0, 0xAF]) == "우유")
    }

    @Test("HTML: a <pre> with CR LF keeps its lines; Word's conditional markers are no text; Outlook's signatures (id=Signature, _MailAutoSig) go")
    func outlookHTML() {
        #expect(HTMLText.text(of: "<pre>4 milk\r\n\r\nOn Tue, Chime wrote:\r\n&gt; Shopping</pre>") == "4 milk\n\nOn Tue, Chime wrote:\n> Shopping")
        let word = "<p class=MsoListParagraph><![if !supportLists]><span>-<span>&nbsp;</span></span><![endif]>milk</p>"
            + "<p class=MsoNormal><![if !vml]><img src=\"cid:x\"><![endif]>eggs</p>"
        #expect(HTMLText.text(of: word) == "- milk\neggs")
        #expect(HTMLText.text(of: "<p>a <![ b</p>") == "a <![ b")
        let owa = "<div>4 milk</div><div id=\"Signature\"><div>Alice Smith</div><div>ACME Corp</div></div>"
            + "<hr tabindex=\"-1\"><div id=\"divRplyFwdMsg\">From: Chime</div>"
        #expect(ReplyText.extract(HTMLText.text(of: owa)) == "4 milk")
        let desktop = "<div class=WordSection1><p class=MsoNormal>4 milk<o:p></o:p></p><p class=MsoNormal><o:p>&nbsp;</o:p></p>"
            + "<p class=MsoNormal><a name=\"_MailAutoSig\"><span>Best regards,</span></a></p><p class=MsoNormal>Alice Smith</p>"
            + "<div style='border:none;border-top:solid #E1E1E1 1.0pt'><p class=MsoNormal><b>From:</b> Chime<br><b>Sent:</b> Tuesday</p></div></div>"
        #expect(ReplyText.extract(HTMLText.text(of: desktop)) == "4 milk")
    }

    @Test("HTML: table cells side by side are words apart; a table's rows are lines")
    func tableCells() {
        #expect(HTMLText.text(of: "<table><tr><td>4</td><td>milk</td></tr><tr><th>Alice</th><td><b>ACME</b></td></tr></table>") == "4 milk\nAlice ACME")
        #expect(HTMLText.text(of: "<table><tr><td>4 </td><td> milk</td></tr></table>") == "4 milk")
    }

    @Test("HTML: Gmail's and Apple Mail's indent is the person's text; a quote's blockquote (a border, type=cite, gmail_quote) is not")
    func indentNotQuote() {
        let gmail = #"<div dir="ltr"><blockquote style="margin:0 0 0 40px;border:none;padding:0px"><div>4 milk</div></blockquote><br><div class="gmail_quote"><div class="gmail_attr">On Tue Chime wrote:</div><blockquote class="gmail_quote" style="margin:0px 0px 0px 0.8ex;border-left:1px solid rgb(204,204,204);padding-left:1ex">Shopping</blockquote></div></div>"#
        #expect(ReplyText.extract(HTMLText.text(of: gmail)) == "4 milk")
        let apple = #"<html><body><blockquote style="margin: 0 0 0 40px; border: none; padding: 0px;">2</blockquote><div><br><blockquote type="cite"><div>Reply 2 for Edit list</div></blockquote></div></body></html>"#
        #expect(ReplyText.extract(HTMLText.text(of: apple)) == "2")
        #expect(ReplyText.extract(HTMLText.text(of: #"<div>1</div><blockquote type="cite" style="border:none;padding:0">Reply 2</blockquote>"#)) == "1")
        #expect(ReplyText.extract(HTMLText.text(of: #"<div>1</div><blockquote style="margin:0 0 0 10px;border:none">Reply 2</blockquote>"#)) == "1")
    }
}
