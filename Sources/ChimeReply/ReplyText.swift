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
        let lines = text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
            .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let foldedMarkers = markers.map(fold).filter { !$0.isEmpty }
        func hasMarker(_ line: String) -> Bool {
            guard !foldedMarkers.isEmpty, line.utf8.count <= longestHeader else { return false }
            let folded = fold(line)
            return foldedMarkers.contains { folded.contains($0) }
        }
        // Where the quote at the end begins: from there on, only `>` lines and blanks.
        let quotedTail = (lines.lastIndex { !$0.hasPrefix(">") && !$0.trimmingCharacters(in: .whitespaces).isEmpty } ?? -1) + 1
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
            result.append(line.trimmingCharacters(in: .whitespaces))
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
        let line = lines[index].trimmingCharacters(in: .whitespaces)
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
        if line.contains(":") || line.contains("："), fromField.matches(line) {
            for next in (index + 1)..<min(index + 5, lines.count)
            where sentField.matches(lines[next].trimmingCharacters(in: .whitespaces)) {
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
            let line = lines[next].trimmingCharacters(in: .whitespaces)
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
        let tail = String(joined.suffix(90)).lowercased()
        return writingVerbs.contains { tail.contains($0) }
    }

    private static let writingVerbs = ["wrote", "crit", "schrieb", "escribi", "scritto", "schreef", "escreveu", "napisa", "pisze",
                                       "пишет", "написал", "写道", "のメッセージ", "書きました"]

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
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        return signatures.matches(trimmed)
    }

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
