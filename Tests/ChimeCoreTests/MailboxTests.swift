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
}
