import Foundation

/// A plain RFC 5322 message for a fired notification: the title as the subject, the
/// subtitle and body as UTF-8 text. The rendering of localized templates replaces its
/// content; its headers (Message-ID from the delivery id, Date of the fire) stay.
public enum PlainMessage {
    /// The message, with LF line ends (the Maildir convention; SMTP converts to CRLF).
    public static func render(_ notification: OutgoingNotification) -> String {
        let content = notification.request.content
        let zone = TimeZone(identifier: notification.recipient.timeZone) ?? TimeZone(identifier: "UTC")!
        let from = notification.channel.from ?? "Chime <chime@localhost>"
        var body = [content.subtitle, content.body].filter { !$0.isEmpty }.joined(separator: "\n\n")
        if notification.coalesced > 0 {
            body += "\n\n(\(notification.coalesced) earlier occurrence\(notification.coalesced == 1 ? "" : "s") missed while Chime was not running.)"
        }
        body += "\n"
        let needsEncoding = !body.allSatisfy(\.isASCII) || body.split(separator: "\n").contains { $0.utf8.count > 76 }
        var headers = [
            ("Date", notification.fireDate.rfc5322(in: zone)),
            ("From", MailHeader.encodeDisplayName(in: from)),
            ("To", notification.address.value),
            ("Subject", MailHeader.encode(content.title.isEmpty ? "Reminder" : content.title)),
            ("Message-ID", "<\(notification.deliveryID)@\(Mailbox.domain(of: from))>"),
            ("MIME-Version", "1.0"),
            ("Content-Type", "text/plain; charset=utf-8"),
            ("Content-Transfer-Encoding", needsEncoding ? "quoted-printable" : "7bit"),
            ("X-Chime-Request", MailHeader.encode(notification.request.identifier)),
            ("X-Chime-Delivery", notification.deliveryID),
        ]
        if !content.categoryIdentifier.isEmpty {
            headers.append(("X-Chime-Category", MailHeader.encode(content.categoryIdentifier)))
        }
        if !content.threadIdentifier.isEmpty {
            headers.append(("X-Chime-Thread", MailHeader.encode(content.threadIdentifier)))
        }
        let head = headers.map { "\($0.0): \($0.1)" }.joined(separator: "\n")
        return head + "\n\n" + (needsEncoding ? QuotedPrintable.encode(body) : body)
    }

}
