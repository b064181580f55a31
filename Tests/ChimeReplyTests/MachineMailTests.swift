import ChimeMIME
@testable import ChimeReply
import Testing

/// Out-of-office subjects are found however the sender's client composed their accents:
/// a subject in NFD (as macOS writes file names, and some clients headers) is the same
/// text as its NFC form, and a person's reply that only looks alike is left to be read.
@Suite("Machine mail: out-of-office subjects in either normal form")
struct MachineMailTests {
    static func mail(subject: String) throws -> ParsedMail {
        let text = [
            "From: anna@example.org", "To: bot@example.org", "Subject: \(subject)", "MIME-Version: 1.0",
            "Content-Type: text/plain; charset=utf-8", "Content-Transfer-Encoding: 8bit", "", "Hello", "",
        ].joined(separator: "\r\n")
        return try #require(ParsedMail(bytes: Array(text.utf8)))
    }

    @Test("NFC, NFD and upper case of an accented phrase are all an auto-reply", arguments: [
        "Réponse automatique : absente",
        "Re\u{301}ponse automatique : absente",
        "RÉPONSE AUTOMATIQUE",
        "Respuesta automa\u{301}tica: fuera",
        "Nicht im Bu\u{308}ro: Anna Beispiel",
    ])
    func accented(subject: String) throws {
        guard case .autoReply(let why)? = MachineMail.classify(try Self.mail(subject: subject)) else {
            Issue.record("\(subject) was not taken for an auto-reply")
            return
        }
        #expect(why.hasPrefix("subject: "))
    }

    @Test("a person's subject, accented or not, is not machine mail", arguments: [
        "Re: Water the plants", "Re: Réponse à la réunion", "Re: Ausgang des Büros", "Re: автомобиль",
    ])
    func person(subject: String) throws {
        #expect(MachineMail.classify(try Self.mail(subject: subject)) == nil)
    }
}
