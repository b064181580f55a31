import ChimeCore
@testable import ChimeMIME
import Testing

/// The address headers Chime writes without GMime are byte for byte what GMime writes,
/// and everything else still goes through GMime.
@Suite("address headers written directly")
struct AddressHeaderTests {
    /// Shapes a channel's `from`, a recipient's address and a `replyTo` with its token take.
    static let plain = [
        "bot@example.org", "Reminders <bot@example.org>", "Chime <chime+ABCDEFGH234567@localhost>",
        "chime+MFRGGZDFMZTWQ2LKNNWG23TPOBYXE43UOV3HO6DZPI@reply.example.org", "O'Brien <o.brien@Example.ORG>",
        "Team-Bot_2 <team.bot-2@mail.example.co.uk>", "a!#$%&'*+-/?=^_`{|}~z <x!#$%&'*+-/?=^_`{|}~y@b-c.d>",
    ]

    @Test("the usual shapes are written directly, as GMime writes them", arguments: plain)
    func usualShapes(_ mailbox: String) throws {
        let line = try #require(MIMEComposer.plainAddressHeader("Reply-To", mailbox))
        #expect(line == MIMEComposer.encodedAddressHeader("Reply-To", mailbox))
        #expect(line == "Reply-To: \(mailbox)\n")
    }

    @Test("a channel's replyTo with a token's 52 characters is folded after the colon, as GMime folds it")
    func tokenPlusAddress() throws {
        for domain in ["localhost", "reply.example.org"] {
            let mailbox = "chime+aaytelbyzczurynt5rijsgkviv4aa2yjzhmfcttk5sim6aevkoyf4tq@" + domain
            let line = try #require(MIMEComposer.plainAddressHeader("Reply-To", mailbox))
            #expect(line == MIMEComposer.encodedAddressHeader("Reply-To", mailbox))
            #expect(line == "Reply-To:\n\t\(mailbox)\n")
        }
    }

    @Test("every mailbox chime check takes, GMime writes with its address; every name it refuses, GMime could not read (the header came out empty)")
    func checkAgreesWithGMime() {
        let valid = [
            "Reminders <bot@example.org>", #""Reminders [bot]" <bot@example.org>"#, "Ann (work) <a@example.org>", "John Q. Public <j@example.org>",
            #""Doe, John" <j@example.org>"#, #""Al \"The Boss\" Ice" <a@example.org>"#, #""a" "b" <a@example.org>"#, "O'Brien & Co <o@example.org>",
            #""john doe"@example.org"#, "a@[127.0.0.1]",
        ]
        let unreadable = ["Reminders [bot] <bot@example.org>", #"Alice\ Smith <a@example.org>"#, "Alice] <a@example.org>",
                          "Alice (work <a@example.org>", "Alice) <a@example.org>", #""a\" <a@example.org>"#]
        for mailbox in valid {
            #expect(Mailbox.isValid(mailbox), "\(mailbox)")
            let header = MIMEComposer.encodedAddressHeader("To", mailbox)
            #expect(header.contains(Mailbox.address(of: mailbox).replacingOccurrences(of: #"\""#, with: "\"")) || header.contains("@"), "\(mailbox): \(header)")
            #expect(header != "To: \n", "\(mailbox)")
        }
        for mailbox in unreadable {
            #expect(!Mailbox.isValid(mailbox), "\(mailbox)")
            #expect(MIMEComposer.encodedAddressHeader("To", mailbox) == "To: \n", "GMime reads \(mailbox) now: chime check may take it")
        }
    }

    /// Shapes GMime changes (quotes, encodes, folds, converts) or reads otherwise.
    static let encoded = [
        "J. Doe <j@example.org>", "\"Ann\" <a@example.org>", "Zoë <zoe@example.org>", "zoe@bücher.de", "a@xn--bcher-kva.de",
        "Ann  Lee <a@example.org>", " bot@example.org", "<bot@example.org>", "a@example.org, b@example.org",
        "=?utf-8?q?Zo=C3=AB?= <zoe@example.org>", "a.@example.org", "a..b@example.org", "a@b..c", "a@[127.0.0.1]",
        "Ann (work) <a@example.org>", "Ann <a@example.org> ", "Ann<a@example.org>",
        "Reminders Team Of Example Corporation International <reminders-bot@example.org>", "",
    ]

    @Test("anything GMime would change goes through GMime", arguments: encoded)
    func encodedShapes(_ mailbox: String) {
        #expect(MIMEComposer.plainAddressHeader("Reply-To", mailbox) == nil)
        #expect(MIMEComposer.addressHeader("Reply-To", mailbox, remembered: false) == MIMEComposer.encodedAddressHeader("Reply-To", mailbox))
    }

    /// Random mailboxes from pieces near the shape's edges: every one written directly is
    /// what GMime writes, and enough of them are for that to say something.
    @Test("random mailboxes near the edges: whatever is written directly is what GMime writes")
    func randomMailboxes() {
        var seed: UInt64 = 21
        func next(_ bound: Int) -> Int {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return Int(seed >> 33) % bound
        }
        let letters = Array("abcXYZ09!#$%&'*+-/=?^_`{|}~.\"(),:;<>@[]\\ é")
        func run(_ alphabet: [Character], _ length: Int) -> String { String((0..<length).map { _ in alphabet[next(alphabet.count)] }) }
        let labels = ["example", "EXAMPLE", "xn--bcher-kva", "XN--abc", "a-b", "-a", "a_b", "localhost", "b\u{FC}cher", "co", ""]
        var direct = 0
        for index in 0..<3_000 {
            let local = (0..<(1 + next(3))).map { _ in run(next(4) == 0 ? letters : Array("abcXYZ09+-_=?'"), next(next(8) == 0 ? 70 : 12)) }.joined(separator: ".")
            let domain = (0..<(1 + next(3))).map { _ in labels[next(labels.count)] }.joined(separator: ".")
            let address = local + "@" + domain
            let phrase = (0..<next(4)).map { _ in run(next(3) == 0 ? letters : Array("abcXYZ09'-"), 1 + next(14)) }
                .joined(separator: next(6) == 0 ? "  " : " ")
            let mailbox = phrase.isEmpty ? address : phrase + " <" + address + ">"
            let name = ["To", "Reply-To", "X-Long-Header-Name-For-Folding"][index % 3]
            guard let line = MIMEComposer.plainAddressHeader(name, mailbox) else { continue }
            direct += 1
            #expect(line == MIMEComposer.encodedAddressHeader(name, mailbox), "\(mailbox)")
        }
        #expect(direct > 200)
    }

    @Test("a name and address too long for one line are left to GMime, the line before it written directly")
    func foldingEdge() {
        for length in 60...90 {
            let mailbox = "Reminders <" + String(repeating: "r", count: length - 24) + "@example.org>"
            let line = MIMEComposer.addressHeader("Reply-To", mailbox, remembered: false)
            #expect(line == MIMEComposer.encodedAddressHeader("Reply-To", mailbox), "\(length)")
            #expect((MIMEComposer.plainAddressHeader("Reply-To", mailbox) != nil) == (line.utf8.count - 1 < MIMEComposer.plainLineLimit))
        }
    }

    @Test("a lone address of any length is written directly, on the header's line or folded, as GMime writes it")
    func loneAddressLengths() throws {
        for name in ["To", "Reply-To", "X-Long-Header-Name-For-Folding"] {
            for length in 30...300 {
                let mailbox = "a.b+" + String(repeating: "x", count: length - 16) + "@example.org"
                let line = try #require(MIMEComposer.plainAddressHeader(name, mailbox))
                #expect(line == MIMEComposer.encodedAddressHeader(name, mailbox), "\(name) \(length)")
            }
        }
    }
}
