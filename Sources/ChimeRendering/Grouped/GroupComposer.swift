import ChimeCore
import ChimeLocalization
import ChimeMIME
import Foundation

/// Renders several notifications of one recipient as one message: the daily digest of
/// what was kept for it, or the notifications of one thread that fired during the group
/// wait. They are grouped by thread then category, each group headed by its localized,
/// plural-correct summary (``ThreadSummary``) and ordered by `relevanceScore` then time;
/// each notification keeps its own reply keywords (`mailto:` its own reply address, as
/// its single email's Reply-To) and action links, so answering works exactly as for a
/// single one.
public struct GroupComposer: Sendable {
    public let composer: EmailComposer
    public let categories: [String: NotificationCategory]

    public init(composer: EmailComposer, categories: [String: NotificationCategory]) {
        self.composer = composer
        self.categories = categories
    }

    /// The groups of the message, in order: one thread (or one category, for
    /// notifications in no thread) each, the most relevant first, then the earliest.
    func groups(_ items: [OutgoingNotification]) -> [[OutgoingNotification]] {
        var byKey: [String: [OutgoingNotification]] = [:]
        for item in items {
            let content = item.request.content
            byKey["\(content.threadIdentifier)\u{0}\(content.categoryIdentifier)", default: []].append(item)
        }
        func before(_ a: OutgoingNotification, _ b: OutgoingNotification) -> Bool {
            let (x, y) = (a.request.content.relevanceScore, b.request.content.relevanceScore)
            return x != y ? x > y : (a.fireDate.seconds, a.request.identifier) < (b.fireDate.seconds, b.request.identifier)
        }
        // Two groups whose first notifications tie are in the order of their keys, not of
        // the dictionary's (which changes from run to run).
        return byKey.map { (key: $0.key, items: $0.value.sorted(by: before)) }
            .sorted { before($0.items[0], $1.items[0]) || (!before($1.items[0], $0.items[0]) && $0.key < $1.key) }
            .map(\.items)
    }

    /// A group's heading: its summary where the notifications' content shows (as its
    /// first entry, `first`, shows it), else what shows in its place (the category's
    /// placeholder, counted): a summary names what the content says ("… from Matt and Anna").
    private func heading(of items: [OutgoingNotification], first: LocalizedMessage) throws -> String {
        first.surfaces.bodyShowsContent ? try summary(of: items) : try message(items[0], threadCount: items.count).surfaces.subject
    }

    /// The localized summary of notifications, with their first one's category's format:
    /// "2 more shopping reminders from Matt and Anna".
    func summary(of items: [OutgoingNotification]) throws -> String {
        let first = items[0]
        let contents = items.map(\.request.content)
        return try ThreadSummary(localizer: composer.localizer).text(
            format: categories[first.request.content.categoryIdentifier]?.categorySummaryFormat,
            count: ThreadSummary.count(of: contents), arguments: contents.map(\.summaryArgument), locale: first.recipient.locale)
    }

    /// The subject: a digest's "Your digest: 3 reminders"; a thread's summary, or, when the
    /// recipient hides previews, the category's placeholder counted as iOS counts it
    /// ("%u new reminders").
    func subject(_ items: [OutgoingNotification], kind: GroupKind) throws -> String {
        // In the order the message lists them (``groups(_:)``), not the store's: the
        // summary's names come in that order, as its heading's do.
        let items = groups(items).flatMap { $0 }
        let first = items[0]
        switch kind {
        case .digest:
            return try composer.localizer.formatted("digest.subject", [.integer(items.count)], locale: first.recipient.locale)
                ?? "\(items.count) reminder\(items.count == 1 ? "" : "s")"
        case .thread:
            guard first.recipient.showPreviews == .always else {
                return try message(first, threadCount: items.count).surfaces.subject
            }
            return try summary(of: items)
        }
    }

    /// One notification as the message lists it.
    struct Entry {
        var number: Int
        var message: LocalizedMessage
        var links: MessageLinks
        var category: NotificationCategory?

        /// Title, subtitle and body, as the single message shows them, or the placeholder
        /// when the recipient's previews hide them.
        var headline: String {
            message.surfaces.bodyShowsContent
                ? [message.content.title, message.content.subtitle, message.content.body].filter { !$0.isEmpty }.joined(separator: " — ")
                : message.surfaces.placeholder
        }
    }

    /// The groups with their notifications numbered in order, localized, with the links
    /// the medium carries (a chat message's entries, their actions' only).
    func entries(_ items: [OutgoingNotification], medium: MessageLinks.Medium) throws -> [(heading: String, entries: [Entry])] {
        var number = 0
        return try groups(items).map { group in
            let entries = try group.map { item in
                number += 1
                // Each entry is one notification: a counted placeholder ("%u hidden
                // reminders") counts the group in its heading only.
                return Entry(number: number, message: try message(item, threadCount: 1),
                             links: composer.links.links(for: item, medium: medium), category: categories[item.request.content.categoryIdentifier])
            }
            return (try heading(of: group, first: entries[0].message), entries)
        }
    }

    private func message(_ item: OutgoingNotification, threadCount: Int) throws -> LocalizedMessage {
        try LocalizedMessage(item, category: categories[item.request.content.categoryIdentifier], localizer: composer.localizer,
                             threadCount: threadCount)
    }

    /// The email to one address. `items` are the notifications as they would go to that
    /// address alone (same recipient, channel and address).
    public func email(_ items: [OutgoingNotification], id: String, date: Instant, kind: GroupKind) throws -> MailMessage {
        guard let first = items.first else { throw MissingItems() }
        let recipient = first.recipient, channel = first.channel, locale = recipient.locale
        let localizer = composer.localizer
        let subject = try subject(items, kind: kind)
        let groups = try entries(items, medium: .email)
        var text = subject + "\n"
        var html = "<h1>\(htmlEscaped(subject))</h1>\n"
        // Content hidden from previews but shown in the body (whenAuthenticated): the inbox
        // snippet ends, padded, before the first heading, as a single email's does.
        if groups.contains(where: { $0.entries.contains { $0.message.surfaces.bodyShowsHiddenContent } }) {
            text = subject + PreheaderPadding.text + "\n\n" + text
            html = "<div style=\"display:none;max-height:0;overflow:hidden\">\(htmlEscaped(subject))\(PreheaderPadding.html)</div>\n" + html
        }
        for (heading, entries) in groups {
            text += "\n\(heading)\n" + String(repeating: "=", count: min(heading.count, 60)) + "\n"
            // Numbered on from the group before, as the text part is (each list had started
            // again at 1); an entry's lines kept, as a single email's body keeps them.
            let start = entries.first.map { $0.number > 1 ? " start=\"\($0.number)\"" : "" } ?? ""
            html += "<h2>\(htmlEscaped(heading))</h2>\n<ol\(start)>\n"
            for entry in entries {
                text += "\n\(entry.number). \(entry.headline)\n   \(entry.message.dateText)\n"
                html += "<li><p>\(EmailComposer.htmlLines(entry.headline))<br><small>\(htmlEscaped(entry.message.dateText))</small></p>"
                if !entry.message.surfaces.bodyShowsContent {
                    text += "   \(entry.links.view)\n"
                    html += "<p><a href=\"\(htmlEscaped(entry.links.view))\">\(htmlEscaped(entry.links.view))</a></p>"
                }
                let mailto = EmailComposer.mailto(channel.replyAddress(token: entry.links.token), subject: entry.message.surfaces.subject)
                var buttons: [String] = []
                for (index, action) in (entry.category?.actions ?? []).enumerated() {
                    let title = localizer.localized(action.title, locale: locale)
                    let keyword = try TextInputHint.email(index + 1, action, localizer: localizer, locale: locale)
                    let link = mailto + TextInputHint.mailtoBody(index + 1, action)
                    text += "   \(keyword): \(link)\n"
                    buttons.append("<a href=\"\(htmlEscaped(link))\">\(htmlEscaped(action.textInput == nil ? title : keyword))</a>")
                }
                // Reminders delivered provisionally (quietly, into the digest, as iOS's
                // trial) offer Keep and Turn Off, by reply as the actions are.
                for choice in provisionalChoices(recipient, kind) {
                    let title = title(of: choice, locale: locale)
                    text += "   \(title): \(mailto)\(choice.shortName)\n"
                    buttons.append("<a href=\"\(htmlEscaped(mailto + choice.shortName))\">\(htmlEscaped(title))</a>")
                }
                if !buttons.isEmpty { html += "<p>" + buttons.joined(separator: " · ") + "</p>" }
                html += "</li>\n"
            }
            html += "</ol>\n"
        }
        let links = composer.links.links(for: first)
        // Unsubscribing from the message stops every category it holds, not the first's alone.
        let categories = Set(items.map(\.request.content.categoryIdentifier)).sorted()
        let unsubscribeURL = links.unsubscribe(from: categories)
        let preferences = try composer.footerLabel(.preferences, locale: locale)
        let unsubscribe = try composer.footerLabel(.unsubscribe, locale: locale)
        text += "\n--\n\(preferences): \(links.preferences)\n\(unsubscribe): \(unsubscribeURL)\n"
        html += "<hr><p><a href=\"\(htmlEscaped(links.preferences))\">\(htmlEscaped(preferences))</a> · "
            + "<a href=\"\(htmlEscaped(unsubscribeURL))\">\(htmlEscaped(unsubscribe))</a></p>\n"
        let domain = Mailbox.domain(of: channel.envelopeFrom)
        let page = EmailComposer.htmlPage(locale: locale, title: subject, body: html)
        let marker = kind == .digest ? ("X-Chime-Digest", id) : ("X-Chime-Group", id)
        // A thread's message goes in the conversation of the thread's single emails.
        let root = kind == .thread ? EmailComposer.threadRoot(of: first, domain: domain) : nil
        return MailMessage(
            from: channel.fromHeader, to: [first.address.value], replyTo: channel.envelopeFrom, subject: subject,
            messageID: "\(id)@\(domain)", date: date.rfc5322(in: LocalizedMessage.zone(of: recipient)),
            inReplyTo: root, references: root.map { [$0] } ?? [],
            headers: EmailComposer.listHeaders(domain: domain, unsubscribe: unsubscribeURL) + [marker],
            text: text, html: page)
    }

    /// The chat message to one address: the subject as its headline, then each
    /// notification numbered with its date and its actions' links, a text-input action's
    /// saying its text is typed on the page it opens. A list longer than the platform
    /// takes lists the entries that fit, whole, then says how many more there are.
    public func chat(_ items: [OutgoingNotification], kind: GroupKind) throws -> ChatMessage {
        guard let first = items.first else { throw MissingItems() }
        let locale = first.recipient.locale
        let subject = try subject(items, kind: kind)
        var blocks: [String] = []
        let groups = try entries(items, medium: .chat)
        for (heading, entries) in groups {
            for (index, entry) in entries.enumerated() {
                var lines: [String] = []
                // A thread's one summary is the headline already.
                if index == 0, kind == .digest || groups.count > 1 { lines.append(TextLimit.fit(heading, Self.longestChatHeadline, .utf16)) }
                // An entry's text (and its group's heading, names in it) is cut short, its
                // links never: a first entry longer than a platform's message left the
                // message without a link to act on.
                lines.append("\(entry.number). \(TextLimit.fit(entry.headline, Self.longestChatHeadline, .utf16)) · \(entry.message.dateText)")
                // Content hidden (never): its page shows it, as the email's entry links it.
                if !entry.message.surfaces.bodyShowsContent {
                    lines.append("   \(try composer.viewLabel(locale: locale)): \(entry.links.view)")
                }
                for action in entry.category?.actions ?? [] where !action.options.contains(.foreground) {
                    // A link: a text-input action's text is typed on the page it opens.
                    let label = try TextInputHint.chat(action, typedIn: .page, localizer: composer.localizer, locale: locale)
                        ?? composer.localizer.localized(action.title, locale: locale)
                    lines.append("   \(label): \(entry.links.action(action))")
                }
                for choice in provisionalChoices(first.recipient, kind) {
                    lines.append("   \(title(of: choice, locale: locale)): \(entry.links.builtIn(choice.shortName))")
                }
                blocks.append(lines.joined(separator: "\n"))
            }
        }
        // The subject already hides what the recipient's previews hide; the list below it
        // shows content for whenAuthenticated, so the message is marked as showing hidden
        // content, which keeps it out of Telegram's first lines (see ChatPayload.telegram).
        let hides = first.recipient.showPreviews == .whenAuthenticated
        // The subject is finished text, a placeholder with no count left to fill: a percent
        // sign in it ("Sale: 20% off") is its own, not a format's ("Sale: 203ff").
        let surfaces = PreviewSurfaces(title: subject, subtitle: "", body: "", showPreviews: hides ? .whenAuthenticated : .always,
                                       options: [], placeholder: subject.replacingOccurrences(of: "%", with: "%%"), threadCount: items.count)
        var message = ChatMessage(surfaces: surfaces, title: subject, subtitle: "", body: "", text: blocks.joined(separator: "\n"),
                                  dateText: DateText.dayAndTime(first.fireDate, locale: locale, zone: LocalizedMessage.zone(of: first.recipient)),
                                  actions: [], minimalActions: [], viewURL: composer.links.links(for: first, medium: .chat).view)
        message.rightToLeft = LocaleFallback.direction(of: locale) == "rtl"
        let localizer = composer.localizer
        message.list = ChatMessage.List(entries: blocks) { left in
            ((try? localizer.formatted("chat.more", [.integer(left)], locale: locale)) ?? nil) ?? "… +\(left)"
        }
        return message
    }

    /// The longest an entry's title, subtitle and body are in a chat message (UTF-16 units,
    /// as Slack and Telegram count): a few lines, well within the smallest platform's message.
    static let longestChatHeadline = 300

    /// Keep and Turn Off, for each item of a provisional recipient's digest.
    private func provisionalChoices(_ recipient: Recipient, _ kind: GroupKind) -> [BuiltInAction] {
        kind == .digest && recipient.authorization == .provisional ? [.keep, .off] : []
    }

    /// A built-in answer's word in the recipient's language ("Оставить").
    private func title(of choice: BuiltInAction, locale: String) -> String {
        composer.localizer.word(for: choice, locale: locale) ?? choice.shortName
    }

    struct MissingItems: Error, CustomStringConvertible {
        var description: String { "a grouped message needs at least one notification" }
    }
}
