import ChimeCore
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
        "Automatiskt svar: Inköp", "자동 회신: Shopping", "رد تلقائي: Shopping", "Automatická odpověď: Nákup",
        "Automaattinen vastaus: Ostokset", "Otomatik yanıt: Alışveriş", "Автовідповідь: Покупки", "תשובה אוטומטית: קניות",
        "自动答复: Einkaufen", "Odpowiedź automatyczna: Zakupy", "Αυτόματη απάντηση: Ψώνια", "Răspuns automat: Cumpărături",
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

    static func mail(headers: [String], body: [String] = ["Hello"]) throws -> ParsedMail {
        let text = (["From: anna@example.org", "To: bot@example.org", "Subject: Re: Shopping", "MIME-Version: 1.0"] + headers + [""] + body + [""])
            .joined(separator: "\r\n")
        return try #require(ParsedMail(bytes: Array(text.utf8)))
    }

    @Test("a list's mail (List-Id) and Precedence with a comment are never a person's answer")
    func listsAndPrecedence() throws {
        let plain = "Content-Type: text/plain; charset=utf-8"
        #expect(MachineMail.classify(try Self.mail(headers: [plain, "List-Id: <team.example.org>"])) == .autoReply("List-Id"))
        #expect(MachineMail.classify(try Self.mail(headers: [plain, "Precedence: bulk (vacation)"])) == .autoReply("Precedence: bulk"))
        #expect(MachineMail.classify(try Self.mail(headers: [plain, "Precedence: first-class"])) == nil)
    }

    @Test("an RFC 6533 report (message/global-delivery-status, for UTF-8 addresses) is a bounce naming its failed recipient")
    func globalDeliveryStatus() throws {
        let report = try Self.mail(headers: ["Content-Type: multipart/report; report-type=global-delivery-status; boundary=\"b\""], body: [
            "--b", "Content-Type: text/plain; charset=utf-8", "", "Delivery failed.", "",
            "--b", "Content-Type: message/global-delivery-status", "",
            "Reporting-MTA: dns; mx.example.org", "", "Final-Recipient: utf-8; ida@bücher.example", "Action: failed", "Status: 5.1.1", "",
            "--b--",
        ])
        #expect(MachineMail.classify(report) == .bounce(failedRecipients: [Mailbox.key(of: "ida@bücher.example")]))
    }
}

/// Gmail's emoji reactions: a person's "seen", never an answer to act on or to answer.
@Suite("Machine mail: emoji reactions")
struct ReactionMailTests {
    /// The body of a reaction as Gmail writes it: its part between the text and the HTML.
    static func reaction(_ json: String, disposition: String? = nil) -> [String] {
        ["--r", "Content-Type: text/plain; charset=utf-8", "", "👍", "--r", "Content-Type: text/vnd.google.email-reaction+json; charset=utf-8"]
            + (disposition.map { ["Content-Disposition: \($0)"] } ?? [])
            + ["", json, "--r", "Content-Type: text/html; charset=utf-8", "", "<p>👍</p>", "--r--"]
    }

    static let alternative = "Content-Type: multipart/alternative; boundary=\"r\""

    @Test("a reaction part (between the text and the HTML, as Gmail writes it) is a reaction with its emoji; a bad or long emoji is \"?\"; one sent as an attachment is not a reaction")
    func reactions() throws {
        func classify(_ lines: [String]) throws -> MachineMail? {
            MachineMail.classify(try MachineMailTests.mail(headers: [Self.alternative], body: lines))
        }
        #expect(try classify(Self.reaction(#"{"version":1,"emoji":"👍"}"#)) == .reaction("👍"))
        #expect(try classify(Self.reaction(#"{"version":1,"emoji":"👩🏽‍💻"}"#)) == .reaction("👩🏽‍💻"))
        #expect(try classify(Self.reaction(#"{"version":1}"#)) == .reaction("?"))
        #expect(try classify(Self.reaction(#"{"version":1,"emoji":"\#(String(repeating: "A", count: 40))"}"#)) == .reaction("?"))
        #expect(try classify(Self.reaction(#"{"version":1,"emoji":"\u001b[31m"}"#)) == .reaction("?"))
        #expect(try classify(Self.reaction(#"{"version":1,"emoji":"👍"}"#, disposition: "attachment; filename=r.json")) == nil)
    }
}
