import ChimeCore
import ChimeLocalization
import ChimeMIME
import Foundation

/// Renders the double opt-in request (``OptIn``): what a `notDetermined` recipient gets
/// instead of their first reminder. It asks them to confirm by replying with the
/// localized keyword or by the signed link (`/a/TOKEN/confirm`, which `chime serve`
/// shows on GET and carries out on POST), and says that ignoring it is enough to get
/// nothing more. It has no unsubscribe headers: there is nothing to leave yet.
public struct OptInComposer: Sendable {
    public let composer: EmailComposer

    public init(composer: EmailComposer) {
        self.composer = composer
    }

    /// The request's subject: its strings key, and its English text when the templates
    /// lack it. What its pages call it too (``ReminderTitle``).
    static let subject = (key: "optin.subject", fallback: "Do you want reminders at this address?")

    /// The request to one email address; `notification` is ``OptIn/request(for:)`` on
    /// its way there, under the recipient's opt-in delivery id.
    public func email(_ notification: OutgoingNotification) throws -> MailMessage {
        let recipient = notification.recipient, locale = recipient.locale
        let address = Mailbox.address(of: notification.address.value)
        let links = composer.links.links(for: notification)
        let replyAddress = notification.channel.replyAddress(token: links.token)
        let keyword = composer.localizer.word(for: .confirm, locale: locale) ?? "Confirm"
        let confirm = links.builtIn(BuiltInAction.confirm.shortName)
        let subject = try composer.text(Self.subject.key, [], locale: locale, fallback: Self.subject.fallback)
        let intro = try composer.text("optin.intro", [.string(address)], locale: locale,
                                      fallback: "Reminders are ready to be sent to \(address), but none will come until you confirm that you want them.")
        let reply = try composer.text("optin.reply", [.string(keyword)], locale: locale,
                                      fallback: "To confirm, reply to this email with the word “\(keyword)”, or open this link:")
        let ignore = try composer.text("optin.ignore", [], locale: locale,
                                       fallback: "If you did not expect this, ignore this email: nothing more will be sent to you.")
        let text = "\(intro)\n\n\(reply)\n\(confirm)\n\n\(ignore)\n"
        let mailto = EmailComposer.mailto(replyAddress, subject: subject) + percentEncoded(keyword)
        let html = EmailComposer.htmlPage(locale: locale, title: subject, body: """
            <p>\(htmlEscaped(intro))</p>
            <p>\(htmlEscaped(reply))</p>
            <p><a href="\(htmlEscaped(confirm))">\(htmlEscaped(keyword))</a> · <a href="\(htmlEscaped(mailto))">\(htmlEscaped(keyword)) ✉</a></p>
            <p><small>\(htmlEscaped(ignore))</small></p>

            """)
        let domain = Mailbox.domain(of: notification.channel.envelopeFrom)
        return MailMessage(
            from: notification.channel.fromHeader, to: [notification.address.value], replyTo: replyAddress, subject: subject,
            messageID: "\(links.token)@\(domain)", date: notification.fireDate.rfc5322(in: LocalizedMessage.zone(of: recipient)),
            headers: EmailComposer.quietHeaders() + [("X-Chime-Delivery", notification.deliveryID), ("X-Chime-Category", OptIn.category)],
            text: text, html: html)
    }
}
