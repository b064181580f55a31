import ChimeCore
import ChimeMIME
import ChimeTestSupport
import Foundation
import Testing

@Suite("MIME messages through GMime")
struct MIMEComposerTests {
    private func message(html: String? = "<p>Milk &amp; eggs</p>", attachments: [MailMessage.Attachment] = []) -> MailMessage {
        MailMessage(
            from: "Rappels Chime <bot@example.org>", to: ["Zoë <zoe@example.org>"], replyTo: "bot+token@reply.example.org",
            subject: "Courses à faire — n’oublie pas le café ☕ " + String(repeating: "très long sujet ", count: 8),
            messageID: "d1.1795251600@example.org", date: "Tue, 24 Nov 2026 09:00:00 +0100",
            inReplyTo: "thread-shopping@example.org", references: ["thread-shopping@example.org"],
            headers: [("Auto-Submitted", "auto-generated"), ("X-Auto-Response-Suppress", "All"),
                      ("List-Id", "Chime reminders <reminders.example.org>")],
            text: "Lait & œufs\n" + String(repeating: "une ligne bien trop longue pour tenir ", count: 10) + "\n",
            html: html, attachments: attachments)
    }

    @Test("text and HTML as multipart/alternative, parsed strictly without a defect")
    func alternative() throws {
        let composed = MIMEComposer.compose(message())
        let parsed = try strictlyParsed(composed)
        #expect(parsed["error"] == nil, "\(parsed["error"] ?? "")")
        #expect(parsed["type"] == "multipart/alternative")
        #expect(parsed["subject"]?.hasPrefix("Courses à faire — n’oublie pas le café ☕") == true)
        #expect(parsed["text/plain"]?.hasPrefix("Lait & œufs\n") == true)
        #expect(parsed["text/html"] == "<p>Milk &amp; eggs</p>\n")
        #expect(Int(parsed["longest"] ?? "999") ?? 999 <= 78)
        #expect(composed.contains("\nMessage-Id: <d1.1795251600@example.org>\n") || composed.contains("\nMessage-ID: <d1.1795251600@example.org>\n"))
        #expect(composed.contains("\nIn-Reply-To: <thread-shopping@example.org>\n"))
        #expect(composed.contains("\nAuto-Submitted: auto-generated\n"))
        #expect(!composed.contains("☕"), "raw UTF-8 left in the message")
    }

    @Test("attachments make multipart/mixed with base64 parts")
    func mixed() throws {
        let bytes = (0..<3000).map { UInt8($0 % 256) }
        let parsed = try strictlyParsed(MIMEComposer.compose(message(attachments: [.init(filename: "cup.jpg", contentType: "image/jpeg", data: bytes)])))
        #expect(parsed["error"] == nil, "\(parsed["error"] ?? "")")
        #expect(parsed["type"] == "multipart/mixed")
        #expect(parsed["image/jpeg"] == "3000")
        #expect(Int(parsed["longest"] ?? "999") ?? 999 <= 78)
    }

    @Test("a text attachment of UTF-8 says its charset, and Python's strict parser reads its accents; a type with anything else after it is sent as octets")
    func textAttachmentCharset() throws {
        let composed = MIMEComposer.compose(message(attachments: [.init(filename: "note.txt", contentType: "text/plain; charset=utf-8",
                                                                        data: Array("Grüße, café".utf8))]))
        #expect(composed.contains("Content-Type: text/plain; charset=utf-8\n"), "\(composed)")
        let parsed = try strictlyParsed(composed)
        #expect(parsed["text/plain"] == "Grüße, café" && parsed["filename"] == "note.txt", "\(parsed)")
        let odd = MIMEComposer.compose(message(attachments: [.init(filename: "a.txt", contentType: "text/plain; x=\"y\"\r\nX-Injected: 1", data: [65])]))
        #expect(odd.contains("Content-Type: application/octet-stream\n") && !odd.contains("X-Injected"), "\(odd)")
    }

    @Test("an attachment's name with control characters cannot start a header or a body: they go as _")
    func attachmentNameInjection() throws {
        let composed = MIMEComposer.compose(message(attachments: [.init(filename: "a.txt\r\nX-Injected: yes\r\n\r\nINJECTED BODY\r\n\t\u{1}.txt",
                                                                        contentType: "text/plain", data: Array("hello".utf8))]))
        #expect(!composed.contains("\nX-Injected"), "\(composed)")
        let parsed = try #require(ParsedMail(bytes: Array(composed.utf8)))
        let part = try #require(parsed.parts.first { $0.filename != nil })
        #expect(part.filename == "a.txt__X-Injected: yes____INJECTED BODY____.txt")
        #expect(part.data == Array("hello".utf8))
        #expect(try strictlyParsed(composed)["error"] == nil)
    }

    @Test("an attachment named like an RFC 2047 word, short or long, is shown as it is named, by GMime and by Python's strict parser, in lines within 78 characters")
    func attachmentNameLikeAnEncodedWord() throws {
        for name in ["=?UTF-8?B?aW52b2ljZS5wZGY=?=", "=?utf-8?q?x?= " + String(repeating: "ü", count: 120) + " ; \"'%*.pdf"] {
            let composed = MIMEComposer.compose(message(attachments: [.init(filename: name, contentType: "application/pdf", data: Array("pdf".utf8))]))
            let parsed = try #require(ParsedMail(bytes: Array(composed.utf8)))
            #expect(parsed.part("application/pdf")?.filename == name, "\(String(describing: parsed.part("application/pdf")?.filename))")
            let strict = try strictlyParsed(composed)
            #expect(strict["error"] == nil, "\(strict)")
            #expect(strict["filename"] == name, "\(strict)")
            #expect(Int(strict["longest"] ?? "999") ?? 999 <= 78)
            // Each section is whole characters, for readers that decode each alone.
            for section in composed.matches(of: /filename\*\d+\*=(?:utf-8'')?([^;\n]+)/) {
                #expect(String(section.output.1).removingPercentEncoding != nil, "\(section.output.1)")
            }
        }
    }

    @Test("a title that is one word longer than a line may be goes in encoded words: no line over RFC 5322's 998 characters")
    func longWordSubject() throws {
        var long = message()
        long.subject = "See https://example.org/" + String(repeating: "a", count: 1_125)
        let composed = MIMEComposer.compose(long)
        let header = composed.components(separatedBy: "\n\n")[0]
        #expect(header.split(separator: "\n").allSatisfy { $0.utf8.count <= 998 }, "a header line over 998")
        let parsed = try #require(ParsedMail(bytes: Array(composed.utf8)))
        #expect(parsed.header("Subject") == long.subject, "the title reads back whole")
        // A subject of ordinary words is left as it is.
        var short = message()
        short.subject = "Water the plants"
        #expect(MIMEComposer.compose(short).contains("\nSubject: Water the plants\n"))
    }

    @Test("a title holding what looks like an RFC 2047 word is shown as written, never decoded into other words, in lines within 78 characters", arguments: [
        "Fix =?utf-8?q?hi?= parsing", "=?UTF-8?B?UGF5IG5vdw==?=", "Café =?iso-8859-1?q?caf=E9?= " + String(repeating: "ü", count: 60),
    ])
    func encodedWordInTitle(title: String) throws {
        var mail = message()
        mail.subject = title
        let composed = MIMEComposer.compose(mail)
        let parsed = try strictlyParsed(composed)
        #expect(parsed["error"] == nil, "\(parsed["error"] ?? "")")
        #expect(parsed["subject"] == title, "\(composed.prefix(600))")
        let subject = composed.split(separator: "\n").drop { !$0.hasPrefix("Subject:") }.prefix { $0.hasPrefix("Subject:") || $0.hasPrefix(" ") }
        #expect(!subject.isEmpty && subject.allSatisfy { $0.utf8.count <= 78 }, "\(subject)")
    }

    @Test("a reply's msg-id too long for a header line of its own (990 characters, which RFC 5322 allows) is left out of In-Reply-To and References: every line within 998 octets, the shorter ids kept")
    func longMessageIDs() throws {
        let long = String(repeating: "x", count: 978) + "@example.org"
        var mail = message()
        mail.inReplyTo = long
        mail.references = ["a@example.org", long]
        let composed = MIMEComposer.compose(mail)
        #expect(composed.split(separator: "\n").allSatisfy { $0.utf8.count <= 998 })
        #expect(!composed.contains("In-Reply-To:") && composed.contains("References: <a@example.org>\n"), "\(composed.prefix(600))")
        #expect(try strictlyParsed(composed)["error"] == nil)
    }

    @Test("a plain text message stays one part")
    func plain() throws {
        let parsed = try strictlyParsed(MIMEComposer.compose(message(html: nil)))
        #expect(parsed["error"] == nil, "\(parsed["error"] ?? "")")
        #expect(parsed["type"] == "text/plain")
    }

    @Test("GMime's own parser reads every part back without a warning")
    func gmimeReadsItBack() throws {
        let bytes = (0..<3000).map { UInt8($0 % 256) }
        let composed = MIMEComposer.compose(message(attachments: [.init(filename: "liste de courses ü.pdf", contentType: "application/pdf", data: bytes)]))
        let parsed = try #require(ParsedMail(bytes: Array(composed.utf8)))
        #expect(parsed.warnings == [])
        #expect(parsed.header("Subject") == message().subject.trimmingCharacters(in: .whitespaces))
        #expect(parsed.header("From") == "Rappels Chime <bot@example.org>")
        #expect(parsed.part("text/plain")?.text == message().text)
        #expect(parsed.part("text/html")?.text == "<p>Milk &amp; eggs</p>\n")
        #expect(parsed.part("application/pdf")?.filename == "liste de courses ü.pdf")
        #expect(parsed.part("application/pdf")?.data == bytes)
    }

    @Test("a line break in a header value never starts a header of its own")
    func headerInjection() throws {
        var injected = message(html: nil)
        injected.subject = "Hello\r\nBcc: evil@example.org"
        injected.headers.append(("X-Chime-Category", "shopping\nBcc: evil@example.org"))
        let composed = MIMEComposer.compose(injected)
        let parsed = try #require(ParsedMail(bytes: Array(composed.utf8)))
        #expect(parsed.header("Bcc") == nil)
        #expect(!composed.contains("\nBcc:"))
        #expect(try strictlyParsed(composed)["error"] == nil)
    }

    @Test("random text of every kind: both parsers read back exactly what was written", arguments: 0..<40)
    func randomContent(seed: UInt64) throws {
        var random = SplitMix(seed: seed)
        let pieces = ["a", "é", "ß", "—", "☕", "😀", "漢字", " ", "  ", "\t", "\n", "=", "=-", "--", ".", "\n.\n", "From ", "<", "&", "\u{301}"]
        func text(_ count: Int) -> String {
            (0..<count).map { _ in random.next() % 7 == 0 ? String(repeating: "x", count: 90) : pieces[Int(random.next() % UInt64(pieces.count))] }.joined()
        }
        let subject = text(Int(random.next() % 60)).replacingOccurrences(of: "\n", with: " ").replacingOccurrences(of: "\t", with: " ")
        var sample = message(html: text(200))
        sample.subject = subject
        sample.text = text(400)
        let composed = MIMEComposer.compose(sample)
        #expect(composed.utf8.allSatisfy { $0 < 0x80 }, "8-bit data in the message")
        // Bodies keep to 78 characters a line. Headers keep to RFC 5322's hard limit of
        // 998: GMime folds at white space and splits encoded words, but a word it encodes
        // can come out a few characters past 78.
        let (head, body) = (composed.components(separatedBy: "\n\n").first ?? "", composed.components(separatedBy: "\n\n").dropFirst().joined(separator: "\n\n"))
        #expect(body.split(separator: "\n").filter { $0.utf8.count > 78 } == [], "body lines over 78 characters")
        #expect(head.split(separator: "\n").filter { $0.utf8.count > 998 } == [], "header lines over 998 characters")
        let strict = try strictlyParsed(composed)
        #expect(strict["error"] == nil, "\(strict["error"] ?? "")")
        let parsed = try #require(ParsedMail(bytes: Array(composed.utf8)))
        #expect(parsed.warnings == [])
        #expect(parsed.part("text/plain")?.text.map(trimmed) == trimmed(sample.text))
        #expect(parsed.part("text/html")?.text.map(trimmed) == trimmed(sample.html!))
        #expect(strict["text/plain"].map(trimmed) == trimmed(sample.text))
    }

    private func trimmed(_ text: String) -> String {
        var text = text
        while text.hasSuffix("\n") { text.removeLast() }
        return text
    }

    @Test("8-bit text naming no charset, not UTF-8, is read as Windows-1252; UTF-8 without a charset stays UTF-8; a named charset is the charset's")
    func noCharset() throws {
        func body(_ type: String, _ bytes: [UInt8]) throws -> String? {
            let head = "From: a@example.org\r\nSubject: x\r\nMIME-Version: 1.0\r\nContent-Type: \(type)\r\nContent-Transfer-Encoding: 8bit\r\n\r\n"
            return try #require(ParsedMail(bytes: Array(head.utf8) + bytes)).part("text/plain")?.decodedText
        }
        #expect(try body("text/plain", Array("Termin".utf8) + [0xE9, 0x0D, 0x0A])?.hasPrefix("Terminé") == true)
        #expect(try body("text/plain", Array("Terminé\r\n".utf8))?.hasPrefix("Terminé") == true)
        #expect(try body("text/plain; charset=iso-8859-2", Array("Usu".utf8) + [0xF1, 0x0D, 0x0A])?.hasPrefix("Usuń") == true)
    }
}
