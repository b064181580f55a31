@testable import ChimeCurl
import ChimeTestSupport
import Foundation
import Testing

/// Against a real SMTP server (aiosmtpd, or Postfix's smtp-sink) started by each test on
/// 127.0.0.1; aiosmtpd offering PIPELINING or not (`pipelining`), since the client speaks
/// to each its own way.
@Suite("SMTP through libcurl")
struct SMTPClientTests {
    private let message = "From: bot@example.org\nTo: a@example.org\nSubject: Tea\n\nThe tea is ready.\n.\nA line with a dot alone above.\n..and one with two.\n"

    private func server(_ arguments: [String] = [], pipelining: Bool, folder: URL? = nil) throws -> SMTPServer {
        try SMTPServer(arguments + (pipelining ? ["--pipelining"] : []), folder: folder)
    }

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

    @Test("two messages over one connection, each as written (dot-stuffing undone by the server); MAIL, RCPT and DATA sent together when the server offers PIPELINING", arguments: [false, true])
    func reuse(pipelining: Bool) throws {
        let server = try server(pipelining: pipelining)
        let client = try SMTPClient(.init(url: "smtp://127.0.0.1:\(server.port)"))
        let first = try client.send(from: "bot@example.org", to: ["a@example.org"], message: message)
        _ = try client.send(from: "bot@example.org", to: ["b@example.org"], message: message)
        #expect(first.accepted == ["a@example.org"])
        #expect(first.reply.hasPrefix("250"))
        let received = try server.messages()
        #expect(received.count == 2)
        #expect(received.map { $0["to"] as? [String] } == [["a@example.org"], ["b@example.org"]])
        #expect((received[0]["data"] as? String)?.replacingOccurrences(of: "\r\n", with: "\n") == message)
        // The same client port: the connection was kept open.
        #expect(received[0]["peer"] as? Int == received[1]["peer"] as? Int)
        // Each RCPT came with its MAIL, not after MAIL's reply, only when offered.
        #expect(received.map { $0["pipelined"] as? Bool } == [pipelining, pipelining])
    }

    @Test("STARTTLS required, verified against the test's own CA, with AUTH", arguments: [false, true])
    func startTLSAndAuth(pipelining: Bool) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("chime-smtp-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let certificate = try SMTPServer.certificate(in: folder)
        let server = try server(["--cert", certificate.cert, "--key", certificate.key, "--user", "bot", "--password", "s3cret-pw"],
                                pipelining: pipelining, folder: folder)
        let url = "smtp://127.0.0.1:\(server.port)"
        let client = try SMTPClient(.init(url: url, username: "bot", password: "s3cret-pw", startTLS: .required, caFile: certificate.cert))
        #expect(try client.send(from: "bot@example.org", to: ["a@example.org"], message: message).accepted == ["a@example.org"])
        #expect(try server.messages().first?["tls"] as? Bool == true)
        #expect(try server.messages().first?["pipelined"] as? Bool == pipelining)

        // A wrong password is refused for good, and never shows in the error.
        let wrong = try SMTPClient(.init(url: url, username: "bot", password: "wrong-pw-123", startTLS: .required, caFile: certificate.cert))
        let refused = #expect(throws: SMTPClient.Failure.self) { try wrong.send(from: "bot@example.org", to: ["a@example.org"], message: message) }
        #expect(refused?.temporary == false)
        #expect(refused?.code == 535)
        #expect(refused?.message.contains("wrong-pw-123") == false)
        // The server's words end the message, without their line end.
        #expect(refused?.message.hasSuffix("(server: 535 5.7.8 Authentication credentials invalid)") == true, "\(refused?.message ?? "")")

        // The system's CAs do not know the test's certificate: refused, not retried.
        let unverified = try SMTPClient(.init(url: url, username: "bot", password: "s3cret-pw", startTLS: .required))
        let failure = #expect(throws: SMTPClient.Failure.self) { try unverified.send(from: "bot@example.org", to: ["a@example.org"], message: message) }
        #expect(failure?.temporary == false)
        #expect(try server.messages().count == 1)
    }

    @Test("one refused recipient: the others get the message, the refusal is known", arguments: [false, true])
    func refusedRecipient(pipelining: Bool) throws {
        let server = try server(["--refuse", "gone@example.org"], pipelining: pipelining)
        let client = try SMTPClient(.init(url: "smtp://127.0.0.1:\(server.port)"))
        let sent = try client.send(from: "bot@example.org", to: ["a@example.org", "gone@example.org", "b@example.org"], message: message)
        #expect(sent.accepted == ["a@example.org", "b@example.org"])
        #expect(sent.refused.map(\.recipient) == ["gone@example.org"])
        #expect(sent.refused.first?.code == 550)
        #expect(try server.messages().first?["to"] as? [String] == ["a@example.org", "b@example.org"])
    }

    @Test("4xx, a dropped connection and nobody listening are temporary; the next try goes through", arguments: [false, true])
    func temporary(pipelining: Bool) throws {
        let server = try server(["--tempfail", "1", "--drop-data", "1"], pipelining: pipelining)
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

    @Test("every recipient refused: permanent, nothing sent, and the next message goes through on the same connection", arguments: [false, true])
    func everyRecipientRefused(pipelining: Bool) throws {
        let server = try server(["--refuse", "gone@example.org", "--refuse", "left@example.org"], pipelining: pipelining)
        let client = try SMTPClient(.init(url: "smtp://127.0.0.1:\(server.port)"))
        let failure = #expect(throws: SMTPClient.Failure.self) {
            try client.send(from: "bot@example.org", to: ["gone@example.org", "left@example.org"], message: message)
        }
        #expect(failure?.temporary == false)
        #expect(failure?.code == 550)
        #expect(failure?.refused.map(\.recipient) == ["gone@example.org", "left@example.org"])
        #expect(try client.send(from: "bot@example.org", to: ["a@example.org"], message: message).accepted == ["a@example.org"])
        let received = try server.messages()
        #expect(received.map { $0["to"] as? [String] } == [["a@example.org"]])
    }

    @Test("a kept connection the server closed while idle is replaced once, and the message goes", arguments: [false, true])
    func idleClosed(pipelining: Bool) throws {
        let server = try server(["--idle-timeout", "0.5"], pipelining: pipelining)
        let client = try SMTPClient(.init(url: "smtp://127.0.0.1:\(server.port)"))
        _ = try client.send(from: "bot@example.org", to: ["a@example.org"], message: message)
        Thread.sleep(forTimeInterval: 1.5)
        #expect(try client.send(from: "bot@example.org", to: ["b@example.org"], message: message).accepted == ["b@example.org"])
        let received = try server.messages()
        #expect(received.map { $0["to"] as? [String] } == [["a@example.org"], ["b@example.org"]])
        #expect(received[0]["peer"] as? Int != received[1]["peer"] as? Int)
    }

    @Test("an address with a line break writes no command of its own: refused for good before anything is sent")
    func addressInjection() throws {
        let server = try server(pipelining: true)
        let client = try SMTPClient(.init(url: "smtp://127.0.0.1:\(server.port)"))
        for (from, to) in [("bot@example.org", "a@example.org>\r\nRCPT TO:<evil@example.org"), ("bot@example.org>\nRSET", "a@example.org")] {
            let failure = #expect(throws: SMTPClient.Failure.self) { try client.send(from: from, to: [to], message: message) }
            #expect(failure?.temporary == false)
        }
        #expect(try client.send(from: "bot@example.org", to: ["a@example.org"], message: message).accepted == ["a@example.org"])
        #expect(try server.messages().map { $0["to"] as? [String] } == [["a@example.org"]])
    }

    @Test("the message's size goes with MAIL when the server takes SIZE (aiosmtpd offers it)")
    func size() throws {
        let server = try server(pipelining: true)
        let client = try SMTPClient(.init(url: "smtp://127.0.0.1:\(server.port)"))
        let bytes = SMTPClient.crlf(Array(message.utf8))
        _ = try client.send(from: "bot@example.org", to: ["a@example.org"], message: bytes)
        #expect(try server.messages().first?["mail_options"] as? [String] == ["SIZE=\(bytes.count)"])
    }

    @Test("addresses beyond ASCII to a server without SMTPUTF8: refused for good before anything is sent, and the others still get the message; a domain in its ASCII form goes", arguments: [false, true])
    func internationalizedWithoutSMTPUTF8(pipelining: Bool) throws {
        let server = try server(pipelining: pipelining)
        let client = try SMTPClient(.init(url: "smtp://127.0.0.1:\(server.port)"))
        let bytes = SMTPClient.crlf(Array(message.utf8))
        // The next message written ahead, when the server takes that, has one too: it goes alone.
        let ahead = SMTPClient.Envelope(from: "bot@xn--bcher-kva.example", recipients: ["jörg@example.org"], size: bytes.count)
        let sent = try client.send(from: "bot@xn--bcher-kva.example", to: ["info@xn--bcher-kva.example", "jörg@xn--bcher-kva.example"],
                                   message: bytes, then: ahead)
        #expect(sent.accepted == ["info@xn--bcher-kva.example"])
        #expect(sent.refused.map(\.recipient) == ["jörg@xn--bcher-kva.example"])
        #expect(sent.refused.first?.code == 553)
        #expect(sent.refused.first?.reply.contains("does not offer SMTPUTF8") == true, "\(sent.refused)")

        let alone = #expect(throws: SMTPClient.Failure.self) { try client.send(from: "bot@example.org", to: ["jörg@example.org"], message: bytes) }
        #expect(alone?.temporary == false)
        #expect(alone?.refused.map(\.recipient) == ["jörg@example.org"])
        let sender = #expect(throws: SMTPClient.Failure.self) { try client.send(from: "böt@example.org", to: ["a@example.org"], message: bytes) }
        #expect(sender?.temporary == false)
        #expect(sender?.message.contains("SMTPUTF8") == true)
        #expect(try client.send(from: "bot@example.org", to: ["b@example.org"], message: bytes).accepted == ["b@example.org"])

        let received = try server.messages()
        #expect(received.map { $0["to"] as? [String] } == [["info@xn--bcher-kva.example"], ["b@example.org"]])
        #expect(received.first?["from"] as? String == "bot@xn--bcher-kva.example")
        #expect(received.allSatisfy { ($0["mail_options"] as? [String])?.contains("SMTPUTF8") == false })
        // One connection throughout: nothing refused here broke it.
        #expect(Set(received.map { $0["peer"] as? Int }).count == 1)
    }

    @Test("a header beyond ASCII (a from with such a local part): refused for good by a server without SMTPUTF8, sent with SMTPUTF8 to one offering it; a body beyond ASCII asks for nothing")
    func utf8Header() throws {
        let header = SMTPClient.crlf(Array("From: B\u{F8}t <b\u{F8}t@example.org>\nTo: a@example.org\nSubject: x\n\nTea.\n".utf8))
        let body = SMTPClient.crlf(Array("From: bot@example.org\nTo: a@example.org\nSubject: x\n\nT\u{E9}.\n".utf8))
        let plain = try server(pipelining: true), offering = try server(["--smtputf8"], pipelining: true)
        let refusing = try SMTPClient(.init(url: "smtp://127.0.0.1:\(plain.port)"))
        let failure = #expect(throws: SMTPClient.Failure.self) { try refusing.send(from: "bounce@example.org", to: ["a@example.org"], message: header) }
        #expect(failure?.temporary == false)
        #expect(failure?.refused.first?.code == 553)
        #expect(failure?.refused.first?.reply.contains("which the message's header needs") == true, "\(failure?.refused ?? [])")
        #expect(try refusing.send(from: "bounce@example.org", to: ["a@example.org"], message: body).accepted == ["a@example.org"])
        let taking = try SMTPClient(.init(url: "smtp://127.0.0.1:\(offering.port)"))
        for message in [header, body] { _ = try taking.send(from: "bounce@example.org", to: ["a@example.org"], message: message) }
        #expect(try plain.messages().map { ($0["mail_options"] as? [String])?.contains("SMTPUTF8") } == [false])
        #expect(try offering.messages().map { ($0["mail_options"] as? [String])?.contains("SMTPUTF8") } == [true, false])
    }

    @Test("a header beyond ASCII is found wherever it is before the first empty line, and nowhere after: the same as a byte-by-byte look")
    func utf8HeaderScan() {
        func byteByByte(_ message: [UInt8]) -> Bool {
            var previous: [UInt8] = []
            for byte in message {
                if previous.suffix(3) == [0x0D, 0x0A, 0x0D] && byte == 0x0A { return false }
                if byte >= 0x80 { return true }
                previous.append(byte)
            }
            return false
        }
        var generator = SystemRandomNumberGenerator()
        for length in 0..<200 {
            let message = (0..<length).map { _ in [UInt8(0x0D), 0x0A, 0x61, 0xC3, 0x61, 0x61][Int.random(in: 0..<6, using: &generator)] }
            #expect(SMTPClient.hasUTF8Header(message) == byteByByte(message), "\(message)")
        }
    }

    @Test("addresses beyond ASCII to a server offering SMTPUTF8: they go as UTF-8, with SMTPUTF8 on MAIL; an envelope all ASCII asks for nothing")
    func internationalizedWithSMTPUTF8() throws {
        let server = try server(["--smtputf8"], pipelining: true)
        let client = try SMTPClient(.init(url: "smtp://127.0.0.1:\(server.port)"))
        let bytes = SMTPClient.crlf(Array(message.utf8))
        #expect(try client.send(from: "bot@example.org", to: ["jörg@xn--bcher-kva.example", "info@example.org"], message: bytes).accepted
            == ["jörg@xn--bcher-kva.example", "info@example.org"])
        _ = try client.send(from: "bot@example.org", to: ["info@example.org"], message: bytes)
        let received = try server.messages()
        #expect(received.map { $0["to"] as? [String] } == [["jörg@xn--bcher-kva.example", "info@example.org"], ["info@example.org"]])
        #expect(received.map { ($0["mail_options"] as? [String])?.contains("SMTPUTF8") } == [true, false])
    }

    @Test("Postfix's smtp-sink, which offers PIPELINING: messages with dot lines arrive whole, over one connection")
    func postfixSink() throws {
        let sink = try SMTPSink()
        let client = try SMTPClient(.init(url: "smtp://127.0.0.1:\(sink.port)"))
        for recipient in ["a@example.org", "b@example.org", "c@example.org"] {
            #expect(try client.send(from: "bot@example.org", to: [recipient, "d@example.org"], message: message).accepted == [recipient, "d@example.org"])
        }
        let received = try sink.messages()
        #expect(received.count == 3)
        for dump in received {
            // smtp-sink ends its dump with a line of its own.
            #expect(dump.replacingOccurrences(of: "\r\n", with: "\n").hasSuffix(message + "\n"), "\(dump)")
        }
    }

    @Test("DATA's bytes: a line starting with a dot gets one more, and the data ends CRLF . CRLF; the same as a line-by-line rewrite")
    func dotStuffing() {
        func lineByLine(_ text: [UInt8]) -> [UInt8] {
            var out: [UInt8] = [], atLineStart = true
            for byte in text {
                if atLineStart && byte == 0x2E { out.append(0x2E) }
                out.append(byte)
                atLineStart = byte == 0x0A
            }
            if !out.isEmpty && !(out.count >= 2 && out.suffix(2) == [0x0D, 0x0A]) { out += [0x0D, 0x0A] }
            return out + [0x2E, 0x0D, 0x0A]
        }
        #expect(SMTPTransaction.dataBlock(Array("a\r\n.\r\n..b\r\n".utf8)) == Array("a\r\n..\r\n...b\r\n.\r\n".utf8))
        #expect(SMTPTransaction.dataBlock(Array(".".utf8)) == Array("..\r\n.\r\n".utf8))
        var generator = SystemRandomNumberGenerator()
        for length in 0..<300 {
            let text = SMTPClient.crlf((0..<length).map { _ in [UInt8(0x0A), 0x2E, 0x61, 0x0D][Int.random(in: 0..<4, using: &generator)] })
            #expect(SMTPTransaction.dataBlock(text) == lineByLine(text), "\(text)")
        }
    }

    @Test("the next message's envelope written with the data: each arrives whole, once, over one connection; a 451 for one leaves the next one's envelope good")
    func envelopeAhead() throws {
        let server = try server(["--tempfail", "1"], pipelining: true)
        let client = try SMTPClient(.init(url: "smtp://127.0.0.1:\(server.port)"))
        let bytes = SMTPClient.crlf(Array(message.utf8))
        func envelope(_ to: String) -> SMTPClient.Envelope { .init(from: "bot@example.org", recipients: [to], size: bytes.count) }
        let deferred = #expect(throws: SMTPClient.Failure.self) {
            try client.send(from: "bot@example.org", to: ["a@example.org"], message: bytes, then: envelope("b@example.org"))
        }
        #expect(deferred?.code == 451)
        #expect(try client.send(from: "bot@example.org", to: ["b@example.org"], message: bytes, then: envelope("c@example.org")).accepted == ["b@example.org"])
        #expect(try client.send(from: "bot@example.org", to: ["c@example.org"], message: bytes).accepted == ["c@example.org"])
        let received = try server.messages()
        #expect(received.map { $0["to"] as? [String] } == [["b@example.org"], ["c@example.org"]])
        #expect(Set(received.map { $0["peer"] as? Int }).count == 1)
        #expect(received.allSatisfy { ($0["data"] as? String)?.replacingOccurrences(of: "\r\n", with: "\n") == message })
    }

    @Test("an envelope written ahead and then not used (another message came, or the client went): the server gets no message for it, empty or otherwise")
    func envelopeAheadUnused() throws {
        let server = try server(pipelining: true)
        let bytes = SMTPClient.crlf(Array(message.utf8))
        let ahead = SMTPClient.Envelope(from: "bot@example.org", recipients: ["b@example.org"], size: bytes.count)
        do {
            let client = try SMTPClient(.init(url: "smtp://127.0.0.1:\(server.port)"))
            _ = try client.send(from: "bot@example.org", to: ["a@example.org"], message: bytes, then: ahead)
            // Not b: the connection that waits for b's data is dropped, c goes on a new one.
            #expect(try client.send(from: "bot@example.org", to: ["c@example.org"], message: bytes, then: ahead).accepted == ["c@example.org"])
        }
        Thread.sleep(forTimeInterval: 0.3)
        let received = try server.messages()
        #expect(received.map { $0["to"] as? [String] } == [["a@example.org"], ["c@example.org"]])
        #expect(received.allSatisfy { ($0["data"] as? String)?.replacingOccurrences(of: "\r\n", with: "\n") == message })
    }

    @Test("a relay's reply too long or of too many lines is refused as soon as it is, not read whole", arguments: ["long", "lines"])
    func hostileReply(shape: String) throws {
        let server = try server(["--hostile-mail", shape], pipelining: true)
        let client = try SMTPClient(.init(url: "smtp://127.0.0.1:\(server.port)", timeouts: .init(connect: 2_000, total: 10_000)))
        let failure = #expect(throws: SMTPClient.Failure.self) { try client.send(from: "bot@example.org", to: ["a@example.org"], message: message) }
        #expect(failure?.temporary == true)
        #expect(failure?.message == (shape == "long" ? "the server sent a line longer than 4096 bytes" : "the server's reply ran past 128 lines"))
        #expect(try server.messages().isEmpty)
    }

    @Test("pipelining turned off (?pipelining=false): one command at a time though the server offers it")
    func pipeliningOff() throws {
        let server = try server(pipelining: true)
        let client = try SMTPClient(.init(url: "smtp://127.0.0.1:\(server.port)", pipelining: false))
        let bytes = SMTPClient.crlf(Array(message.utf8))
        for to in ["a@example.org", "b@example.org"] {
            let next = SMTPClient.Envelope(from: "bot@example.org", recipients: ["b@example.org"], size: bytes.count)
            #expect(try client.send(from: "bot@example.org", to: [to], message: bytes, then: to == "a@example.org" ? next : nil).accepted == [to])
        }
        #expect(try server.messages().map { $0["pipelined"] as? Bool } == [false, false])
    }
}
