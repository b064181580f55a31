@testable import ChimeReply
import ChimeMIME
import ChimeXML
import Foundation
import Testing

/// The corpus of replies under `Fixtures/replies/`: whole messages as each client writes
/// them (`CLIENT-LANGUAGE-N.eml`), each with the text its writer typed beside it
/// (`CLIENT-LANGUAGE-N.txt`), read through the same path `chime ingest` takes (the
/// message parsed and decoded, its text part or HTML made text, the new text extracted).
@Suite("Reply corpus: the new text, exactly, in any language")
struct ReplyCorpusTextTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/replies")

    /// The corpus's message names, without their extension.
    static func names() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".eml") }.map { String($0.dropLast(4)) }.sorted()
    }

    /// The new text of one message of the corpus, as `chime ingest` reads it.
    static func extracted(_ name: String) throws -> String {
        let bytes = [UInt8](try Data(contentsOf: folder.appendingPathComponent(name + ".eml")))
        let mail = try #require(ParsedMail(bytes: bytes), "\(name).eml is a message")
        return ReplyText.extract(ReplyText.body(of: mail))
    }

    /// The new text of one message's HTML alternative, read as if it had come alone (as
    /// HTML-only clients send it), or nil for a message without one.
    static func extractedFromHTML(_ name: String) throws -> String? {
        let bytes = [UInt8](try Data(contentsOf: folder.appendingPathComponent(name + ".eml")))
        let mail = try #require(ParsedMail(bytes: bytes), "\(name).eml is a message")
        guard mail.parts.contains(where: { $0.contentType == "text/plain" && $0.filename == nil }),
              let html = mail.parts.first(where: { $0.contentType == "text/html" && $0.filename == nil }) else { return nil }
        return ReplyText.extract(HTMLText.text(of: html.decodedText))
    }

    @Test("the HTML alternative of each reply gives the same text, by the clients' quote containers and signatures, unless the person's formatting is one HTML does not keep")
    func htmlAlternatives() throws {
        var checked = 0
        var wrong: [String] = []
        for name in try Self.names() {
            let expected = try String(contentsOf: Self.folder.appendingPathComponent(name + ".txt"), encoding: .utf8)
            // Indentation and runs of blank lines typed as spaces and empty blocks: HTML
            // shows neither, so its text has neither.
            let lines = expected.split(separator: "\n", omittingEmptySubsequences: false)
            guard !lines.contains(where: { $0.first?.isWhitespace == true }), !expected.contains("\n\n\n"),
                  let got = try Self.extractedFromHTML(name) else { continue }
            checked += 1
            if got != expected { wrong.append("\(name): expected \(expected.debugDescription), got \(got.debugDescription)") }
        }
        print("reply corpus, HTML alternatives: \(checked - wrong.count) of \(checked) right")
        #expect(checked >= 200)
        #expect(wrong.isEmpty, "\(wrong.count) of \(checked) wrong:\n\(wrong.joined(separator: "\n"))")
    }

    @Test("every reply of the corpus gives the text its writer typed; the accuracy per client and per language is printed")
    func corpus() throws {
        let names = try Self.names()
        #expect(names.count >= 300)
        var byClient: [String: (right: Int, all: Int)] = [:], byLanguage: [String: (right: Int, all: Int)] = [:]
        var wrong: [String] = []
        for name in names {
            let expected = try String(contentsOf: Self.folder.appendingPathComponent(name + ".txt"), encoding: .utf8)
            let got = try Self.extracted(name)
            let parts = name.split(separator: "-")
            let client = String(parts[0]), language = parts.dropFirst().dropLast().joined(separator: "-")
            let right = got == expected
            byClient[client, default: (0, 0)].all += 1
            byLanguage[language, default: (0, 0)].all += 1
            if right {
                byClient[client]!.right += 1
                byLanguage[language]!.right += 1
            } else {
                wrong.append("\(name): expected \(expected.debugDescription), got \(got.debugDescription)")
            }
        }
        func table(_ counts: [String: (right: Int, all: Int)]) -> String {
            counts.keys.sorted().map { "\($0) \(counts[$0]!.right)/\(counts[$0]!.all)" }.joined(separator: ", ")
        }
        print("reply corpus: \(names.count - wrong.count) of \(names.count) right")
        print("by client: \(table(byClient))")
        print("by language: \(table(byLanguage))")
        #expect(wrong.isEmpty, "\(wrong.count) of \(names.count) wrong:\n\(wrong.joined(separator: "\n"))")
    }
}
