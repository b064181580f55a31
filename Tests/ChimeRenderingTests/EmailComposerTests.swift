import ChimeCore
import ChimeLocalization
import ChimeMIME
@testable import ChimeRendering
import ChimeTestSupport
import Foundation
import Testing

@Suite("Rendered emails")
struct EmailComposerTests {
    static let templates = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("templates").path

    static let shopping = NotificationCategory(
        identifier: "shoppingListReminderCategory",
        actions: [
            NotificationAction(identifier: "justInform", title: "OK, got it"),
            NotificationAction(identifier: "editList", title: "Edit list", options: [.foreground, .authenticationRequired]),
            NotificationAction(identifier: "trashAction", title: "Delete list", options: [.destructive, .authenticationRequired]),
        ],
        minimalActionIdentifiers: ["trashAction", "editList"],
        hiddenPreviewsBodyPlaceholder: "shopping.placeholder", categorySummaryFormat: "shopping.summary")

    private func notification(locale: String, previews: Recipient.ShowPreviews, title: String = "Shopping",
                              body: String = "Hey, you must go shopping, remember?") throws -> OutgoingNotification {
        var content = NotificationContent(title: title, body: body, categoryIdentifier: Self.shopping.identifier, threadIdentifier: "shopping")
        content.targetContentIdentifier = "https://example.org/lists/groceries"
        let channel = Channel(id: "mail", url: try ChannelURL(parsing: "smtp://127.0.0.1:2525"), from: "Reminders <bot@example.org>",
                              replyTo: "bot+{token}@reply.example.org")
        return OutgoingNotification(
            request: NotificationRequest(identifier: "shopping-1", recipient: "alice", content: content,
                                         trigger: .timeInterval(seconds: 60, repeats: false)),
            recipient: Recipient(id: "alice", locale: locale, timeZone: "Europe/Paris", showPreviews: previews),
            address: .init(channel: "mail", value: "alice@example.org"), channel: channel,
            fireDate: Instant(rfc3339: "2026-11-24T08:00:00Z")!, deliveryID: "d1.1795507200", coalesced: 0)
    }

    private func composer() throws -> EmailComposer {
        EmailComposer(localizer: try Localizer(directory: Self.templates), templates: try TemplateSet(directory: Self.templates))
    }

    @Test("a category's placeholder naming a .stringsdict key is formatted with the count, plural-correct, as iOS does, never sent as the key; Base.lproj's plurals follow the fallback language's rules")
    func placeholderFromStringsdict() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("chime-strings-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        func plural(_ key: String, _ one: String, _ other: String) -> String {
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict><key>\(key)</key><dict>
              <key>NSStringLocalizedFormatKey</key><string>%#@n@</string>
              <key>n</key><dict><key>NSStringFormatSpecTypeKey</key><string>NSStringPluralRuleType</string>
                <key>NSStringFormatValueTypeKey</key><string>u</string>
                <key>one</key><string>\(one)</string><key>other</key><string>\(other)</string></dict>
            </dict></dict></plist>
            """
        }
        for (locale, file) in [("en", plural("ph.count", "%u hidden reminder", "%u hidden reminders")), ("Base.lproj", plural("x.base", "%u ONE", "%u OTHER"))] {
            try FileManager.default.createDirectory(at: folder.appendingPathComponent(locale), withIntermediateDirectories: true)
            try file.write(to: folder.appendingPathComponent(locale).appendingPathComponent("Localizable.stringsdict"), atomically: true, encoding: .utf8)
        }
        let localizer = try Localizer(directory: folder.path)
        let category = NotificationCategory(identifier: Self.shopping.identifier, actions: Self.shopping.actions, hiddenPreviewsBodyPlaceholder: "ph.count")
        let composer = EmailComposer(localizer: localizer, templates: try TemplateSet(directory: Self.templates))
        let email = try composer.compose(try notification(locale: "en", previews: .never), category: category)
        #expect(email.subject == "1 hidden reminder")
        #expect(!MIMEComposer.compose(email).contains("ph.count"))
        // The name chime serve's pages and chat answers give the reminder: the same words.
        let hidden = try notification(locale: "en", previews: .never)
        #expect(ReminderTitle.text(of: hidden.request, for: hidden.recipient, category: category, localizer: localizer) == "1 hidden reminder")
        for locale in ["en", "fr", "ru"] {
            #expect(try localizer.formatted("x.base", [.integer(1)], locale: locale) == "1 ONE", "\(locale)")
            #expect(try localizer.formatted("x.base", [.integer(2)], locale: locale) == "2 OTHER", "\(locale)")
        }
    }

    @Test("List-Id's namespace is the sending domain, or localhost for an address literal (RFC 2919 takes only a domain name)")
    func listIdNamespace() {
        func listID(_ domain: String) -> String? { EmailComposer.listHeaders(domain: domain, unsubscribe: "u").first { $0.name == "List-Id" }?.value }
        #expect(listID("example.org") == "Chime reminders <reminders.example.org>")
        #expect(listID("[127.0.0.1]") == "Chime reminders <reminders.localhost>")
    }

    @Test("every locale and previews setting gives a message Python's strict parser accepts", arguments: ["en", "fr", "de", "es", "ru", "pl", "ar", "ja"])
    func strictlyValid(locale: String) throws {
        for previews in Recipient.ShowPreviews.allCases {
            let raw = MIMEComposer.compose(try composer().compose(try notification(locale: locale, previews: previews), category: Self.shopping))
            let parsed = try strictlyParsed(raw)
            #expect(parsed["error"] == nil, "\(locale) \(previews): \(parsed["error"] ?? "")")
            #expect(parsed["type"] == "multipart/alternative")
            #expect(Int(parsed["longest"] ?? "999") ?? 999 <= 998)
            // Every line within 78 but the unsubscribe link's, one word that cannot fold
            // (the name keeps its first word beside it, MIMEComposer.folded).
            let long = raw.split(separator: "\n").filter { $0.utf8.count > 78 }
            #expect(long.allSatisfy { $0.hasPrefix("List-Unsubscribe: <") && !$0.dropFirst(18).contains(" ") }, "\(long)")
        }
    }

    @Test("the headers a reminder needs: threading, auto-response suppression, one-click unsubscribe, tokenized Reply-To")
    func headers() throws {
        let raw = MIMEComposer.compose(try composer().compose(try notification(locale: "fr", previews: .always), category: Self.shopping))
        for header in ["Auto-Submitted: auto-generated", "X-Auto-Response-Suppress: All", "List-Unsubscribe-Post: List-Unsubscribe=One-Click",
                       "List-Unsubscribe: <https://chime.invalid/u/d1.1795507200?c=shoppingListReminderCategory>",
                       "Reply-To: bot+d1.1795507200@reply.example.org"] {
            #expect(raw.contains("\n" + header + "\n"), "missing \(header)")
        }
        // Over http, the link alone: RFC 8058's one-click POST is for HTTPS only.
        let plain = EmailComposer(localizer: try Localizer(directory: Self.templates), templates: try TemplateSet(directory: Self.templates),
                                  links: UnsignedLinks(base: "http://chime.example.org"))
        let overHTTP = MIMEComposer.compose(try plain.compose(try notification(locale: "fr", previews: .always), category: Self.shopping))
        #expect(overHTTP.contains("\nList-Unsubscribe: <http://chime.example.org/u/") && !overHTTP.contains("List-Unsubscribe-Post"))
        #expect(raw.contains("\nIn-Reply-To: <thread."))
        #expect(raw.contains("d1.1795507200@example.org>"))
        let parsed = try strictlyParsed(raw)
        let text = try #require(parsed["text/plain"])
        #expect(text.contains("Répondez 1 pour OK, compris"))
        #expect(text.contains("Répondez 3 pour Supprimer la liste (irréversible)"))
        #expect(text.contains("https://example.org/lists/groceries"))
        #expect(text.contains("mardi 24 novembre à 09:00"))
        let html = try #require(parsed["text/html"])
        #expect(html.contains("mailto:bot+d1.1795507200@reply.example.org?subject=Re%3A%20Shopping&amp;body=3"))
    }

    @Test("an attached text file of UTF-8 is sent with its charset; one of ASCII, or not UTF-8, and an image are not")
    func attachmentCharset() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("chime-attach-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        func type(_ name: String, _ bytes: [UInt8]) throws -> String {
            let path = folder.appendingPathComponent(name).path
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            return try AttachmentFile.read(.init(identifier: "a", path: path)).contentType
        }
        #expect(try type("note.txt", Array("Grüße, café".utf8)) == "text/plain; charset=utf-8")
        #expect(try type("list.csv", Array("a,é".utf8)) == "text/csv; charset=utf-8")
        #expect(try type("plain.txt", Array("hello".utf8)) == "text/plain")
        #expect(try type("latin.txt", [0x47, 0x72, 0xFC, 0xDF, 0x65]) == "text/plain", "Latin-1 is not UTF-8: no charset claimed")
        #expect(try type("cup.jpg", [0xFF, 0xD8, 0xFF, 0xC3, 0xA9]) == "image/jpeg")
    }

    @Test("a reply link's address is as RFC 6068 writes it: a quoted local part percent-encoded, an internationalized domain in ASCII as Reply-To names it, + and @ as they are")
    func mailtoAddresses() {
        #expect(EmailComposer.mailtoAddress("Bot <bot+d1.17@reply.example.org>") == "bot+d1.17@reply.example.org")
        #expect(EmailComposer.mailtoAddress(#""Chime" <"chime bot"@example.org>"#) == "%22chime%20bot%22@example.org")
        #expect(EmailComposer.mailtoAddress("bot+t@antwort.bücher.example") == "bot+t@antwort.xn--bcher-kva.example")
        #expect(EmailComposer.mailto("a%b?c@example.org", subject: "x").hasPrefix("mailto:a%25b%3Fc@example.org?subject="))
    }

    @Test("never: no word of the content in the headers, the preheader or either body (random content)")
    func neverHidesEverything() throws {
        let composer = try composer()
        var generator = SplitMix(seed: 99)
        for round in 0..<40 {
            let words = generator.words(10)
            let locale = ["en", "fr", "ru", "ja"][round % 4]
            let raw = MIMEComposer.compose(try composer.compose(
                try notification(locale: locale, previews: .never, title: words[0...2].joined(separator: " "), body: words[3...].joined(separator: " ")),
                category: Self.shopping))
            let parsed = try strictlyParsed(raw)
            let everything = raw + (parsed["text/plain"] ?? "") + (parsed["text/html"] ?? "") + (parsed["subject"] ?? "")
            for word in words {
                #expect(!everything.contains(word), "\(locale): \(word) leaked")
            }
            #expect((parsed["text/plain"] ?? "").contains("https://chime.invalid/v/d1.1795507200"))
        }
    }

    @Test("user content is escaped in HTML")
    func escaped() throws {
        let raw = MIMEComposer.compose(try composer().compose(try notification(locale: "en", previews: .always, title: "<b>Tea</b>", body: "<script>x</script> & co"), category: Self.shopping))
        let html = try #require(try strictlyParsed(raw)["text/html"])
        #expect(html.contains("&lt;script&gt;x&lt;/script&gt; &amp; co"))
        #expect(!html.contains("<script>"))
    }

    @Test("line breaks typed in a request (CRLF, a lone CR, a title over two lines): a subject on one line, the HTML part's breaks <br> with no bare CR in it")
    func typedLineBreaks() throws {
        let raw = MIMEComposer.compose(try composer().compose(try notification(locale: "en", previews: .always, title: "Tea\r\nand cake",
                                                                                  body: "Boil water\r\nPour\rWait"), category: Self.shopping))
        let parsed = try strictlyParsed(raw)
        #expect(parsed["error"] == nil, "\(parsed)")
        #expect(parsed["subject"] == "Tea and cake", "\(parsed)")
        let html = try #require(parsed["text/html"])
        #expect(html.contains("Boil water<br>\nPour<br>\nWait") && !html.utf8.contains(0x0D), "\(html.utf8.filter { $0 == 0x0D }.count) CR: \(html)")
    }

    @Test("an override without a content type escapes for HTML in the HTML body only; one that does not parse is named at its line and column")
    func overrideContentTypes() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("chime-templates-\(UUID().uuidString)")
        let folder = root.appendingPathComponent("mustache")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("shopping"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        for name in ["email.text.mustache", "email.html.mustache", "chat.text.mustache", "shopping/chat.text.mustache"] {
            try "Custom: {{title}}\n".write(to: folder.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        let templates = try TemplateSet(directory: root.path)
        let context: [String: Any] = ["title": "Tom & Jerry <x>"]
        #expect(templates.render(.emailText, category: nil, context) == "Custom: Tom & Jerry <x>\n")
        #expect(templates.render(.chatText, category: "shopping", context) == "Custom: Tom & Jerry <x>\n")
        #expect(templates.render(.chatText, category: nil, context) == "Custom: Tom & Jerry <x>\n")
        #expect(templates.render(.emailHTML, category: nil, context) == "Custom: Tom &amp; Jerry &lt;x&gt;\n")

        let broken = folder.appendingPathComponent("email.text.mustache")
        try "Hello {{/actions}}x\n".write(to: broken, atomically: true, encoding: .utf8)
        #expect(throws: TemplateSet.LoadError.self) { try TemplateSet(directory: root.path) }
        do {
            _ = try TemplateSet(directory: root.path)
        } catch let error as TemplateSet.LoadError {
            #expect(error.description == "\(broken.path):1:10: error: this closing tag does not name the section open here ({{/name}} closes {{#name}} or {{^name}})")
        }
        try "Line one\n{{#actions}}\n{{title}}\n".write(to: broken, atomically: true, encoding: .utf8)
        do {
            _ = try TemplateSet(directory: root.path)
        } catch let error as TemplateSet.LoadError {
            #expect(error.description.hasPrefix("\(broken.path):"))
            #expect(error.description.hasSuffix(": error: a section opened with {{#name}} or {{^name}} is not closed with {{/name}}"))
            #expect(!error.description.contains("Mustache."))
        }
    }

    @Test("an override's content type holds from its first line, whatever it names further down (or in a comment): HTML escaped by Chime's escaping, a text part never HTML-escaped; a standalone tag on its first line is left out with its line, as Mustache has it")
    func overrideContentTypeFromTheStart() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("chime-templates-\(UUID().uuidString)")
        let folder = root.appendingPathComponent("mustache")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        try "{{! named below: {{% CONTENT_TYPE: TEXT}} }}\n<h1>{{title}}</h1>{{uppercased(body)}}\n".write(to: folder.appendingPathComponent("email.html.mustache"), atomically: true, encoding: .utf8)
        try "Line {{title}}\n{{% CONTENT_TYPE: TEXT}}\n{{body}}\n".write(to: folder.appendingPathComponent("email.text.mustache"), atomically: true, encoding: .utf8)
        try "{{#title}}\nT: {{title}}\n{{/title}}\n".write(to: folder.appendingPathComponent("chat.text.mustache"), atomically: true, encoding: .utf8)
        let templates = try TemplateSet(directory: root.path)
        let context: [String: Any] = ["title": "\u{0605}<img src=x onerror=alert(1)>", "body": "<b>x</b> & y"]
        let html = templates.render(.emailHTML, category: nil, context)
        #expect(html.contains("<h1>\u{0605}&lt;img src=x onerror=alert(1)&gt;</h1>") && !html.contains("<img"), "\(html)")
        #expect(templates.render(.emailText, category: nil, context) == "Line \u{0605}<img src=x onerror=alert(1)>\n<b>x</b> & y\n")
        #expect(templates.render(.chatText, category: nil, context) == "T: \u{0605}<img src=x onerror=alert(1)>\n")
    }

    @Test("a < with a mark joined to it is still escaped, in the compiled shape and in swift-mustache's rendering; the body's line breaks are <br>")
    func escapedByScalar() throws {
        let title = "\u{0605}<img src=x onerror=alert(1)>\u{034F}"
        let body = "a \u{0605}<a href=\"https://evil.example\">pay</a>\u{034F} <\u{0338}\nsecond line\n\nfourth"
        for compiles in [true, false] {
            var templates = try TemplateSet(directory: Self.templates)
            templates.compilesShapes = compiles
            let composer = EmailComposer(localizer: try Localizer(directory: Self.templates), templates: templates)
            let raw = MIMEComposer.compose(try composer.compose(try notification(locale: "en", previews: .always, title: title, body: body), category: Self.shopping))
            let html = try #require(try strictlyParsed(raw)["text/html"])
            #expect(!html.contains("<img"), "compiled: \(compiles)")
            #expect(!html.contains("<a href=\"https://evil"), "compiled: \(compiles)")
            #expect(html.contains("\u{0605}&lt;img src=x onerror=alert(1)&gt;\u{034F}"))
            #expect(html.contains("&lt;\u{0338}<br>\nsecond line<br>\n<br>\nfourth"))
            #expect(htmlEscaped("\u{0605}<b>") == "\u{0605}&lt;b&gt;")
        }
    }

    @Test("a digest's or an opt-in's HTML says the language's direction, as the single message's does")
    func groupDirection() throws {
        let page = EmailComposer.htmlPage(locale: "ar-EG", title: "t", body: "")
        #expect(page.contains(#"<html lang="ar" dir="rtl">"#))
        #expect(EmailComposer.htmlPage(locale: "fr", title: "t", body: "").contains(#"<html lang="fr" dir="ltr">"#))
    }

    @Test("compiled shapes change nothing: every locale and previews setting, random content, the same bodies as swift-mustache renders them")
    func shapesChangeNothing() throws {
        let shaped = try composer()
        var templates = try TemplateSet(directory: Self.templates)
        templates.compilesShapes = false
        let direct = EmailComposer(localizer: try Localizer(directory: Self.templates), templates: templates)
        var generator = SplitMix(seed: 5)
        let pieces = ["Tea", "<b>", "&", "\"", "'", "é", "😀", " ", "\n", "%", "{{title}}"]
        for round in 0..<48 {
            let text = { (count: Int) in (0..<count).map { _ in pieces[Int(generator.next() % UInt64(pieces.count))] }.joined() }
            let notification = try notification(locale: ["en", "fr", "de", "es", "ru", "pl", "ar", "ja"][round % 8],
                                                previews: Recipient.ShowPreviews.allCases[round % 3], title: text(4), body: text(9))
            for category in [Self.shopping, nil] {
                let a = try shaped.compose(notification, category: category)
                let b = try direct.compose(notification, category: category)
                #expect(a.text == b.text && a.html == b.html, "round \(round)")
                #expect(a.subject == b.subject)
            }
        }
    }

    @Test("a link's text is percent-encoded as Foundation encodes it, all but RFC 3986's unreserved characters")
    func percentEncoding() {
        #expect(percentEncoded("Re: Caf\u{E9} & ~x_y.z-0") == "Re%3A%20Caf%C3%A9%20%26%20~x_y.z-0")
        var unreserved = CharacterSet(charactersIn: "-._~")
        unreserved.formUnion(CharacterSet(charactersIn: "a"..."z"))
        unreserved.formUnion(CharacterSet(charactersIn: "A"..."Z"))
        unreserved.formUnion(CharacterSet(charactersIn: "0"..."9"))
        var generator = SplitMix(seed: 5)
        let pool = Array("aZ09-._~ :/?#[]@!$&'()*+,;=%\"<>\\^`{|}\u{7F}\u{0}\né€😀")
        for _ in 0..<200 {
            let text = String((0..<Int(generator.next() % 20)).map { _ in pool[Int(generator.next() % UInt64(pool.count))] })
            #expect(percentEncoded(text) == text.addingPercentEncoding(withAllowedCharacters: unreserved), "\(text)")
        }
    }

    @Test("a digest's List-Unsubscribe names each of its categories, once each, sorted; one whose list would be too long for its header to stay one word names the first reminder's category alone, never an encoded header mail clients ignore")
    func digestUnsubscribeNamesItsCategories() throws {
        let composer = try composer()
        func items(_ categories: [String]) throws -> [OutgoingNotification] {
            try categories.map { category in
                var item = try notification(locale: "en", previews: .always)
                item.request.content.categoryIdentifier = category
                return item
            }
        }
        func header(_ message: MailMessage) -> String? { message.headers.first { $0.name == "List-Unsubscribe" }?.value }
        let group = GroupComposer(composer: composer, categories: [:])
        let short = try group.email(try items(["timer", "shop", "timer", "a,b"]), id: "g1", date: Instant(seconds: 1_795_507_200), kind: .digest)
        #expect(header(short) == "<https://chime.invalid/u/d1.1795507200?c=a%2Cb,shop,timer>")
        #expect(short.text.contains("https://chime.invalid/u/d1.1795507200?c=a%2Cb,shop,timer"), "the footer's link is the header's")

        let long = try group.email(try items((10..<50).map { "com.example.reminders.cat\($0)" }), id: "g2", date: Instant(seconds: 1_795_507_200),
                                   kind: .digest)
        #expect(header(long) == "<https://chime.invalid/u/d1.1795507200?c=com.example.reminders.cat10>")
        let composed = MIMEComposer.compose(long)
        #expect(composed.contains("List-Unsubscribe: <https://chime.invalid/u/d1.1795507200?c=com.example.reminders.cat10>") && !composed.contains("=?us-ascii?"))

        // A single email of a category named past what the header keeps one word: the
        // link naming no category, whose token finds it; never an encoded header.
        var single = try notification(locale: "en", previews: .always)
        single.request.content.categoryIdentifier = String(repeating: "c", count: 950)
        let lone = try composer.compose(single, category: nil)
        #expect(header(lone) == "<https://chime.invalid/u/d1.1795507200>", "\(header(lone) ?? "none")")
        #expect(!MIMEComposer.compose(lone).contains("=?us-ascii?"))
        single.request.content.categoryIdentifier = ""
        #expect(header(try composer.compose(single, category: nil)) == "<https://chime.invalid/u/d1.1795507200?c=>", "a reminder of no category names it")
    }

    @Test("a digest's HTML numbers its entries on from one group to the next, as its text does, and keeps the lines of a body, as a single email does")
    func digestNumbersAndLines() throws {
        let items = try ["shop", "timer", "timer"].map { category in
            var item = try notification(locale: "en", previews: .always)
            item.request.content.categoryIdentifier = category
            item.request.content.body = "Line one\nLine two"
            return item
        }
        let digest = try GroupComposer(composer: try composer(), categories: [:]).email(items, id: "g1", date: Instant(seconds: 1_795_507_200), kind: .digest)
        let html = try #require(digest.html)
        #expect(html.components(separatedBy: "<ol").count == 3, "two groups: \(html)")
        // Tied (one instant, one identifier), the groups go by key: "shop" (1), then "timer" (2).
        #expect(html.contains("<ol start=\"2\">"), "the second group goes on from the first: \(html)")
        #expect(html.contains("Line one<br>\nLine two"), "\(html)")
        #expect(digest.text.contains("\n2. ") && digest.text.contains("\n3. "))
    }

    @Test("grouped messages hide what the recipient's previews hide, as single ones do: whenAuthenticated pads the inbox snippet before the first heading; never gives each chat entry its view link and counts a counted placeholder once per entry, the group in its heading; a chat entry or group heading too long for a platform is cut short, its links kept; a thread's email joins the thread's conversation")
    func groupedMessagesKeepPreviewsHidden() throws {
        let composer = try composer()
        var counted = Self.shopping
        counted.hiddenPreviewsBodyPlaceholder = "%u hidden reminders"
        let group = GroupComposer(composer: composer, categories: [counted.identifier: counted])
        func items(_ previews: Recipient.ShowPreviews) throws -> [OutgoingNotification] {
            try (1...3).map { index in
                var item = try notification(locale: "en", previews: previews, title: "Buy item \(index)", body: "Secret body \(index)")
                item.request.identifier = "shopping-\(index)"
                item.request.content.summaryArgument = "Matt"
                return item
            }
        }
        let date = Instant(seconds: 1_795_507_200)

        let padded = try group.email(try items(.whenAuthenticated), id: "g1", date: date, kind: .digest)
        let snippet = padded.text.components(separatedBy: "\n\n")[0]
        #expect(snippet.hasSuffix(PreheaderPadding.text) && !snippet.contains("Matt") && !snippet.contains("Secret"), "\(snippet.prefix(80))")
        #expect(padded.text.contains("Secret body 1"), "the body shows the content")
        let html = try #require(padded.html)
        let hidden = try #require(html.range(of: "<div style=\"display:none;max-height:0;overflow:hidden\">"))
        #expect(hidden.lowerBound < html.range(of: "<h1>")!.lowerBound && !html[..<html.range(of: "<h1>")!.lowerBound].contains("Secret"))
        let shown = try group.email(try items(.always), id: "g2", date: date, kind: .digest)
        #expect(!shown.text.contains(PreheaderPadding.text), "nothing hidden, nothing padded")

        let chat = try group.chat(try items(.never), kind: .digest)
        #expect(!chat.text.contains("Secret") && !chat.text.contains("Buy item"), "\(chat.text)")
        #expect(chat.text.components(separatedBy: "View this reminder: https://chime.invalid/v/").count == 4, "\(chat.text)")
        #expect(chat.text.contains("3 hidden reminders") && chat.text.components(separatedBy: "1 hidden reminders").count == 4, "\(chat.text)")

        // A first entry longer than any platform's message is cut short, its links kept.
        var long = try items(.always)
        long[0].request.content.body = String(repeating: "Lorem ipsum dolor sit amet. ", count: 200)
        long[1].request.content.summaryArgument = String(repeating: "Bartholomew ", count: 400)
        let cut = try group.chat(long, kind: .digest)
        #expect(cut.text.components(separatedBy: "\n").allSatisfy { $0.utf16.count < 400 } && cut.text.contains("…"), "\(cut.text.prefix(400))")
        #expect(cut.text.components(separatedBy: "OK, got it: https://chime.invalid/a/").count == 4, "every entry keeps its links: \(cut.text)")
        let thread = try group.email(try items(.always), id: "g3", date: date, kind: .thread)
        let single = try composer.compose(try items(.always)[0], category: counted)
        #expect(thread.inReplyTo != nil && thread.inReplyTo == single.inReplyTo && thread.references == single.references)
    }
}
