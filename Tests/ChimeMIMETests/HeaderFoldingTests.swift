@testable import ChimeMIME
import Testing

/// A long header line folded before white space: nothing lost or added when a reader
/// unfolds it, each line as long as the words allow and no shorter.
@Suite struct HeaderFoldingTests {
    static let lines: [String] = {
        var lines = ["Subject: short", "X-Empty:", "List-Unsubscribe: <https://chime.example.org/u/" + String(repeating: "a", count: 120) + ">"]
        // Words of 1 to 30 letters, single and double spaces, after names of several lengths.
        var seed: UInt64 = 7
        func next(_ bound: Int) -> Int {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return Int(seed >> 33) % bound
        }
        for name in ["Subject", "X-Chime-Notification-Identifier", "To"] {
            for _ in 0..<60 {
                var line = name + ":"
                for _ in 0..<(1 + next(25)) {
                    line += String(repeating: " ", count: 1 + next(4) / 3) + String(repeating: "w", count: 1 + next(30))
                }
                lines.append(line)
            }
        }
        return lines
    }()

    @Test func foldsAsTheWordsAllow() {
        for line in Self.lines {
            let folded = MIMEComposer.folded(line)
            #expect(folded.hasSuffix("\n"))
            // Unfolding gives the line back.
            #expect(folded.replacingOccurrences(of: "\n ", with: " ") == line + "\n", "\(line)")
            let parts = folded.dropLast().split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            #expect(parts.count == 1 || line.utf8.count > 78)
            for (index, part) in parts.enumerated() {
                // Over 78 only when one word (the first line: the name and its first word) is.
                let words = part.split(separator: " ", omittingEmptySubsequences: false)
                #expect(part.utf8.count <= 78 || words.count <= 2, "\(part)")
                // A fold only where the next word would not have fitted.
                if index + 1 < parts.count {
                    let next = parts[index + 1].dropFirst().split(separator: " ", omittingEmptySubsequences: false)[0]
                    #expect(part.utf8.count + 1 + next.utf8.count > 78, "\(part) | \(next)")
                    #expect(parts[index + 1].hasPrefix(" "))
                }
            }
        }
    }

    @Test("a folded header reads back unfolded, the fold's white space kept, in ASCII or beyond, a broken sequence replaced as before")
    func readsUnfolded() throws {
        var message = Array("""
            From: a@example.org\r
            To: b@example.org\r
            Subject: first part\r
             second part\r
            X-Tab:  a\r
            \tb \r
            X-Raw: Grüße\r
             an alle\r
            X-Broken: x
            """.utf8)
        // A UTF-8 sequence cut by a fold: each half replaced, the fold's space between.
        message += [0xC3, 0x0D, 0x0A, 0x20, 0xA9] + Array("\r\n\r\nbody\r\n".utf8)
        let mail = try #require(ParsedMail(bytes: message))
        #expect(mail.rawValues("Subject") == ["first part second part"])
        #expect(mail.rawValues("X-Tab") == ["a\tb"])
        #expect(mail.rawValues("X-Raw") == ["Grüße an alle"])
        #expect(mail.rawValues("X-Broken") == ["x\u{FFFD} \u{FFFD}"])
    }
}
