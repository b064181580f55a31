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
        #expect(parsed["text/html"] == "<p>Milk &amp; eggs</p>")
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

    @Test("a plain text message stays one part")
    func plain() throws {
        let parsed = try strictlyParsed(MIMEComposer.compose(message(html: nil)))
        #expect(parsed["error"] == nil, "\(parsed["error"] ?? "")")
        #expect(parsed["type"] == "text/plain")
    }
}
