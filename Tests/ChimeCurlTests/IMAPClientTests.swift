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
        #expect(size == (try client.fetch(uid: first)).count)
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
