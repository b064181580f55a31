/// A page written so that no start tag holds more than ``HTMLText/maximumAttributes``
/// attributes as libxml2 reads it. libxml2 2.9 compares each attribute of a start tag
/// with every one before it: one `<p>` of 700 KB of `aN=x` took 21 s, and of `a=""a0=""…`
/// (no space between them) 6.8 s for 350 KB.
///
/// Counting attributes is only a bound if it counts what libxml2 parses, so the page is
/// read the way libxml2 2.9.14's HTMLparser.c reads it (`htmlParseContentInternal` and the
/// functions it calls), written by hand because no library exposes that reading: a start
/// tag is `<` and an ASCII letter; its name and each attribute name are at most 100
/// characters of letters, digits and `:-_.`; a name starts with a letter or `:_.`; a value
/// follows `=` (blanks around it allowed), quoted to its closing quote or unquoted to a
/// blank or `>`; anything else in a tag is skipped to the next blank; the tag ends at `>`
/// or `/>`. Comments end at the first `-->` or `--!>`; end tags and processing
/// instructions at the next `>`; `<script>` and `<style>` hold text to their end tag.
///
/// Where libxml2's reading depends on more than the bytes before it (DOCTYPE's quoted
/// literals; a `<?` not followed by an ASCII name; inside a script or a style, a `</` that
/// does not end it, and a `<` that starts its text, either of which can close elements
/// libxml2 keeps open), the page is rewritten to have one reading: DOCTYPE written as a
/// space (it carries no text), that `<` written `&lt;`. Each byte is looked at a bounded
/// number of times: the reading is linear in the page.
struct HTMLAttributeBound {
    private let html: [UInt8]
    private var output: [UInt8]?
    private var copied = 0
    private var index = 0

    /// `html` (UTF-8 without NUL) bounded; nil when nothing was rewritten, which is every
    /// real message.
    static func bounded(_ html: [UInt8], maximum: Int) -> [UInt8]? {
        var reading = HTMLAttributeBound(html: html)
        reading.read(maximum: maximum)
        guard var output = reading.output else { return nil }
        output.append(contentsOf: html[reading.copied...])
        return output
    }

    private init(html: [UInt8]) { self.html = html }

    private mutating func read(maximum: Int) {
        while index < html.count {
            guard html[index] == UInt8(ascii: "<"), index + 1 < html.count else {
                index += 1
                continue
            }
            let next = html[index + 1]
            if next == UInt8(ascii: "/") {
                endTag()
            } else if matches("<!doctype", at: index) {
                // A space in its place: left out, it would join the bytes on either side
                // into what was not read (`<<!doctype>p …>` into `<p …>`).
                let end = after(UInt8(ascii: ">"), from: index + 9)
                replace(index..<end, with: [0x20])
                index = end
            } else if matches("<!--", at: index) {
                guard let end = commentEnd(from: index + 4) else { return }
                index = end
            } else if next == UInt8(ascii: "?") {
                processingInstruction()
            } else if isLetter(next) {
                if let raw = startTag(maximum: maximum) { rawText(of: raw) }
            } else {
                index += 1
            }
        }
    }

    /// `</`: with a name, everything to the next `>`; without, the two characters.
    private mutating func endTag() {
        guard index + 2 < html.count, isNameStart(html[index + 2]) else {
            index += 2
            return
        }
        index = after(UInt8(ascii: ">"), from: index + 2)
    }

    /// The end of a comment whose text starts at `start`: after its first `-->` or `--!>`;
    /// nil when it has none (libxml2 reads the rest of the page as the comment).
    private func commentEnd(from start: Int) -> Int? {
        var position = start
        while position + 2 < html.count {
            if html[position] == UInt8(ascii: "-"), html[position + 1] == UInt8(ascii: "-") {
                if html[position + 2] == UInt8(ascii: ">") { return position + 3 }
                if html[position + 2] == UInt8(ascii: "!"), position + 3 < html.count, html[position + 3] == UInt8(ascii: ">") { return position + 4 }
            }
            position += 1
        }
        return nil
    }

    /// `<?`: an ASCII name makes it an instruction, to the next `>`; any other ASCII
    /// character leaves the two characters as text. libxml2 reads a name starting beyond
    /// ASCII by Unicode's letters: that `<` is written `&lt;`.
    private mutating func processingInstruction() {
        guard index + 2 < html.count else {
            index += 2
            return
        }
        let first = html[index + 2]
        if isLetter(first) || first == UInt8(ascii: "_") || first == UInt8(ascii: ":") {
            index = after(UInt8(ascii: ">"), from: index + 2)
        } else if first >= 0x80 {
            escapeOpeningBracket()
        } else {
            index += 2
        }
    }

    /// A start tag at `index`, its attributes past `maximum` cut (the tag closed with `>`
    /// where the first of them began); `index` after it. Returns `script` or `style` when
    /// the tag opens one, whose text follows.
    private mutating func startTag(maximum: Int) -> [UInt8]? {
        var position = index + 1
        let name = nameEnd(from: position)
        let tagName = html[position..<name].map { $0 | 0x20 }
        position = blanksEnd(from: name)
        var attributes = 0
        var cut: Int?
        while position < html.count, html[position] != UInt8(ascii: ">"), !closesEmpty(at: position) {
            if isNameStart(html[position]) {
                attributes += 1
                if attributes > maximum, cut == nil { cut = position }
                position = blanksEnd(from: nameEnd(from: position))
                if position < html.count, html[position] == UInt8(ascii: "=") {
                    position = valueEnd(from: blanksEnd(from: position + 1))
                }
            } else {
                while position < html.count, !isBlank(html[position]), html[position] != UInt8(ascii: ">"), !closesEmpty(at: position) {
                    position += 1
                }
            }
            position = blanksEnd(from: position)
        }
        let empty = closesEmpty(at: position)
        let end = min(position + (empty ? 2 : 1), html.count)
        if let cut {
            replace(cut..<end, with: [UInt8(ascii: ">")])
        }
        index = end
        let opensText = cut != nil || (position < html.count && !empty)
        return opensText && (tagName == Array("script".utf8) || tagName == Array("style".utf8)) ? tagName : nil
    }

    /// The text of a script or style, from `index` to its end tag (`</script` and a
    /// character that is not a name's), after which `index` stands. libxml2 reads the text
    /// to the first `</` and the element's name; a longer name there (`</scripts`) and a
    /// `<` at the text's start are read as tags of their own.
    private mutating func rawText(of name: [UInt8]) {
        if index < html.count, html[index] == UInt8(ascii: "<"), closingTag(of: name, at: index) != true {
            escapeOpeningBracket()
        }
        while index < html.count {
            guard html[index] == UInt8(ascii: "<"), let exact = closingTag(of: name, at: index) else {
                index += 1
                continue
            }
            if exact {
                endTag()
                return
            }
            escapeOpeningBracket()
        }
    }

    /// Whether `</` and `name` (without case) stand at `position`: true when the name ends
    /// there, false when a longer name starts with it, nil when neither.
    private func closingTag(of name: [UInt8], at position: Int) -> Bool? {
        let nameStart = position + 2, after = nameStart + name.count
        guard after <= html.count, html[position + 1] == UInt8(ascii: "/"),
              zip(html[nameStart..<after], name).allSatisfy({ $0 | 0x20 == $1 }) else { return nil }
        return after == html.count || !isNameCharacter(html[after])
    }

    /// A value starting at `position`: quoted to its closing quote (or the page's end), or
    /// unquoted to a blank or `>`.
    private func valueEnd(from position: Int) -> Int {
        guard position < html.count else { return position }
        let quote = html[position]
        if quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") {
            return after(quote, from: position + 1)
        }
        var end = position
        while end < html.count, !isBlank(html[end]), html[end] != UInt8(ascii: ">") { end += 1 }
        return end
    }

    /// The end of a name starting at `position`, at most 100 characters long (libxml2 reads
    /// what follows as the next name).
    private func nameEnd(from position: Int) -> Int {
        var end = position
        while end < html.count, end - position < 100, isNameCharacter(html[end]) { end += 1 }
        return end
    }

    private func blanksEnd(from position: Int) -> Int {
        var end = position
        while end < html.count, isBlank(html[end]) { end += 1 }
        return end
    }

    private func closesEmpty(at position: Int) -> Bool {
        position + 1 < html.count && html[position] == UInt8(ascii: "/") && html[position + 1] == UInt8(ascii: ">")
    }

    /// Just after the first `byte` from `position`; the page's end when there is none.
    private func after(_ byte: UInt8, from position: Int) -> Int {
        guard position < html.count, let found = html[position...].firstIndex(of: byte) else { return html.count }
        return found + 1
    }

    /// Whether `text` (lowercase ASCII) stands at `position`, letters compared without case.
    private func matches(_ text: String, at position: Int) -> Bool {
        let expected = text.utf8
        guard position + expected.count <= html.count else { return false }
        return zip(html[position...], expected).allSatisfy { byte, expected in
            (isLetter(byte) ? byte | 0x20 : byte) == expected
        }
    }

    /// The `<` at `index` written `&lt;`, after which `index` stands.
    private mutating func escapeOpeningBracket() {
        replace(index..<(index + 1), with: Array("&lt;".utf8))
        index += 1
    }

    private mutating func replace(_ range: Range<Int>, with bytes: [UInt8]) {
        if output == nil { output = []; output!.reserveCapacity(html.count + 16) }
        output!.append(contentsOf: html[copied..<range.lowerBound])
        output!.append(contentsOf: bytes)
        copied = range.upperBound
    }

    private func isLetter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
    }

    private func isNameStart(_ byte: UInt8) -> Bool {
        isLetter(byte) || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ":") || byte == UInt8(ascii: ".")
    }

    private func isNameCharacter(_ byte: UInt8) -> Bool {
        isNameStart(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "-")
    }

    /// libxml2's blank: space, tab, line feed, carriage return (not form feed).
    private func isBlank(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }
}
