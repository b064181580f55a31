import ChimeMIME
import Foundation
import Testing

/// GMime compares each parameter of a header with every one before it: a header with
/// more than `ParsedMail.maximumParameters` is refused before GMime reads it.
@Suite("MIME parameters bounded")
struct ParameterBoundTests {
    func message(contentType: String, disposition: String? = nil) -> [UInt8] {
        Array((["From: a@example.org", "To: b@example.org", "Subject: x", "MIME-Version: 1.0", "Content-Type: \(contentType)"]
            + (disposition.map { ["Content-Disposition: \($0)"] } ?? []) + ["", "hello"]).joined(separator: "\r\n").utf8)
    }

    func parameters(_ count: Int) -> String { (0..<count).map { "; p\($0)=v" }.joined() }

    @Test("a Content-Type of 100 parameters is read, of 101 refused; folded over lines they count alike, and so does Content-Disposition")
    func bound() throws {
        let read = try #require(ParsedMail(bytes: message(contentType: "text/plain" + parameters(100))))
        #expect(read.parts.first?.parameters["p99"] == "v")
        #expect(ParsedMail(bytes: message(contentType: "text/plain" + parameters(101))) == nil)
        let folded = "text/plain" + (0..<101).map { ";\r\n p\($0)=v" }.joined()
        #expect(ParsedMail(bytes: message(contentType: folded)) == nil)
        #expect(ParsedMail(bytes: message(contentType: "text/plain", disposition: "inline" + parameters(101))) == nil)
        // Semicolons elsewhere (a subject, the body) count for nothing.
        let subject = Array(String(decoding: message(contentType: "text/plain"), as: UTF8.self)
            .replacingOccurrences(of: "Subject: x", with: "Subject: " + String(repeating: ";", count: 500)).utf8)
        #expect(ParsedMail(bytes: subject) != nil)
    }
}
