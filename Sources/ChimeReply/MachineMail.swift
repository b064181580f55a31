import ChimeMIME
import Foundation

/// Mail that no person wrote: auto-replies (RFC 3834 and the headers and subjects of the
/// common responders) and delivery reports. Chime never acts on one and never answers one.
public enum MachineMail: Equatable, Sendable {
    /// An out-of-office or other automatic answer.
    case autoReply(String)
    /// A delivery status notification; `failedRecipients` are the addresses it reports as
    /// failed for good (action `failed`, a 5.x.x status).
    case bounce(failedRecipients: [String])

    /// What kind of machine wrote `mail`, or nil for a person.
    public static func classify(_ mail: ParsedMail) -> MachineMail? {
        if let report = mail.header("Content-Type")?.lowercased(), report.contains("multipart/report"),
           report.contains("delivery-status") {
            return .bounce(failedRecipients: failedRecipients(mail))
        }
        if let submitted = mail.header("Auto-Submitted")?.trimmingCharacters(in: .whitespaces).lowercased(),
           !submitted.isEmpty, !submitted.hasPrefix("no") {
            return .autoReply("Auto-Submitted: \(submitted)")
        }
        for name in ["X-Autoreply", "X-Autorespond", "X-Auto-Response-Suppress-Reply"] where mail.header(name) != nil {
            return .autoReply(name)
        }
        if let precedence = mail.header("Precedence")?.trimmingCharacters(in: .whitespaces).lowercased(),
           ["bulk", "junk", "list", "auto_reply"].contains(precedence) {
            return .autoReply("Precedence: \(precedence)")
        }
        if let from = mail.header("From")?.lowercased(), from.contains("mailer-daemon@") || from.contains("postmaster@") {
            return .bounce(failedRecipients: failedRecipients(mail))
        }
        let subject = (mail.header("Subject") ?? "").lowercased()
        if let phrase = outOfOfficeSubjects.first(where: { subject.contains($0) }) {
            return .autoReply("subject: \(phrase)")
        }
        return nil
    }

    /// Out-of-office subjects in the major languages, lower-cased.
    static let outOfOfficeSubjects = [
        "out of office", "out of the office", "automatic reply", "auto-reply", "autoreply", "auto reply",
        "absence du bureau", "réponse automatique", "absent du bureau",
        "abwesenheitsnotiz", "automatische antwort", "nicht im büro", "abwesend",
        "fuera de la oficina", "respuesta automática", "ausente",
        "fuori ufficio", "risposta automatica",
        "afwezig", "automatisch antwoord",
        "ausência", "resposta automática",
        "nieobecność", "automatyczna odpowiedź",
        "автоответ", "вне офиса", "автоматический ответ",
        "自动回复", "自動回覆", "不在办公室",
        "自動応答", "自動返信", "不在通知",
    ]

    /// The recipients a delivery report says failed for good.
    private static func failedRecipients(_ mail: ParsedMail) -> [String] {
        guard let text = mail.part("message/delivery-status")?.decodedText else { return [] }
        var failed: [String] = []
        // Per-recipient groups are separated by blank lines.
        for group in text.replacingOccurrences(of: "\r\n", with: "\n").components(separatedBy: "\n\n") {
            var recipient: String?, action = "", status = ""
            for line in group.split(separator: "\n") {
                let parts = line.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                guard parts.count == 2 else { continue }
                switch parts[0].lowercased() {
                case "final-recipient", "original-recipient":
                    if recipient == nil || parts[0].lowercased() == "final-recipient" {
                        recipient = parts[1].split(separator: ";", maxSplits: 1).last.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
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
