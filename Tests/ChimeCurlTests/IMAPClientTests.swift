@testable import ChimeCurl
import ChimeTestSupport
import Foundation
import Testing

/// IMAPClient against a real Dovecot on 127.0.0.1.
@Suite("IMAP client", .serialized)
struct IMAPClientTests {
    @Test("UID SEARCH with 3,000 unseen messages gives every UID (libcurl kept 40 bytes of a line past 8 KB); RFC822.SIZE is each message's size")
    func longSearch() throws {
        let (certificate, certificates) = try ScriptServer.temporaryCertificate("imap")
        defer { try? FileManager.default.removeItem(at: certificates) }
        let server = try DovecotServer(certificate: certificate)
        let count = 3_000
        for n in 0..<count {
            try server.deliver("From: a@example.org\r\nSubject: \(n)\r\nMessage-ID: <\(n)@example.org>\r\n\r\nmessage \(n)\r\n", named: String(format: "%05d.test", n))
        }
        let client = try IMAPClient(MailServer(url: "imap://127.0.0.1:\(server.imapPort)", username: server.user, password: server.password,
                                               caFile: certificate.cert), mailbox: "INBOX")
        let uids = try client.search("UNSEEN")
        #expect(uids.count == count)
        #expect(Set(uids) == Set((1...UInt64(count)).map { $0 }))
        let first = try #require(uids.first)
        let size = try #require(try client.size(uid: first))
        #expect(size == (try client.fetch(uid: first))?.count)
    }

    @Test("a message longer than the limit the fetch is given is cut off there (nil), whatever size the server said; the next command reconnects")
    func fetchLimit() throws {
        let (certificate, certificates) = try ScriptServer.temporaryCertificate("imap-limit")
        defer { try? FileManager.default.removeItem(at: certificates) }
        let server = try DovecotServer(certificate: certificate)
        try server.deliver("From: a@example.org\r\nSubject: big\r\n\r\n" + String(repeating: "0123456789abcdef\r\n", count: 4_000), named: "1.big")
        try server.deliver("From: a@example.org\r\nSubject: small\r\n\r\nsmall\r\n", named: "2.small")
        let client = try IMAPClient(MailServer(url: "imap://127.0.0.1:\(server.imapPort)", username: server.user, password: server.password,
                                               caFile: certificate.cert), mailbox: "INBOX")
        let uids = try client.search("ALL")
        #expect(uids.count == 2)
        #expect(try client.fetch(uid: uids[0], limit: 10_000) == nil)
        let small = try #require(try client.fetch(uid: uids[1], limit: 10_000))
        #expect(String(decoding: small, as: UTF8.self).contains("small"))
    }

    @Test("mailbox names go in IMAP's modified UTF-7 (RFC 3501, 5.1.3): printable ASCII as it is, & as &-, the rest as UTF-16 in base64 with , for /")
    func modifiedUTF7() {
        #expect(IMAPClient.modifiedUTF7("INBOX") == "INBOX")
        #expect(IMAPClient.modifiedUTF7("Antwörten") == "Antw&APY-rten")
        #expect(IMAPClient.modifiedUTF7("R&D") == "R&-D")
        #expect(IMAPClient.modifiedUTF7("~peter/mail/台北/日本語") == "~peter/mail/&U,BTFw-/&ZeVnLIqe-")
        #expect(IMAPClient.modifiedUTF7("Réponses traitées") == "R&AOk-ponses trait&AOk-es")
        #expect(IMAPClient.modifiedUTF7("😀") == "&2D3eAA-")
    }

    @Test("a mailbox that does not exist: the error quotes the server's refusal of SELECT, not its goodbye")
    func missingMailbox() throws {
        let (certificate, certificates) = try ScriptServer.temporaryCertificate("imap-missing")
        defer { try? FileManager.default.removeItem(at: certificates) }
        let server = try DovecotServer(certificate: certificate)
        let client = try IMAPClient(MailServer(url: "imap://127.0.0.1:\(server.imapPort)", username: server.user, password: server.password,
                                               caFile: certificate.cert), mailbox: "Replies")
        let error = try #require(throws: CurlError.self) { try client.probe() }
        #expect(error.message.contains("NO") && error.message.lowercased().contains("mailbox"), "\(error.message)")
        #expect(!error.message.lowercased().contains("logout"), "\(error.message)")
    }
}
