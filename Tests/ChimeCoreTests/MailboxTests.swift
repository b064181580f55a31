import ChimeCore
import Testing

@Suite("Mailboxes: the address alone, for an envelope and for comparing")
struct MailboxTests {
    @Test("an envelope's address: the name dropped, an internationalized domain in its ASCII form (IDNA maps case and width), a local part and an ASCII address as they are")
    func envelopeAddress() {
        #expect(Mailbox.envelopeAddress(of: "Ann Example <Ann.Example+tag@Example.ORG>") == "Ann.Example+tag@Example.ORG")
        #expect(Mailbox.envelopeAddress(of: "info@BÜCHER.example") == "info@xn--bcher-kva.example")
        #expect(Mailbox.envelopeAddress(of: "Jörg <jörg@bücher.example>") == "jörg@xn--bcher-kva.example")
        #expect(Mailbox.envelopeAddress(of: "a@例え.テスト") == "a@xn--r8jz45g.xn--zckzah")
        #expect(Mailbox.envelopeAddress(of: "a@ｅｘａｍｐｌｅ.ｏｒｇ") == "a@example.org")
        #expect(Mailbox.envelopeAddress(of: "jörg@example.org") == "jörg@example.org")
    }

    @Test("the same person however their address is written: case, name, a domain in Unicode or in ASCII")
    func key() {
        let forms = ["Ida <Ida@Bücher.example>", "ida@xn--bcher-kva.example", "IDA@XN--BCHER-KVA.EXAMPLE", "ida@bücher.example"]
        #expect(Set(forms.map(Mailbox.key(of:))) == ["ida@xn--bcher-kva.example"])
        #expect(Mailbox.key(of: "ida@bucher.example") != Mailbox.key(of: "ida@bücher.example"))
        #expect(Mailbox.domainKey("Bücher.Example") == "xn--bcher-kva.example")
        #expect(Mailbox.domainKey("XN--BCHER-KVA.example") == "xn--bcher-kva.example")
    }

    @Test("a domain beyond ASCII that is no internationalized domain name is not an address")
    func invalidIDN() {
        #expect(Mailbox.isValid("a@bücher.example"))
        #expect(Mailbox.isValid("Jörg <jörg@例え.テスト>"))
        #expect(!Mailbox.isValid("a@-ü.example"))
        #expect(!Mailbox.isValid("a@ü-.example"))
    }

    /// Mailboxes `chime check` takes: names as words, quoted strings and comments; local
    /// parts quoted; address literals.
    static let valid = [
        "bot@example.org", "Reminders <bot@example.org>", #""Reminders [bot]" <bot@example.org>"#, "Ann (work) <a@example.org>",
        "John Q. Public <j@example.org>", #""Doe, John" <j@example.org>"#, #""Al \"The Boss\" Ice" <a@example.org>"#,
        #""a" "b" <a@example.org>"#, #""john doe"@example.org"#, #""a@b"@example.org"#, "a@[127.0.0.1]", "a@[IPv6:::1]",
        "Zoë <zoë@bücher.example>", "<bot@example.org>",
    ]

    /// And those it refuses: each would have written a header of its own (a control
    /// character), or made GMime write the header empty (a name it cannot read back).
    static let invalid = [
        "\"a\r\nBcc: evil@evil.example\r\nx\"@example.org", "\"a\tb\"@example.org", "alice@[1.2.3.4\r\nX-Evil: yes]", "a@[1.2 3.4]",
        #""a\"@example.org"#, #""a"b"@example.org"#, "Reminders [bot] <bot@example.org>", #"Alice\ Smith <a@example.org>"#,
        "Alice] <a@example.org>", "Alice (work <a@example.org>", "Alice) <a@example.org>", #""a\" <a@example.org>"#,
        "Al\u{0}ice <a@example.org>", "Alice: <a@example.org>",
    ]

    @Test("mailboxes by RFC 5322 and 5321: quoted strings and comments closed, no special outside them, no control character in an address", arguments: valid + invalid)
    func validity(_ mailbox: String) {
        #expect(Mailbox.isValid(mailbox) == Self.valid.contains(mailbox), "\(mailbox.debugDescription)")
    }
}
