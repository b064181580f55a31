import Foundation

/// The part of a reply that its writer typed: quoted text, quote headers in many
/// languages, forwarded blocks, signatures and Chime's own "reply above this line" marker
/// and everything below it taken away.
///
/// Heuristics learnt from reply-by-email in Discourse, GitLab and GitHub; the patterns are
/// Chime's own.
public enum ReplyText {
    /// The new text of a plain-text reply, trimmed; empty when the person wrote nothing.
    /// - Parameter markers: Chime's "reply above this line" text in every locale.
    public static func extract(_ text: String, markers: [String] = []) -> String {
        let lines = Self.lines(text)
        let foldedMarkers = markers.map(fold).filter { !$0.isEmpty }
        // A line shorter than half the shortest marker cannot hold one: most lines are
        // spared the folding.
        let shortest = (foldedMarkers.map(\.utf8.count).min() ?? 0) / 2
        func hasMarker(_ line: String) -> Bool {
            guard !foldedMarkers.isEmpty, line.utf8.count >= shortest, line.utf8.count <= longestHeader else { return false }
            let folded = fold(line)
            return foldedMarkers.contains { Bytes.contains(folded.utf8, $0.utf8) }
        }
        // Where the quote at the end begins: from there on, only `>` lines and blanks.
        let quotedTail = (lines.lastIndex { !$0.hasPrefix(">") && !isBlank($0) } ?? -1) + 1
        // Top-posted (the usual case): everything from the first quote header down is the
        // quoted message.
        var kept: [String] = []
        var index = 0
        while index < lines.count {
            if hasMarker(lines[index]) || startsQuote(lines, at: index, quotedTail: quotedTail) { break }
            kept.append(lines[index])
            index += 1
        }
        var answer = clean(kept)
        if answer.isEmpty && index < lines.count {
            // Bottom-posted or inline: the answer sits between or below quoted lines.
            var below: [String] = []
            var line = index
            while line < lines.count {
                if !lines[line].hasPrefix(">") && hasMarker(lines[line]) { break }
                if !isQuoteHeader(lines, at: line) && !lines[line].hasPrefix(">") { below.append(lines[line]) }
                line += 1
            }
            answer = clean(below)
        }
        return answer
    }

    /// Lines without signatures and quoted lines, blank lines at either end dropped.
    private static func clean(_ lines: [String]) -> String {
        var result: [String] = []
        for line in lines {
            if isSignatureStart(line) { break }
            if line.hasPrefix(">") { continue }
            result.append(trimmed(line))
        }
        // Blank lines at either end dropped (by index: removing them one by one from the
        // front took time growing with the square of their number), and runs of blank
        // lines inside counted as one.
        guard let first = result.firstIndex(where: { !$0.isEmpty }), let last = result.lastIndex(where: { !$0.isEmpty }) else { return "" }
        var squeezed: [String] = []
        for line in result[first...last] where !(line.isEmpty && squeezed.last?.isEmpty == true) { squeezed.append(line) }
        return squeezed.joined(separator: "\n")
    }

    /// A quote begins here: a `>` line of the quote that ends the text, or a quote header.
    private static func startsQuote(_ lines: [String], at index: Int, quotedTail: Int) -> Bool {
        if lines[index].hasPrefix(">") && index + 1 < lines.count && index >= quotedTail { return true }
        return isQuoteHeader(lines, at: index)
    }

    /// The longest line (or window of lines) read as a quote header: the longest real
    /// ones, names and addresses wrapped over three lines, stay well under it, and no
    /// pattern is ever tried on more (each costs time in proportion to what it reads).
    static let longestHeader = 600

    /// A line that begins a quoted or forwarded message.
    static func isQuoteHeader(_ lines: [String], at index: Int) -> Bool {
        guard lines[index].utf8.count <= longestHeader else { return false }
        let line = trimmed(lines[index])
        guard !line.isEmpty else { return false }
        // Each pattern needs a character the line must have: most lines are spared the
        // regular expressions.
        if "-_bB".contains(line.first!), separators.matches(line) { return true }
        // "On … wrote:" and its translations, which clients wrap over up to three lines.
        // A window that still matches without its first line starts later: that line is
        // the person's own.
        if let window = wroteWindow(lines, at: index) {
            if window.count > 1, index + 1 < lines.count, let later = wroteWindow(lines, at: index + 1), later.count == window.count - 1 {
                return false
            }
            return true
        }
        // Outlook's header block: "From:" then "Sent:"/"Date:" within the next lines.
        if mayNameField(line, startingWith: fromStarts), fromField.matches(line) {
            for next in (index + 1)..<min(index + 5, lines.count)
            where mayNameField(trimmed(lines[next]), startingWith: sentStarts) && sentField.matches(trimmed(lines[next])) {
                return true
            }
        }
        return false
    }

    /// The lines from `index` (one to three, no blank line among them) that make an
    /// "On … wrote:" header, or nil.
    private static func wroteWindow(_ lines: [String], at index: Int) -> [String]? {
        var joined = ""
        for next in index..<min(index + 3, lines.count) {
            guard lines[next].utf8.count <= longestHeader else { return nil }
            let line = trimmed(lines[next])
            if line.isEmpty { return nil }
            joined += (joined.isEmpty ? "" : " ") + line
            // Every "wrote" pattern ends with a colon, and names its verb near the end.
            if joined.hasSuffix(":") || joined.hasSuffix("："), joined.utf8.count <= longestHeader, namesWriting(joined), wrote.matches(joined) {
                return Array(lines[index...next])
            }
        }
        return nil
    }

    private static let separators = Patterns([
        #"^-{2,}\s*(original message|ursprüngliche nachricht|message d'origine|mensaje original|messaggio originale|oorspronkelijk bericht|исходное сообщение|wiadomość oryginalna|原始邮件|元のメッセージ)\s*-{2,}$"#,
        #"^-{2,}\s*(forwarded message|message transféré|weitergeleitete nachricht|mensaje reenviado|пересылаемое сообщение|转发的邮件|転送メッセージ)\s*-{2,}$"#,
        #"^_{20,}$"#,
        #"^begin forwarded message:$"#,
    ])

    /// Whether the end of a window names a verb of writing, which every "wrote" pattern
    /// holds within its last 90 characters: most windows are spared the patterns.
    private static func namesWriting(_ joined: String) -> Bool {
        // Bytes, ASCII letters lowered: Foundation's search, tried for each verb on each
        // line, had been most of the time spent on a long reply.
        let tail = joined.utf8.suffix(270).map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }
        return writingVerbs.contains { Bytes.contains(tail, $0) }
    }

    private static let writingVerbs = ["wrote", "crit", "schrieb", "escribi", "scritto", "schreef", "escreveu", "napisa", "pisze",
                                       "пишет", "написал", "写道", "のメッセージ", "書きました"].map { Array($0.utf8) }

    /// Whether a line may start a header field (`From:`, `Sent:`…): its first byte
    /// (after a `*`, lower case) one that a field name of the patterns starts with, and a
    /// colon among its first 40 bytes, where every one ends.
    private static func mayNameField(_ line: String, startingWith starts: Set<UInt8>) -> Bool {
        let head = line.utf8.prefix(40)
        guard let first = head.first(where: { $0 != UInt8(ascii: "*") }),
              starts.contains(first >= 0x41 && first <= 0x5A ? first | 0x20 : first) else { return false }
        return head.contains(UInt8(ascii: ":")) || Bytes.contains(head, Array("：".utf8))
    }

    /// The first bytes of the field names of ``fromField`` and ``sentField`` (UTF-8 lead
    /// bytes for Cyrillic and CJK).
    private static let fromStarts = Set(Array("fdvo".utf8) + [0xD0, 0xE5])
    private static let sentStarts = Set(Array("sdegfwiv".utf8) + [0xD0, 0xE5, 0xE6, 0xE9])

    /// The text's lines, split at LF, CRLF and CR (by bytes: Foundation's replacing
    /// before a split had cost a third of the time of a reply of many short lines).
    static func lines(_ text: String) -> [String] {
        var lines: [String] = []
        var current: [UInt8] = []
        var previousCR = false
        for byte in text.utf8 {
            if byte == 0x0A && previousCR {
                previousCR = false
                continue
            }
            previousCR = byte == 0x0D
            if byte == 0x0A || byte == 0x0D {
                lines.append(String(decoding: current, as: UTF8.self))
                current.removeAll(keepingCapacity: true)
            } else {
                current.append(byte)
            }
        }
        lines.append(String(decoding: current, as: UTF8.self))
        return lines
    }

    /// Without white space at either end (Swift's own test, not Foundation's: this runs
    /// on every line).
    static func trimmed(_ line: String) -> String {
        guard let first = line.firstIndex(where: { !$0.isWhitespace || $0.isNewline }) else { return "" }
        let last = line.lastIndex(where: { !$0.isWhitespace || $0.isNewline })!
        return first == line.startIndex && last == line.index(before: line.endIndex) ? line : String(line[first...last])
    }

    /// Whether a line holds only white space.
    static func isBlank(_ line: String) -> Bool {
        line.allSatisfy { $0.isWhitespace && !$0.isNewline }
    }

    // Each anchored at the start of the window: tried from one place only, never from
    // every character of a long line.
    private static let wrote = Patterns([
        #"^on\s.{4,}\swrote:$"#,
        #"^le\s.{4,}\sa\s[ée]crit\s?:$"#,
        #"^am\s.{4,}\sschrieb.{0,80}:$"#,
        #"^el\s.{4,}\sescribi[óo]:$"#,
        #"^(il|el)\s.{4,}\sha scritto:$"#,
        #"^op\s.{4,}\sschreef.{0,80}:$"#,
        #"^em\s.{4,}\sescreveu:$"#,
        #"^(w dniu|dnia)\s.{4,}\s(napisał|napisała|napisał\(a\)|pisze)\s?:$"#,
        #"^.{4,}\s(пишет|написал|написала|написал\(а\))\s?:$"#,
        #"^(在|于).{4,}写道\s?[:：]$"#,
        #"^.{4,}(のメッセージ|書きました|が書きました)\s?[:：]$"#,
    ])

    private static let fromField = Patterns([#"^\*?(from|de|von|от|od|da|van|发件人|寄件者|差出人)\s?\*?\s?[:：]"#])
    private static let sentField = Patterns([#"^\*?(sent|date|envoyé|gesendet|datum|enviado el|enviado|fecha|wysłane|отправлено|дата|wysłano|data|inviato|verzonden|发送时间|日期|寄件日期|送信日時|日付)\s?\*?\s?[:：]"#])

    /// The first line of a signature or of a client's "sent from" line.
    static func isSignatureStart(_ line: String) -> Bool {
        if line == "-- " || line == "--" || line == "—" { return true }
        guard line.utf8.count <= longestHeader else { return false }
        let line = trimmed(line)
        guard let first = line.utf8.first, signatureStarts.contains(first >= 0x41 && first <= 0x5A ? first | 0x20 : first)
            || Bytes.contains(line.utf8.suffix(12), Array("送信".utf8)) else { return false }
        return signatures.matches(line)
    }

    /// The first bytes of the signature patterns but the `…から送信` one.
    private static let signatureStarts = Set(Array("sgeviow".utf8) + [0xD0, 0xE5])

    private static let signatures = Patterns([
        #"^(sent from|sent with|sent via|get outlook for|envoyé de|envoyé depuis|von meinem|gesendet von|gesendet mit|enviado desde|enviado de|inviato da|verzonden vanaf|отправлено с|отправлено из|wysłane z|发自|寄自)\b.{0,60}$"#,
        #"^.{0,30}(から送信|より送信)$"#,
        #"^von .{1,40} gesendet$"#,
        #"^outlook für (ios|android) beziehen"#,
    ])

    /// `format=flowed` text (RFC 3676) as its writer typed it: a line ending in a space
    /// runs on into the next (without that space when `delsp=yes`), space-stuffing is
    /// undone, and the signature separator `-- ` stays a line of its own.
    public static func unflowed(_ text: String, deleteSpace: Bool) -> String {
        var lines: [String] = []
        var open = false
        for raw in text.replacingOccurrences(of: "\r\n", with: "\n").split(separator: "\n", omittingEmptySubsequences: false) {
            var line = String(raw)
            let quoted = line.hasPrefix(">")
            if line.hasPrefix(" ") { line.removeFirst() }
            let soft = line.hasSuffix(" ") && line != "-- " && !quoted
            if soft && deleteSpace { line.removeLast() }
            if open, let last = lines.popLast() { line = last + line }
            lines.append(line)
            open = soft
        }
        return lines.joined(separator: "\n")
    }

    /// Regular expressions compiled once, matched without regard to case
    /// (`NSRegularExpression` is immutable and safe to share between threads).
    struct Patterns: @unchecked Sendable {
        let expressions: [NSRegularExpression]

        init(_ patterns: [String]) {
            expressions = patterns.map { try! NSRegularExpression(pattern: $0, options: [.caseInsensitive]) }
        }

        func matches(_ text: String) -> Bool {
            let range = NSRange(text.startIndex..., in: text)
            return expressions.contains { $0.firstMatch(in: text, range: range) != nil }
        }
    }

    /// Case and accents folded, for comparing a line with a marker.
    static func fold(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
            .trimmingCharacters(in: .whitespaces)
    }
}

/// Byte-string search, for the few places that run on every line of a reply.
enum Bytes {
    /// Whether `needle` occurs in `haystack` (naive: both are short here).
    static func contains<H: Collection, N: Collection>(_ haystack: H, _ needle: N) -> Bool where H.Element == UInt8, N.Element == UInt8 {
        let hay = Array(haystack), pin = Array(needle)
        guard !pin.isEmpty else { return true }
        guard hay.count >= pin.count else { return false }
        let first = pin[0]
        for start in 0...(hay.count - pin.count) where hay[start] == first {
            var match = true
            for offset in 1..<pin.count where hay[start + offset] != pin[offset] {
                match = false
                break
            }
            if match { return true }
        }
        return false
    }
}
