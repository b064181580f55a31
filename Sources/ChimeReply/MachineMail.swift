import ChimeCore
import ChimeMIME
import Foundation

/// Mail that answers nothing: what no person wrote (auto-replies, by RFC 3834 and the
/// headers and subjects of the common responders; delivery reports; read receipts), and a
/// person's emoji reaction, which only says they saw it. Chime never acts on one and never
/// answers one.
public enum MachineMail: Equatable, Sendable {
    /// An out-of-office or other automatic answer.
    case autoReply(String)
    /// A delivery status notification; `failedRecipients` are the addresses it reports as
    /// failed for good (action `failed`, a 5.x.x status), lower case.
    case bounce(failedRecipients: [String])
    /// A read receipt (RFC 8098 message disposition notification).
    case receipt
    /// An emoji reaction (Gmail's: a `text/vnd.google.email-reaction+json` part), with its
    /// emoji: a person's, but a "seen" as a receipt is, with nothing to carry out or answer.
    case reaction(String)

    /// What kind of machine wrote `mail`, or nil for a person. Reports come first: a
    /// delivery report carries `Auto-Submitted: auto-replied` too (Postfix's, Exim's), and
    /// must still be read as one.
    /// - Parameter readingSubject: whether an out-of-office subject makes it an
    ///   auto-reply; without it, see ``outOfOfficePhrase(in:title:)``, which leaves out
    ///   what the reminder's own title says.
    public static func classify(_ mail: ParsedMail, readingSubject: Bool = true) -> MachineMail? {
        let type = (mail.header("Content-Type") ?? "").lowercased()
        if mail.part("message/disposition-notification") != nil
            || (type.containsBytes("multipart/report") && type.containsBytes("disposition-notification")) {
            return .receipt
        }
        if let emoji = reaction(mail) { return .reaction(emoji) }
        if deliveryStatus(mail) != nil || (type.containsBytes("multipart/report") && type.containsBytes("delivery-status")) {
            return .bounce(failedRecipients: failedRecipients(mail))
        }
        // Exim's plain bounces, and others, name the failed addresses in a header.
        if let failed = mail.header("X-Failed-Recipients") {
            return .bounce(failedRecipients: addresses(failed))
        }
        if let submitted = mail.header("Auto-Submitted")?.trimmingCharacters(in: .whitespaces).lowercased(),
           !submitted.isEmpty, !submitted.hasPrefix("no") {
            return .autoReply("Auto-Submitted: \(submitted)")
        }
        // A list's mail (RFC 3834 section 2: never answered automatically) is no person's
        // answer to a reminder either.
        for name in ["X-Autoreply", "X-Autorespond", "X-Auto-Response-Suppress-Reply", "List-Id"] where mail.header(name) != nil {
            return .autoReply(name)
        }
        // The word before any comment: `bulk (vacation)`.
        if let precedence = mail.header("Precedence")?.lowercased().split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "(" }).first.map(String.init),
           ["bulk", "junk", "list", "auto_reply"].contains(precedence) {
            return .autoReply("Precedence: \(precedence)")
        }
        if let from = mail.header("From")?.lowercased(), from.containsBytes("mailer-daemon@") || from.containsBytes("postmaster@") {
            return .bounce(failedRecipients: [])
        }
        if readingSubject, let phrase = outOfOfficePhrase(in: mail.header("Subject") ?? "") {
            return .autoReply("subject: \(phrase)")
        }
        return nil
    }

    /// The emoji of a reaction: a `text/vnd.google.email-reaction+json` part that is no
    /// attachment, whose JSON's `emoji` is at most 16 characters (an emoji's sequence of
    /// modifiers and joiners); "?" when it is missing or longer, so that no part a sender
    /// fills makes the record say more.
    private static func reaction(_ mail: ParsedMail) -> String? {
        guard let part = mail.parts.first(where: { $0.contentType == "text/vnd.google.email-reaction+json" && !$0.isAttachment }) else { return nil }
        struct Reaction: Decodable { let emoji: String? }
        guard part.data.count <= 1_024, let emoji = (try? JSONDecoder().decode(Reaction.self, from: Data(part.data)))?.emoji,
              (1...16).contains(emoji.count), !emoji.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else { return "?" }
        return emoji
    }

    /// The out-of-office phrase a subject holds, unless the reminder's own title holds it
    /// too: a person's "Re: Set your Out of Office" answers a reminder of that title.
    public static func outOfOfficePhrase(in subject: String, title: String = "") -> String? {
        let subject = subject.lowercased().precomposed
        let title = title.lowercased().precomposed
        return outOfOfficeSubjects.first { subject.containsBytes($0) && !title.containsBytes($0) }
    }

    /// Out-of-office subjects in the major languages, lower-cased, in NFC (as the subject
    /// is made before it is searched).
    static let outOfOfficeSubjects = [
        "out of office", "out of the office", "automatic reply", "auto-reply", "autoreply", "auto reply",
        "absence du bureau", "réponse automatique", "absent du bureau",
        "abwesenheitsnotiz", "automatische antwort", "nicht im büro", "abwesend",
        "fuera de la oficina", "respuesta automática", "ausente",
        "fuori ufficio", "risposta automatica",
        "afwezig", "automatisch antwoord",
        "ausência", "resposta automática",
        "nieobecność", "automatyczna odpowiedź", "odpowiedź automatyczna",
        "автоответ", "вне офиса", "автоматический ответ",
        "自动回复", "自动答复", "自動回覆", "自動答覆", "不在办公室",
        "自動応答", "自動返信", "不在通知",
        // Phrases, not words: a reply's subject is "Re:" and the reminder's title, which
        // may say "absent" or "vacation" in any language.
        "automatiskt svar", "automatisk svar", "ikke på kontoret", "automaattinen vastaus",
        "otomatik yanıt", "otomatik cevap", "ofis dışında", "automatická odpověď", "mimo kancelář",
        "автовідповідь", "автоматична відповідь", "automatikus válasz", "házon kívül",
        "رد تلقائي", "خارج المكتب", "תשובה אוטומטית", "מחוץ למשרד", "자동 회신", "자동 응답",
        "αυτόματη απάντηση", "εκτός γραφείου", "răspuns automat", "în afara biroului", "resposta automàtica", "fora de l'oficina",
    ].map(\.precomposed)

    /// A delivery report's status part: RFC 3464's, or RFC 6533's for mail with UTF-8
    /// addresses (which Postfix and Exchange send for SMTPUTF8 mail).
    private static func deliveryStatus(_ mail: ParsedMail) -> ParsedMail.Part? {
        mail.part("message/delivery-status") ?? mail.part("message/global-delivery-status")
    }

    /// The addresses of a comma-separated list, lower case, brackets off.
    private static func addresses(_ list: String) -> [String] {
        list.split(separator: ",").map { Mailbox.key(of: String($0)) }.filter { $0.contains("@") }
    }

    /// The recipients a delivery report says failed for good (RFC 3464: per-recipient
    /// groups after the per-message one, separated by blank lines), lower case.
    private static func failedRecipients(_ mail: ParsedMail) -> [String] {
        guard let text = deliveryStatus(mail)?.decodedText else {
            return mail.header("X-Failed-Recipients").map(addresses) ?? []
        }
        var failed: [String] = []
        // Per-recipient groups are separated by blank lines.
        for group in text.replacingOccurrences(of: "\r\n", with: "\n").components(separatedBy: "\n\n") {
            var recipient: String?, action = "", status = ""
            // A field may go on over lines that start with a space or a tab (RFC 3464's
            // fields are RFC 822's): `Final-Recipient: rfc822;` then the address below.
            var lines: [String] = []
            for line in group.split(separator: "\n") {
                if let first = line.first, first == " " || first == "\t", !lines.isEmpty {
                    lines[lines.count - 1] += " " + line.trimmingCharacters(in: .whitespaces)
                } else {
                    lines.append(String(line))
                }
            }
            for line in lines {
                let parts = line.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                guard parts.count == 2 else { continue }
                switch parts[0].lowercased() {
                case "final-recipient", "original-recipient":
                    if recipient == nil || parts[0].lowercased() == "final-recipient" {
                        recipient = parts[1].split(separator: ";", maxSplits: 1).last.map { Mailbox.key(of: $0.trimmingCharacters(in: .whitespaces)) }
                    }
                case "action": action = parts[1].lowercased()
                case "status": status = parts[1]
                default: break
                }
            }
            if let recipient, action == "failed" || status.hasPrefix("5") { failed.append(recipient) }
        }
        return failed
    }
}
