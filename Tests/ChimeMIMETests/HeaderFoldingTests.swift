@testable import ChimeMIME
import Foundation
import Testing

/// A long header line folded before white space: nothing lost or added when a reader
/// unfolds it, each line as long as the words allow and no shorter.
@Suite struct HeaderFoldingTests {
    static let lines: [String] = {
        var lines = ["Subject: short", "X-Empty:", "List-Unsubscribe: <https://chime.example.org/u/" + String(repeating: "a", count: 120) + ">"]
        // Words of 1 to 30 letters, after single and double spaces, tabs, and a space and a
        // tab, after names of several lengths.
        var seed: UInt64 = 7
        func next(_ bound: Int) -> Int {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return Int(seed >> 33) % bound
        }
        for name in ["Subject", "X-Chime-Notification-Identifier", "To"] {
            for _ in 0..<60 {
                var line = name + ":"
                for _ in 0..<(1 + next(25)) {
                    line += [" ", " ", " ", "  ", "\t", " \t"][next(6)] + String(repeating: "w", count: 1 + next(30))
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
            // Unfolding (taking the line breaks out, RFC 5322 3.2.2) gives the line back.
            #expect(String(folded.dropLast()).replacingOccurrences(of: "\n", with: "") == line, "\(line)")
            let parts = folded.dropLast().split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            #expect(parts.count == 1 || line.utf8.count > 78)
            for (index, part) in parts.enumerated() {
                // Over 78 only when one word (the first line: the name and its first word) is.
                let words = part.split(whereSeparator: { $0 == " " || $0 == "\t" })
                #expect(part.utf8.count <= 78 || words.count <= 2, "\(part)")
                // A fold only where the next word, with the white space before it, would
                // not have fitted; the next line starts with that white space.
                if index + 1 < parts.count {
                    let following = parts[index + 1]
                    let space = following.prefix { $0 == " " || $0 == "\t" }
                    let word = following.dropFirst(space.count).prefix { $0 != " " && $0 != "\t" }
                    #expect(!space.isEmpty && !word.isEmpty, "\(following)")
                    #expect(part.utf8.count + space.utf8.count + word.utf8.count > 78, "\(part) | \(following)")
                }
            }
        }
    }

    @Test("a subject of words joined by tabs, in ASCII or beyond, one with a run of 2,000 spaces, one whose white space at the end has no room left: every line within 998 characters, none of white space alone, read back as written (the run cut to 78, the white space at the end left out)")
    func tabsAndLongRuns() throws {
        let tabbed = String(repeating: "word\t", count: 300) + "end"
        let run = "Rent" + String(repeating: " ", count: 2_000) + "due"
        // A word as long as a header keeps (900), white space before and after it: the
        // white space at the end has no room left on the word's line.
        let spaces = String(repeating: " ", count: 78), long = String(repeating: "w", count: 900)
        for (subject, expected) in [(tabbed, tabbed), ("Café " + tabbed, "Café " + tabbed), (run, "Rent" + spaces + "due"),
                                    ("a" + spaces + long + spaces, "a" + spaces + long)] {
            let header = MIMEComposer.textHeader("Subject", subject)
            let lines = header.dropLast().split(separator: "\n", omittingEmptySubsequences: false)
            #expect(lines.allSatisfy { $0.utf8.count <= 998 }, "\(lines.map(\.utf8.count))")
            #expect(lines.allSatisfy { $0.contains { $0 != " " && $0 != "\t" } }, "no line of white space alone")
            #expect(lines.count > 1)
            let message = "From: a@example.org\r\nTo: b@example.org\r\n" + header.replacingOccurrences(of: "\n", with: "\r\n") + "\r\nbody\r\n"
            let mail = try #require(ParsedMail(bytes: Array(message.utf8)))
            #expect(mail.header("Subject") == expected, "\(String(describing: mail.header("Subject")?.prefix(120)))")
        }
    }

    @Test("subjects and display names in Japanese, Thai, Russian and Arabic: every RFC 2047 word within 75 characters (GMime's were 80 to 168 for CJK and Thai, which strict readers leave undecoded), read back as written",
          arguments: ["明日の会議の資料を準備してください", "กรุณาเตรียมเอกสารสำหรับการประชุมพรุ่งนี้นะครับ", "Достопримечательностей", "والمستشفيات والمستوصفات",
                      "Café crème", String(repeating: "お知らせ", count: 60)])
    func encodedWordsWithinTheirLimit(text: String) throws {
        let subject = MIMEComposer.textHeader("Subject", text)
        let from = MIMEComposer.addressHeader("From", "\(text) <bot@example.org>", remembered: false)
        for header in [subject, from] {
            let words = header.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" }).filter { $0.hasPrefix("=?") }
            #expect(!words.isEmpty && words.allSatisfy { $0.utf8.count <= 75 }, "\(words.map(\.utf8.count)): \(header)")
            #expect(header.split(separator: "\n").allSatisfy { $0.utf8.count <= 998 })
        }
        // Read back by Python's email package (policy.default), a reader that keeps to RFC 2047.
        let message = "To: b@example.org\r\n" + from + subject + "\r\nbody\r\n"
        let python = Process()
        python.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        // The display name through decode_header, which drops the white space between two
        // encoded words as RFC 2047 (6.2) says (the address parser of policy.default
        // keeps it).
        python.arguments = ["-c", "import email, email.policy, email.header, sys, json; data = sys.stdin.buffer.read(); "
                            + "m = email.message_from_bytes(data, policy=email.policy.default); raw = email.message_from_bytes(data)['From']; "
                            + "name = str(email.header.make_header(email.header.decode_header(raw.split('<')[0]))).strip(); "
                            + "print(json.dumps([str(m['Subject']), name, len(m.defects)]))"]
        let input = Pipe(), output = Pipe()
        (python.standardInput, python.standardOutput) = (input, output)
        try python.run()
        input.fileHandleForWriting.write(Data(message.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\n", with: "\r\n").utf8))
        try input.fileHandleForWriting.close()
        let read = try #require(try JSONSerialization.jsonObject(with: output.fileHandleForReading.readDataToEndOfFile()) as? [Any])
        python.waitUntilExit()
        #expect(read[0] as? String == text && read[1] as? String == text && read[2] as? Int == 0, "\(read)\n\(from)\(subject)")
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
