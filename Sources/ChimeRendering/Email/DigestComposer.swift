import ChimeCore
import ChimeLocalization
import ChimeMIME
import Foundation

/// Renders one recipient's digest as one email: the notifications kept for it, grouped by
/// thread then category, each group headed by its localized, plural-correct summary
/// (``ThreadSummary``) and ordered by `relevanceScore` then time; each notification with
/// its own reply keywords (`mailto:` its own reply address, as its single email's
/// Reply-To) and action links, so answering works exactly as for a single one.
public struct DigestComposer: Sendable {
    public let composer: EmailComposer
    public let categories: [String: NotificationCategory]

    public init(composer: EmailComposer, categories: [String: NotificationCategory]) {
        self.composer = composer
        self.categories = categories
    }

    /// A group of the digest: one thread (or one category, for notifications in no thread).
    public struct Group {
        public var heading: String
        public var items: [OutgoingNotification]
    }

    /// The groups, in order: the most relevant first, then the earliest.
    public func groups(_ items: [OutgoingNotification]) throws -> [Group] {
        var byKey: [String: [OutgoingNotification]] = [:]
        for item in items {
            let content = item.request.content
            byKey["\(content.threadIdentifier)\u{0}\(content.categoryIdentifier)", default: []].append(item)
        }
        func before(_ a: OutgoingNotification, _ b: OutgoingNotification) -> Bool {
            let (x, y) = (a.request.content.relevanceScore, b.request.content.relevanceScore)
            return x != y ? x > y : (a.fireDate.seconds, a.request.identifier) < (b.fireDate.seconds, b.request.identifier)
        }
        let summary = ThreadSummary(localizer: composer.localizer)
        return try byKey.values.map { $0.sorted(by: before) }.sorted { before($0[0], $1[0]) }.map { items in
            let first = items[0]
            let contents = items.map(\.request.content)
            let heading = try summary.text(format: categories[first.request.content.categoryIdentifier]?.categorySummaryFormat,
                                           count: ThreadSummary.count(of: contents), arguments: contents.map(\.summaryArgument),
                                           locale: first.recipient.locale)
            return Group(heading: heading, items: items)
        }
    }

    /// The digest email to one address. `items` are the notifications as they would go to
    /// that address alone (same recipient, channel and address).
    public func compose(_ items: [OutgoingNotification], digestID: String, date: Instant) throws -> MailMessage {
        guard let first = items.first else { throw MissingItems() }
        let recipient = first.recipient, channel = first.channel, locale = recipient.locale
        let localizer = composer.localizer
        let subject = try localizer.formatted("digest.subject", [.integer(items.count)], locale: locale)
            ?? "\(items.count) reminder\(items.count == 1 ? "" : "s")"
        var text = subject + "\n"
        var html = "<h1>\(htmlEscaped(subject))</h1>\n"
        var number = 0
        for group in try groups(items) {
            text += "\n\(group.heading)\n" + String(repeating: "=", count: min(group.heading.count, 60)) + "\n"
            html += "<h2>\(htmlEscaped(group.heading))</h2>\n<ol>\n"
            for item in group.items {
                number += 1
                let category = categories[item.request.content.categoryIdentifier]
                let message = try LocalizedMessage(item, category: category, localizer: localizer, threadCount: group.items.count)
                let links = composer.links.links(for: item)
                let shown = message.surfaces.bodyShowsContent
                let headline = shown ? [message.content.title, message.content.body].filter { !$0.isEmpty }.joined(separator: " — ")
                    : message.surfaces.placeholder
                text += "\n\(number). \(headline)\n   \(message.dateText)\n"
                html += "<li><p>\(htmlEscaped(headline))<br><small>\(htmlEscaped(message.dateText))</small></p>"
                if !shown {
                    text += "   \(links.view)\n"
                    html += "<p><a href=\"\(htmlEscaped(links.view))\">\(htmlEscaped(links.view))</a></p>"
                }
                let mailto = EmailComposer.mailto(channel.replyAddress(token: links.token), subject: message.surfaces.subject)
                var buttons: [String] = []
                for (index, action) in (category?.actions ?? []).enumerated() {
                    let title = localizer.localized(action.title, locale: locale)
                    let keyword = try composer.text("ui.reply", [.integer(index + 1), .string(title)], locale: locale, fallback: "Reply \(index + 1) for \(title)")
                    text += "   \(keyword): \(mailto)\(index + 1)\n"
                    buttons.append("<a href=\"\(htmlEscaped(mailto + String(index + 1)))\">\(htmlEscaped(title))</a>")
                }
                if !buttons.isEmpty { html += "<p>" + buttons.joined(separator: " · ") + "</p>" }
                html += "</li>\n"
            }
            html += "</ol>\n"
        }
        let links = composer.links.links(for: first)
        let preferences = try composer.text("ui.preferences", [], locale: locale, fallback: "Notification preferences")
        let unsubscribe = try composer.text("ui.unsubscribe", [], locale: locale, fallback: "Unsubscribe")
        text += "\n--\n\(preferences): \(links.preferences)\n\(unsubscribe): \(links.unsubscribe)\n"
        html += "<hr><p><a href=\"\(htmlEscaped(links.preferences))\">\(htmlEscaped(preferences))</a> · "
            + "<a href=\"\(htmlEscaped(links.unsubscribe))\">\(htmlEscaped(unsubscribe))</a></p>\n"
        let domain = Mailbox.domain(of: channel.envelopeFrom)
        let page = """
            <!DOCTYPE html>
            <html lang="\(LocaleFallback.chain(locale).last ?? "en")"><head><meta charset="utf-8"><title>\(htmlEscaped(subject))</title></head>
            <body>
            \(html)</body></html>
            """
        return MailMessage(
            from: channel.fromHeader, to: [first.address.value], replyTo: channel.envelopeFrom, subject: subject,
            messageID: "\(digestID)@\(domain)", date: date.rfc5322(in: LocalizedMessage.zone(of: recipient)),
            headers: EmailComposer.listHeaders(domain: domain, unsubscribe: links.unsubscribe) + [("X-Chime-Digest", digestID)],
            text: text, html: page)
    }

    struct MissingItems: Error, CustomStringConvertible {
        var description: String { "a digest needs at least one notification" }
    }
}
