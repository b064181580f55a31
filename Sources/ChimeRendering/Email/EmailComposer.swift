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
        let (content, surfaces) = try LocalizedContent.withSurfaces(notification, category: category, localizer: localizer, threadCount: threadCount)
        let domain = Mailbox.domain(of: notification.channel.from ?? "chime@localhost")
        let replyAddress = notification.channel.replyTo.map { $0.replacingOccurrences(of: "{token}", with: links.replyToken(notification)) }
            ?? Mailbox.address(of: notification.channel.from ?? "chime@localhost")
        let zone = TimeZone(identifier: notification.recipient.timeZone) ?? TimeZone(identifier: "UTC")!

        var actions: [[String: Any]] = []
        for (index, action) in (category?.actions ?? []).enumerated() {
            let title = localizer.localized(action.title, locale: locale)
            let keyword = try text("ui.reply", [.integer(index + 1), .string(title)], locale: locale, fallback: "Reply \(index + 1) for \(title)")
            var entry: [String: Any] = [
                "number": index + 1, "identifier": action.identifier, "title": title, "keyword": keyword,
                "destructive": action.options.contains(.destructive),
                "mailto": "mailto:\(Mailbox.address(of: replyAddress))?subject=\(percentEncoded("Re: " + surfaces.subject))&body=\(index + 1)",
            ]
            if action.options.contains(.foreground) { entry["link"] = links.action(action, for: notification) }
            actions.append(entry)
        }
        let context: [String: Any] = [
            "subject": surfaces.subject, "preheader": surfaces.preheader, "placeholder": surfaces.placeholder,
            "showContent": surfaces.bodyShowsContent,
            "title": surfaces.bodyShowsContent ? content.title : "",
            "subtitle": surfaces.bodyShowsContent ? content.subtitle : "",
            // Mustache takes an empty string for true: sections test these flags.
            "hasSubtitle": surfaces.bodyShowsContent && !content.subtitle.isEmpty,
            "body": surfaces.bodyShowsContent ? content.body : "",
            "date": DateText.dayAndTime(notification.fireDate, locale: locale, zone: zone),
            "actions": actions, "hasActions": !actions.isEmpty,
            "viewURL": links.view(notification), "preferencesURL": links.preferences(notification),
            "unsubscribeURL": links.unsubscribe(notification),
            "replyMarker": try text("ui.replyAbove", [], locale: locale, fallback: "Reply above this line to answer."),
            "viewLabel": try text("ui.view", [], locale: locale, fallback: "View this reminder"),
            "openLabel": try text("ui.open", [], locale: locale, fallback: "Open"),
            "preferencesLabel": try text("ui.preferences", [], locale: locale, fallback: "Notification preferences"),
            "unsubscribeLabel": try text("ui.unsubscribe", [], locale: locale, fallback: "Unsubscribe"),
            "destructiveLabel": try text("ui.destructive", [], locale: locale, fallback: "cannot be undone"),
            "language": LocaleFallback.chain(locale).last ?? "en",
            "direction": ["ar", "he", "fa", "ur"].contains(LocaleFallback.chain(locale).last ?? "") ? "rtl" : "ltr",
        ]
        let categoryID = category?.identifier
        var headers: [(name: String, value: String)] = [
            ("Auto-Submitted", "auto-generated"),
            ("X-Auto-Response-Suppress", "All"),
            ("List-Id", "Chime reminders <reminders.\(domain)>"),
            ("List-Unsubscribe", "<\(links.unsubscribe(notification))>"),
            ("List-Unsubscribe-Post", "List-Unsubscribe=One-Click"),
            ("X-Chime-Delivery", notification.deliveryID),
        ]
        if let categoryID { headers.append(("X-Chime-Category", categoryID)) }
        let thread = notification.request.content.threadIdentifier
        let root = thread.isEmpty ? nil : "thread.\(Self.stableHash(notification.recipient.id + "\u{0}" + thread))@\(domain)"
        return MailMessage(
            from: notification.channel.from ?? "Chime <chime@localhost>",
            to: [notification.address.value], replyTo: replyAddress, subject: surfaces.subject,
            messageID: "\(notification.deliveryID)@\(domain)",
            date: notification.fireDate.rfc5322(in: zone),
            inReplyTo: root, references: root.map { [$0] } ?? [], headers: headers,
            text: templates.render(.emailText, category: categoryID, context),
            html: templates.render(.emailHTML, category: categoryID, context))
    }

    private func text(_ key: String, _ values: [FormatArgument], locale: String, fallback: String) throws -> String {
        guard let found = localizer.string(key, locale: locale) else { return fallback }
        return try StringFormat.format(found.text, values)
    }

    /// FNV-1a, 64 bits: the same thread gives the same root Message-ID in every run.
    static func stableHash(_ text: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        return String(hash, radix: 16)
    }
}
