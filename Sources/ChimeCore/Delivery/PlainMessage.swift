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
            ("Date", rfc5322Date(notification.fireDate, in: zone)),
            ("From", MailHeader.encodeDisplayName(in: from)),
            ("To", notification.address.value),
            ("Subject", MailHeader.encode(content.title.isEmpty ? "Reminder" : content.title)),
            ("Message-ID", "<\(notification.deliveryID)@\(domain(of: from))>"),
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

    /// `Sat, 21 Nov 2026 14:00:00 +0100`.
    public static func rfc5322Date(_ instant: Instant, in zone: TimeZone) -> String {
        let offset = zone.secondsFromGMT(for: instant.date)
        let local = LocalDateTime(secondsSinceEpoch: instant.seconds + Int64(offset))
        let days = CivilCalendar.days(year: local.year, month: local.month, day: local.day)
        let weekday = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"][CivilCalendar.weekday(ofDays: days) - 1]
        let month = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"][local.month - 1]
        let sign = offset < 0 ? "-" : "+"
        let minutes = abs(offset) / 60
        let time = local.description.split(separator: "T")[1]
        return "\(weekday), \(local.day) \(month) \(local.year) \(time) \(sign)\(String(format: "%02d%02d", minutes / 60, minutes % 60))"
    }

    private static func domain(of from: String) -> String {
        let address = from.split(separator: "<").last.map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "> ")) } ?? from
        let domain = address.split(separator: "@").last.map(String.init) ?? ""
        return domain.isEmpty || domain == address ? "chime.invalid" : domain
    }
}
