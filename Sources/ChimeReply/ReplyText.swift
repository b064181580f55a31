import ChimeCore
import Foundation

/// The part of a reply that its writer typed: quoted text, quote headers in many
/// languages, forwarded blocks, signatures and Chime's own "reply above this line" marker
/// and everything below it taken away; the person's own lines kept as they typed them
/// (indentation and blank lines), whether above, between or below the quoted lines.
///
/// Heuristics learnt from reply-by-email in Discourse, GitLab and GitHub; the patterns are
/// Chime's own, one table per language or client (``QuoteLanguage``).
public enum ReplyText {
    /// The new text of a plain-text reply, without white space at the end of its lines
    /// and blank lines at either end; empty when the person wrote nothing.
    /// - Parameter markers: Chime's "reply above this line" text in every locale.
    public static func extract(_ text: String, markers: [String] = []) -> String {
        extract(text, foldedMarkers: foldedMarkers(markers))
    }

    /// The markers as ``extract(_:foldedMarkers:)`` takes them: folded once, for every
    /// reply (folding them per reply had been a third of the folding's cost).
    static func foldedMarkers(_ markers: [String]) -> [String] {
        markers.map(fold).filter { !$0.isEmpty }
    }

    /// ``extract(_:markers:)`` with markers folded by ``foldedMarkers(_:)``.
    static func extract(_ text: String, foldedMarkers: [String]) -> String {
        let lines = Self.lines(text)
        let rules = QuoteRules.standard
        // A line shorter than half the shortest marker cannot hold one: most lines are
        // spared the folding.
        let shortest = (foldedMarkers.map(\.utf8.count).min() ?? 0) / 2
        func hasMarker(_ line: String) -> Bool {
            guard !foldedMarkers.isEmpty, line.utf8.count >= shortest, line.utf8.count <= longestHeader else { return false }
            // An ASCII line folds to its lower case (it has no accents nor wide forms), and
            // holds no marker that folds to more than ASCII: bytes, spared Foundation.
            let lowered = line.withStoredUTF8 { utf8 in
                utf8.allSatisfy { $0 < 0x80 } ? utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 } : nil
            }
            if let lowered { return foldedMarkers.contains { Bytes.contains(lowered, $0.utf8) } }
            let folded = fold(line)
            return foldedMarkers.contains { Bytes.contains(folded.utf8, $0.utf8) }
        }
        // The first line below each line that holds the marker, worked out once, when a
        // quote header first needs it.
        var markerBelow: [Int]?
        func marker(after index: Int) -> Bool {
            if markerBelow == nil {
                var below = Array(repeating: Int.max, count: lines.count + 1)
                for line in lines.indices.reversed() { below[line] = !isQuoted(lines[line]) && hasMarker(lines[line]) ? line : below[line + 1] }
                markerBelow = below
            }
            return markerBelow![min(index, lines.count)] != Int.max
        }
        // Where the quote at the end begins: from there on, only `>` lines and blanks.
        let quotedTail = (lines.lastIndex { !isQuoted($0) && !isBlank($0) } ?? -1) + 1

        /// Whether an "On … wrote:" header of `count` lines at `index` heads a quote: it
        /// is followed by quoted lines, by nothing, or by a quoted message (a header, a
        /// separator or Chime's marker further down); one inside the person's own text,
        /// followed by more of it, is theirs.
        func headsQuote(_ index: Int, _ count: Int) -> Bool {
            var next = index + count
            while next < lines.count && isBlank(lines[next]) { next += 1 }
            guard next < lines.count else { return true }
            let line = lines[next]
            if isQuoted(line) || line.hasPrefix("|") || hasMarker(line) { return true }
            if rules.isSeparator(trimmed(line)) || rules.isHeaderBlock(lines, at: next) { return true }
            return marker(after: next)
        }

        /// Whether a line that a header wrapped below it would also match is the person's
        /// own: a header stands after a blank line (or first), and a wrapped header's
        /// first line does not end a sentence.
        func isOwnLine(_ index: Int) -> Bool {
            if index > 0, !isBlank(lines[index - 1]), !isQuoted(lines[index - 1]) { return true }
            return trimmed(lines[index]).last.map { ".!?…。！？".contains($0) } ?? false
        }

        /// A quote begins here: a `>` line of the quote that ends the text, a separator,
        /// a header block or an "On … wrote:" header.
        func startsQuote(_ index: Int) -> Bool {
            let line = lines[index]
            if isQuoted(line) { return index + 1 < lines.count && index >= quotedTail }
            guard line.utf8.count <= longestHeader, !isBlank(line) else { return false }
            if rules.isSeparator(trimmed(line)) || rules.isHeaderBlock(lines, at: index) { return true }
            // A window that still matches without its first line starts later: that line
            // is the person's own.
            guard let count = rules.headerWindow(lines, at: index) else { return false }
            // An answer written right above a header, with no blank line between ("Yes,
            // delete it" / "On Sat, … wrote:"), is the person's when a later line of the
            // window begins as a header begins (an answer of two lines, "Delete list" /
            // "Thanks", above it too); a wrapped header's rest does not ("bot@example.org>
            // wrote:"), and a window that itself begins as a header begins is one, wherever
            // it stands.
            if count > 1, rules.headerWindow(lines, at: index + 1) == count - 1, !rules.startsHeader(lines, at: index, count: count),
               isOwnLine(index) || (1..<count).contains(where: { rules.startsHeader(lines, at: index + $0, count: count - $0, orGroup: true) }) {
                return false
            }
            return headsQuote(index, count)
        }

        // The marker as the message shows it, not quoted: everything below it is ours. A
        // quoted one (`> Reply above this line…`) is part of a quote like any `>` line,
        // with the person's answer below it when they answer at the bottom.
        func isMarker(_ index: Int) -> Bool { !isQuoted(lines[index]) && hasMarker(lines[index]) }
        // Top-posted (the usual case): everything from the first quote down is the quoted
        // message, but for answers between and below its quoted lines.
        var index = 0
        while index < lines.count, !isMarker(index), !startsQuote(index) { index += 1 }
        let above = clean(Array(lines[..<index]), cut: index < lines.count)
        // Bottom-posted or interleaved: the person's lines between and below `>` lines,
        // up to a quoted message that is not marked with `>` (Outlook's) or the marker;
        // with what they wrote above the quote, if anything (each part cleaned of its own
        // signature: "Sent from my iPhone" above the quote goes too).
        if index < lines.count, !isMarker(index) {
            var below: [String] = []
            var line = index
            var quoted = false
            while line < lines.count {
                let current = lines[line]
                if isQuoted(current) {
                    // Kept for ``clean(_:cut:)``, which leaves it out and the blank lines
                    // around it as one.
                    if quoted { below.append(current) }
                    quoted = true
                    line += 1
                    continue
                }
                // A separator right above `>` lines heads them (Zimbra's "----- Original
                // Message -----" over its quoted fields): the answer may be below.
                if line == index, rules.isSeparator(trimmed(current)), line + 1 < lines.count, isQuoted(lines[line + 1]) {
                    line += 1
                    continue
                }
                if hasMarker(current) || rules.isSeparator(trimmed(current)) || rules.isHeaderBlock(lines, at: line) { break }
                if let count = rules.headerWindow(lines, at: line), headsQuote(line, count) {
                    line += count
                    continue
                }
                if quoted { below.append(current) }
                line += 1
            }
            let between = clean(below, cut: true)
            if !between.isEmpty { return above.isEmpty ? between : above + "\n\n" + between }
        }
        return above
    }

    /// Whether a line is quoted (`>`, as every client quotes in plain text).
    static func isQuoted(_ line: String) -> Bool {
        line.utf8.first == UInt8(ascii: ">")
    }

    /// The person's lines as they typed them, without white space at their ends, blank
    /// lines at either end, quoted lines, signatures and what follows a signature
    /// delimiter, and (when a quote was cut off below) the rule left above it.
    private static func clean(_ lines: [String], cut: Bool) -> String {
        let rules = QuoteRules.standard
        var result: [String] = []
        // Whether quoted lines were left out just before: blank lines on both sides of
        // them stand as one.
        var afterQuote = false
        // The last line of text kept: a mobile client's "sent from" there, closing the text
        // above a quote the person answers below ("Sent from my iPhone", then "> On …
        // wrote:" and answers between its lines), goes with the blank lines after it.
        var lastText: Int?
        for line in lines {
            if line == "-- " || line == "--" || line == "—" || line == "__" { break }
            if isQuoted(line) {
                if !afterQuote, let last = lastText, rules.isSentFrom(result[last]) {
                    result.removeSubrange(last...)
                    lastText = nil
                }
                afterQuote = true
                continue
            }
            let line = trimmedEnd(line)
            if afterQuote, line.isEmpty, result.last?.isEmpty ?? true { continue }
            afterQuote = false
            // Gmail's tracking extensions' mark (U+1427), alone on its line.
            if line.unicodeScalars.contains("\u{1427}"), line.trimmingCharacters(in: .whitespaces) == "\u{1427}" { continue }
            if !line.isEmpty { lastText = result.count }
            result.append(line)
        }
        // Lines that close the text: a mobile client's "sent from", a "-Name" signature,
        // the rule above a quoted header block.
        while true {
            while result.last?.isEmpty == true { result.removeLast() }
            guard let last = result.last else { break }
            if rules.isSentFrom(last) || isNameSignature(result) || cut && isRule(last) {
                result.removeLast()
                continue
            }
            break
        }
        guard let first = result.firstIndex(where: { !isBlank($0) }) else { return "" }
        return result[first...].joined(separator: "\n")
    }

    /// Whether the last line of `lines` is a "-Name" signature: a dash, then one to three
    /// words, below the person's text, not the last item of a list of dashes nor the one
    /// item of a list.
    private static func isNameSignature(_ lines: [String]) -> Bool {
        guard let last = lines.last, last.utf8.count <= 60, let first = last.first, "-–—~".contains(first) else { return false }
        guard let previous = lines.dropLast().last(where: { !isBlank($0) }) else { return false }
        // Below a line ending with a colon, the one item of a list ("Add item:" / "- Bread").
        if let start = trimmed(previous).first, "-–—~*•".contains(start) { return false }
        if let end = trimmed(previous).last, ":：".contains(end) { return false }
        return nameSignature.matches(trimmed(last))
    }

    private static let nameSignature = Patterns([#"^[-–—~]\s?\p{L}[\p{L}\p{M}'.]{0,24}(\s\p{L}[\p{L}\p{M}'.]{0,24}){0,2}$"#])

    /// A line drawn of dashes, underscores or equals signs (three or more).
    private static func isRule(_ line: String) -> Bool {
        let line = trimmed(line)
        return line.count >= 3 && line.count <= longestHeader && line.allSatisfy { "-_=*—–".contains($0) }
    }

    /// The longest line (or window of lines) read as a quote header: the longest real
    /// ones, names and addresses wrapped over five lines, stay well under it, and no
    /// pattern is ever tried on more (each costs time in proportion to what it reads).
    static let longestHeader = 600

    /// The text's lines, split at LF, CRLF and CR (by bytes: Foundation's replacing
    /// before a split had cost a third of the time of a reply of many short lines).
    static func lines(_ text: String) -> [String] {
        text.withStoredUTF8 { bytes in
            var lines: [String] = []
            var start = 0, index = 0
            while index < bytes.count {
                let byte = bytes[index]
                guard byte == 0x0A || byte == 0x0D else {
                    index += 1
                    continue
                }
                // A break is never inside a character: each line is whole UTF-8.
                lines.append(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self))
                index += byte == 0x0D && index + 1 < bytes.count && bytes[index + 1] == 0x0A ? 2 : 1
                start = index
            }
            lines.append(String(decoding: UnsafeBufferPointer(rebasing: bytes[start...]), as: UTF8.self))
            return lines
        }
    }

    /// Without white space at either end (Swift's own test, not Foundation's: this runs
    /// on every line).
    static func trimmed(_ line: String) -> String {
        if line.withStoredUTF8({ !$0.isEmpty && isVisibleASCII($0[0]) && isVisibleASCII($0[$0.count - 1]) }) { return line }
        guard let first = line.firstIndex(where: { !$0.isWhitespace || $0.isNewline }) else { return "" }
        let last = line.lastIndex(where: { !$0.isWhitespace || $0.isNewline })!
        return first == line.startIndex && last == line.index(before: line.endIndex) ? line : String(line[first...last])
    }

    /// Without white space at its end.
    static func trimmedEnd(_ line: String) -> String {
        if line.withStoredUTF8({ !$0.isEmpty && isVisibleASCII($0[$0.count - 1]) }) { return line }
        guard let last = line.lastIndex(where: { !$0.isWhitespace || $0.isNewline }) else { return "" }
        return last == line.index(before: line.endIndex) ? line : String(line[...last])
    }

    /// Whether a line holds only white space.
    static func isBlank(_ line: String) -> Bool {
        if line.withStoredUTF8({ $0.contains(where: isVisibleASCII) }) { return false }
        return line.allSatisfy { $0.isWhitespace && !$0.isNewline }
    }

    /// A byte of `!` to `~`. The Character holding it is never white space:
    /// `Character.isWhitespace` is its first scalar's, and by Unicode's grapheme rules
    /// (UAX #29) such a byte joins no white space before it in one Character (it is
    /// neither a mark nor a joiner). So a line starting and ending with one needs no
    /// trimming, and a line holding one is not blank: the test spares most lines the
    /// grapheme breaking of a Character scan (1,400 instructions a line, 30,000 lines
    /// over 3,000 replies; callgrind).
    static func isVisibleASCII(_ byte: UInt8) -> Bool {
        byte >= 0x21 && byte <= 0x7E
    }

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
            // Appended to the line run on so far, not copied with it: `last + line` copied
            // the whole of it at each soft line (quadratic in a paragraph's length).
            if open, var last = lines.popLast() {
                last += line
                line = last
            }
            lines.append(line)
            open = soft
        }
        return lines.joined(separator: "\n")
    }

    /// Regular expressions matched without regard to case, compiled when first tried: a
    /// reply meets the patterns of a language or two, and compiling every language's at
    /// start had been a twentieth of a one-message `chime ingest` (an MTA's pipe starts
    /// one a message). Compiled once, then shared by every thread (`NSRegularExpression`
    /// is immutable).
    struct Patterns: @unchecked Sendable { // compiled expressions are immutable
        /// The compiled expressions (the tables' tests compile every one).
        var expressions: [NSRegularExpression] { compiled.value }
        private let compiled: Lazily<[NSRegularExpression]>

        init(_ patterns: [String]) {
            // The patterns are Chime's own, each compiled by the tests: a failure is a
            // broken build, not bad input.
            // swiftlint:disable:next force_try
            compiled = Lazily { patterns.map { try! NSRegularExpression(pattern: $0, options: [.caseInsensitive]) } }
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
