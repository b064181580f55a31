import ChimeCurl
import ChimeTestSupport
import Foundation
import Testing

/// Against a real SMTP server (aiosmtpd) started by each test on 127.0.0.1.
@Suite("SMTP through libcurl")
struct SMTPClientTests {
    private let message = "From: bot@example.org\nTo: a@example.org\nSubject: Tea\n\nThe tea is ready.\n.\nA line with a dot alone above.\n"

    @Test("LF line ends become CRLF and CRLF stays, for texts of every mix of CR, LF and other bytes: the same as a byte-by-byte rewrite")
    func crlf() {
        func byteByByte(_ text: [UInt8]) -> [UInt8] {
            var out: [UInt8] = [], previous: UInt8 = 0
            for byte in text {
                if byte == 0x0A && previous != 0x0D { out.append(0x0D) }
                out.append(byte)
                previous = byte
            }
            return out
        }
        #expect(SMTPClient.crlf([]) == [])
        #expect(SMTPClient.crlf(Array("a\nb\r\nc\n".utf8)) == Array("a\r\nb\r\nc\r\n".utf8))
        #expect(SMTPClient.crlf(Array("\n\n\r\r\n".utf8)) == Array("\r\n\r\n\r\r\n".utf8))
        var generator = SystemRandomNumberGenerator()
        for length in 0..<300 {
            let text = (0..<length).map { _ in [UInt8(0x0A), 0x0D, 0x61, 0x2E][Int.random(in: 0..<4, using: &generator)] }
            #expect(SMTPClient.crlf(text) == byteByByte(text), "\(text)")
        }
    }

    @Test("two messages over one connection, each as written (dot-stuffing undone by the server)")
    func reuse() throws {
        let server = try SMTPServer()
        let client = try SMTPClient(.init(url: "smtp://127.0.0.1:\(server.port)"))
        let first = try client.send(from: "bot@example.org", to: ["a@example.org"], message: message)
        _ = try client.send(from: "bot@example.org", to: ["b@example.org"], message: message)
        #expect(first.accepted == ["a@example.org"])
        #expect(first.reply.hasPrefix("250"))
        let received = try server.messages()
        #expect(received.count == 2)
        #expect(received.map { $0["to"] as? [String] } == [["a@example.org"], ["b@example.org"]])
        #expect((received[0]["data"] as? String)?.replacingOccurrences(of: "\r\n", with: "\n") == message)
        // The same client port: libcurl kept the connection open.
        #expect(received[0]["peer"] as? Int == received[1]["peer"] as? Int)
    }

    @Test("STARTTLS required, verified against the test's own CA, with AUTH")
    func startTLSAndAuth() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("chime-smtp-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let certificate = try SMTPServer.certificate(in: folder)
        let server = try SMTPServer(["--cert", certificate.cert, "--key", certificate.key, "--user", "bot", "--password", "s3cret-pw"], folder: folder)
        let url = "smtp://127.0.0.1:\(server.port)"
        let client = try SMTPClient(.init(url: url, username: "bot", password: "s3cret-pw", startTLS: .required, caFile: certificate.cert))
        #expect(try client.send(from: "bot@example.org", to: ["a@example.org"], message: message).accepted == ["a@example.org"])
        #expect(try server.messages().first?["tls"] as? Bool == true)

        // A wrong password is refused for good, and never shows in the error.
        let wrong = try SMTPClient(.init(url: url, username: "bot", password: "wrong-pw-123", startTLS: .required, caFile: certificate.cert))
        let refused = #expect(throws: SMTPClient.Failure.self) { try wrong.send(from: "bot@example.org", to: ["a@example.org"], message: message) }
        #expect(refused?.temporary == false)
        #expect(refused?.code == 535)
        #expect(refused?.message.contains("wrong-pw-123") == false)

        // The system's CAs do not know the test's certificate: refused, not retried.
        let unverified = try SMTPClient(.init(url: url, username: "bot", password: "s3cret-pw", startTLS: .required))
        let failure = #expect(throws: SMTPClient.Failure.self) { try unverified.send(from: "bot@example.org", to: ["a@example.org"], message: message) }
        #expect(failure?.temporary == false)
        #expect(try server.messages().count == 1)
    }

    @Test("one refused recipient: the others get the message, the refusal is known")
    func refusedRecipient() throws {
        let server = try SMTPServer(["--refuse", "gone@example.org"])
        let client = try SMTPClient(.init(url: "smtp://127.0.0.1:\(server.port)"))
        let sent = try client.send(from: "bot@example.org", to: ["a@example.org", "gone@example.org", "b@example.org"], message: message)
        #expect(sent.accepted == ["a@example.org", "b@example.org"])
        #expect(sent.refused.map(\.recipient) == ["gone@example.org"])
        #expect(sent.refused.first?.code == 550)
        #expect(try server.messages().first?["to"] as? [String] == ["a@example.org", "b@example.org"])
    }

    @Test("4xx, a dropped connection and nobody listening are temporary; the next try goes through")
    func temporary() throws {
        let server = try SMTPServer(["--tempfail", "1", "--drop-data", "1"])
        let client = try SMTPClient(.init(url: "smtp://127.0.0.1:\(server.port)", timeouts: .init(connect: 2_000, total: 10_000)))
        let dropped = #expect(throws: SMTPClient.Failure.self) { try client.send(from: "bot@example.org", to: ["a@example.org"], message: message) }
        #expect(dropped?.temporary == true)
        let tempfailed = #expect(throws: SMTPClient.Failure.self) { try client.send(from: "bot@example.org", to: ["a@example.org"], message: message) }
        #expect(tempfailed?.temporary == true)
        #expect(tempfailed?.code == 451)
        #expect(try client.send(from: "bot@example.org", to: ["a@example.org"], message: message).accepted == ["a@example.org"])
        #expect(try server.messages().count == 1)

        let port = server.port
        _ = consume server
        let nobody = try SMTPClient(.init(url: "smtp://127.0.0.1:\(port)", timeouts: .init(connect: 2_000, total: 5_000)))
        let unreachable = #expect(throws: SMTPClient.Failure.self) { try nobody.send(from: "bot@example.org", to: ["a@example.org"], message: message) }
        #expect(unreachable?.temporary == true)
        #expect(unreachable?.code == 0)
    }
}
