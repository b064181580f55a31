import ChimeCore
import ChimeLocalization
import ChimeMIME
import Foundation
import Mustache

/// Renders a fired notification as an email: localized text and HTML bodies from the
/// Mustache templates, the hidden-preview rules on every surface, and the headers that
/// make it thread, stay quiet with auto-responders and unsubscribe in one click.
public struct EmailComposer: Sendable {
    public let localizer: Localizer
    public let templates: TemplateSet
    public let links: any LinkMaker

    public init(localizer: Localizer, templates: TemplateSet, links: any LinkMaker = UnsignedLinks()) {
        self.localizer = localizer
        self.templates = templates
        self.links = links
    }

    /// The message for one notification to one email address.
    /// - Parameters:
    ///   - category: the request's category, when it names one.
    ///   - threadCount: how many notifications its thread holds (`%u` of placeholders).
    public func compose(_ notification: OutgoingNotification, category: NotificationCategory?, threadCount: Int = 1) throws -> MailMessage {
        let locale = notification.recipient.locale
        let message = try LocalizedMessage(notification, category: category, localizer: localizer, threadCount: threadCount)
        let (content, surfaces) = (message.content, message.surfaces)
        let domain = Mailbox.domain(of: notification.channel.envelopeFrom)
        let links = self.links.links(for: notification)
        let replyAddress = notification.channel.replyAddress(token: links.token)

        let shape = Shape(locale: locale, category: category, showContent: surfaces.bodyShowsContent,
                          hasSubtitle: surfaces.bodyShowsContent && !content.subtitle.isEmpty,
                          padsPreheader: surfaces.bodyShowsHiddenContent)
        var values = [
            surfaces.subject, Self.unixBreaks(surfaces.preheader), surfaces.placeholder,
            shape.showContent ? Self.unixBreaks(content.title) : "", shape.showContent ? Self.unixBreaks(content.subtitle) : "",
            shape.showContent ? Self.unixBreaks(content.body) : "", shape.showContent ? Self.htmlLines(content.body) : "",
            message.dateText,
            links.view, links.preferences, links.unsubscribe,
        ]
        let mailto = Self.mailto(replyAddress, subject: surfaces.subject)
        for (index, action) in (category?.actions ?? []).enumerated() {
            values.append(mailto + TextInputHint.mailtoBody(index + 1, action))
            if action.options.contains(.foreground) { values.append(links.action(action)) }
        }
        let categoryID = category?.identifier
        let key = shape.key
        let context = { (values: [String]) in try self.context(shape, values) }
        let text = try templates.render(.emailText, category: categoryID, shape: key, values: values, context: context)
        let html = try templates.render(.emailHTML, category: categoryID, shape: key, values: values, context: context)

        var headers = Self.listHeaders(domain: domain, unsubscribe: links.unsubscribe) + [("X-Chime-Delivery", notification.deliveryID)]
        if let categoryID { headers.append(("X-Chime-Category", categoryID)) }
        let root = Self.threadRoot(of: notification, domain: domain)
        return MailMessage(
            from: notification.channel.fromHeader,
            to: [notification.address.value], replyTo: replyAddress, subject: surfaces.subject,
            // The reply token: a reply found by its In-Reply-To alone still says what it answers.
            messageID: "\(links.token)@\(domain)",
            date: (notification.sentAt ?? notification.fireDate).rfc5322(in: message.zone),
            inReplyTo: root, references: root.map { [$0] } ?? [], headers: headers, text: text, html: html,
            attachments: try notification.request.content.attachments.map(AttachmentFile.read))
    }

    /// What decides an email's templates' context apart from the values of one message.
    private struct Shape {
        var locale: String
        var category: NotificationCategory?
        var showContent: Bool
        var hasSubtitle: Bool
        /// The body shows what the preheader hides: the preheader is padded, in both parts.
        var padsPreheader: Bool

        var key: String { "\(locale)\u{0}\(showContent)\u{0}\(hasSubtitle)\u{0}\(padsPreheader)" }
    }

    /// The templates' context: labels in the shape's locale, the category's actions, and
    /// the message's `values` in the order ``compose(_:category:threadCount:)`` lists them.
    private func context(_ shape: Shape, _ values: [String]) throws -> [String: Any] {
        let locale = shape.locale
        var next = values.makeIterator()
        func value() -> String { next.next() ?? "" }
        var context: [String: Any] = [
            "subject": value(), "preheader": value(), "placeholder": value(),
            "title": value(), "subtitle": value(), "body": value(), "bodyHTML": value(), "date": value(),
            "viewURL": value(), "preferencesURL": value(), "unsubscribeURL": value(),
            "showContent": shape.showContent,
            // Mustache takes an empty string for true: sections test these flags.
            "hasSubtitle": shape.hasSubtitle,
            "padsPreheader": shape.padsPreheader,
            "htmlPadding": PreheaderPadding.html, "textPadding": PreheaderPadding.text,
            "replyMarker": try text("ui.replyAbove", [], locale: locale, fallback: "Reply above this line to answer."),
            "viewLabel": try viewLabel(locale: locale),
            "openLabel": try text("ui.open", [], locale: locale, fallback: "Open"),
            "preferencesLabel": try footerLabel(.preferences, locale: locale),
            "unsubscribeLabel": try footerLabel(.unsubscribe, locale: locale),
            "destructiveLabel": try text("ui.destructive", [], locale: locale, fallback: "cannot be undone"),
            "language": LocaleFallback.language(of: locale),
            "direction": LocaleFallback.direction(of: locale),
        ]
        var actions: [[String: Any]] = []
        for (index, action) in (shape.category?.actions ?? []).enumerated() {
            let title = localizer.localized(action.title, locale: locale)
            var entry: [String: Any] = [
                "number": index + 1, "identifier": action.identifier, "title": title,
                "keyword": try TextInputHint.email(index + 1, action, localizer: localizer, locale: locale),
                "destructive": action.options.contains(.destructive), "mailto": value(),
            ]
            if action.options.contains(.foreground) { entry["link"] = value() }
            actions.append(entry)
        }
        context["actions"] = actions
        context["hasActions"] = !actions.isEmpty
        let otherReplies = try otherReplies(shape.category, locale: locale)
        context["otherReplies"] = otherReplies.map { ["line": $0] }
        context["hasOtherReplies"] = !otherReplies.isEmpty
        context["otherRepliesLabel"] = try text("ui.otherReplies", [], locale: locale, fallback: "You can also reply:")
        return context
    }

    /// The footer's lines for the built-in replies a reply to a message of `category` may
    /// use, each with its word in `locale` (its English one when an action's name holds
    /// that one: the category's own win, as ``ReplyWords/owner(of:among:)`` decides for
    /// the reply matcher); one every word of which an action holds is left out. `keep`
    /// answers a provisional recipient's reminders, which come in the digest, which offers it.
    func otherReplies(_ category: NotificationCategory?, locale: String) throws -> [String] {
        let titles = { (title: String) in [title] + localizer.locales.map { localizer.localized(title, locale: $0) } }
        let names = category.map { ReplyWords.names(of: $0, titles: titles) } ?? []
        var lines: [String] = []
        for builtIn in BuiltInAction.answerable(in: category?.identifier ?? "") where builtIn != .keep {
            let words = [localizer.word(for: builtIn, locale: locale), builtIn.shortName].compactMap { $0 }
            guard let word = words.first(where: { word in
                if case .builtIn = ReplyWords.owner(of: ReplyWords.fold(word), among: names) { return true }
                return false
            }) else { continue }
            let key = "ui.otherReply.\(builtIn.shortName)"
            lines.append(try localizer.formatted(key, [.string(word)], locale: locale) ?? "\(word)")
        }
        return lines
    }

    /// The headers every Chime email carries: quiet with auto-responders, one list, and
    /// its unsubscribe link (RFC 2369), one-click (RFC 8058) only where the link is HTTPS,
    /// as RFC 8058 requires: a `linkBase` of `http://` would have a client's Unsubscribe
    /// button post in clear.
    static func listHeaders(domain: String, unsubscribe: String) -> [(name: String, value: String)] {
        // A list-id's namespace is a domain name (RFC 2919), `localhost` for none: not an
        // address literal.
        var headers = quietHeaders() + [("List-Id", "Chime reminders <reminders.\(domain.hasPrefix("[") ? "localhost" : domain)>"),
                                        ("List-Unsubscribe", "<\(unsubscribe)>")]
        if unsubscribe.lowercased().hasPrefix("https://") { headers.append(("List-Unsubscribe-Post", "List-Unsubscribe=One-Click")) }
        return headers
    }

    /// What keeps auto-responders quiet (RFC 3834): `auto-generated` for what Chime sends
    /// of itself, `auto-replied` for its answers to a person's reply.
    public static func quietHeaders(_ autoSubmitted: String = "auto-generated") -> [(name: String, value: String)] {
        [("Auto-Submitted", autoSubmitted), ("X-Auto-Response-Suppress", "All")]
    }

    /// The two links of every message's footer.
    enum FooterLink {
        case preferences, unsubscribe
    }

    /// A footer link's label in `locale`.
    func footerLabel(_ link: FooterLink, locale: String) throws -> String {
        switch link {
        case .preferences: try text("ui.preferences", [], locale: locale, fallback: "Notification preferences")
        case .unsubscribe: try text("ui.unsubscribe", [], locale: locale, fallback: "Unsubscribe")
        }
    }

    /// The Message-ID every email of the notification's thread refers to (In-Reply-To,
    /// References), so that clients show them as one conversation; nil outside a thread.
    static func threadRoot(of notification: OutgoingNotification, domain: String) -> String? {
        let thread = notification.request.content.threadIdentifier
        return thread.isEmpty ? nil : "thread.\(stableHash(notification.recipient.id + "\u{0}" + thread))@\(domain)"
    }

    /// "View this reminder", in the recipient's language.
    func viewLabel(locale: String) throws -> String {
        try text("ui.view", [], locale: locale, fallback: "View this reminder")
    }

    /// A whole HTML body of an email written in code (digests, opt-in requests): `body`
    /// under the page's language, its direction (Arabic right to left, as the single
    /// message's template says) and title.
    static func htmlPage(locale: String, title: String, body: String) -> String {
        """
        <!DOCTYPE html>
        <html lang="\(htmlEscaped(LocaleFallback.language(of: locale)))" dir="\(LocaleFallback.direction(of: locale))"><head><meta charset="utf-8"><title>\(htmlEscaped(title))</title></head>
        <body>
        \(body)</body></html>
        """
    }

    /// `text` with each CR of a request's text (CRLF, or alone) a line feed: left in, it
    /// was a bare CR in the text parts (`=0D<br>`), which RFC 2046 forbids.
    static func unixBreaks(_ text: String) -> String {
        text.utf8.contains(0x0D) ? text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n") : text
    }

    /// Text for an HTML body: escaped, each line break kept as `<br>` (HTML would run the
    /// lines together into one).
    static func htmlLines(_ text: String) -> String {
        let escaped = htmlEscaped(unixBreaks(text))
        return escaped.utf8.contains(UInt8(ascii: "\n")) ? escaped.replacingOccurrences(of: "\n", with: "<br>\n") : escaped
    }

    /// A reply keyword's link without its body: `mailto:` the reply address, subject
    /// `Re: subject`; the action's number follows `body=`.
    static func mailto(_ replyAddress: String, subject: String) -> String {
        "mailto:\(mailtoAddress(replyAddress))?subject=\(percentEncoded("Re: " + subject))&body="
    }

    /// An address as a `mailto:` URI holds it (RFC 6068): its domain in ASCII (IDNA), as
    /// the Reply-To header names it, and every byte but the unreserved ones and RFC 6068's
    /// `some-delims` (`+`, `@`…) percent-encoded: a quoted local part (`"chime bot"@…`)
    /// put a space and quotes in the link, which mail clients cut it at.
    static func mailtoAddress(_ mailbox: String) -> String {
        percentEncoded(Mailbox.envelopeAddress(of: mailbox), keeping: "!$'()*+,;:@")
    }

    /// A UI string of the templates in `locale`, formatted, else `fallback`.
    func text(_ key: String, _ values: [FormatArgument], locale: String, fallback: String) throws -> String {
        guard let found = localizer.string(key, locale: locale) else { return fallback }
        return try StringFormat.format(found.text, values, locale: locale)
    }

    /// A channel's `replyTo` with `{token}` replaced, found byte by byte: the standard
    /// library's and Foundation's searches compare characters, at a cost that shows.
    static func withToken(_ replyTo: String, _ token: String) -> String {
        let bytes = Array(replyTo.utf8)
        let pattern = Array("{token}".utf8)
        guard bytes.count >= pattern.count,
              let start = (0...(bytes.count - pattern.count)).first(where: { bytes[$0..<($0 + pattern.count)].elementsEqual(pattern) })
        else { return replyTo }
        return String(decoding: bytes[..<start], as: UTF8.self) + token + String(decoding: bytes[(start + pattern.count)...], as: UTF8.self)
    }

}

extension Channel {
    /// The `From:` of an email channel's messages (`Chime <chime@localhost>` without one).
    public var fromHeader: String { from ?? "Chime <chime@localhost>" }

    /// The `Reply-To:` of a message carrying `token`: the channel's `replyTo` with
    /// `{token}` filled in, else the address messages come from.
    public func replyAddress(token: String) -> String {
        replyTo.map { EmailComposer.withToken($0, token) } ?? envelopeFrom
    }
}
