import ChimeCore
import Foundation

/// The tables of ``QuoteLanguage`` compiled once, and the tests a reply's lines are put
/// to: "On … wrote:" headers (wrapped over up to five lines), header blocks, separators,
/// forwarded-message lines and mobile signatures.
///
/// Every test reads at most ``ReplyText/longestHeader`` bytes of a line or window, and
/// only windows that pass a byte pre-check (a colon at the end, a verb of writing near
/// it) meet a regular expression: time stays in proportion to the reply's length.
struct QuoteRules: Sendable {
    /// Each table's "wrote" patterns behind its own verbs: a window meets only the
    /// patterns of the tables whose verb it holds, not every language's.
    let wrote: [(verbs: [[UInt8]], patterns: ReplyText.Patterns)]
    /// The headers of ``wrote`` that begin with a word of their own or the date ("On …",
    /// "Le …", "Am …", "2025年…"), not with the sender's name (".{1,300} wrote:"): a
    /// window matching one of them starts a header where it starts.
    let leadingWrote: ReplyText.Patterns
    /// ``leadingWrote`` and the headers that begin with one of a few words ("Il giorno …",
    /// "Em seg., …", "W dniu …", "在 …"): a window whose later line begins so starts there,
    /// the lines above it the person's; but the person's own "A lista …" or "Il latte …"
    /// begins so too, so a window beginning so is not one for that alone.
    let startingWrote: ReplyText.Patterns
    let from: Set<String>
    let dated: Set<String>
    let fields: Set<String>
    let separators: Set<String>
    let forwarded: Set<String>
    let sentFromStarts: [String]
    let sentFromEnds: [String]
    let sentWithStarts: [String]
    let sentWithEnds: [String]
    /// Outlook mobile's signatures, each as ``signatureKey(_:)`` reads a line: made when a
    /// line first names Outlook (making them was a twentieth of a one-message `chime
    /// ingest`).
    var outlookSignatures: Set<String> { signatures.value }
    private let signatures: Lazily<Set<String>>

    init(_ tables: [QuoteLanguage]) {
        wrote = tables.filter { !$0.wrote.isEmpty }.map { table in
            (Array(Set(table.verbs.map { $0.lowercased() })).map { Array($0.utf8) }, ReplyText.Patterns(table.wrote))
        }
        leadingWrote = ReplyText.Patterns(tables.flatMap(\.wrote).filter { Self.isLeading($0) })
        startingWrote = ReplyText.Patterns(tables.flatMap(\.wrote).filter { Self.isLeading($0, orGroup: true) })
        from = Set(tables.flatMap(\.from).map { $0.lowercased() })
        dated = Set(tables.flatMap(\.dated).map { $0.lowercased() })
        fields = Set(tables.flatMap(\.fields).map { $0.lowercased() })
        separators = Set(tables.flatMap(\.separators).map { $0.lowercased() })
        forwarded = Set(tables.flatMap(\.forwarded).map { $0.lowercased() })
        sentFromStarts = tables.flatMap(\.sentFromStarts).map { $0.lowercased().precomposed }
        sentFromEnds = tables.flatMap(\.sentFromEnds).map { $0.lowercased().precomposed }
        sentWithStarts = tables.flatMap(\.sentWithStarts).map { $0.lowercased().precomposed }
        sentWithEnds = tables.flatMap(\.sentWithEnds).map { $0.lowercased().precomposed }
        let outlook = tables.flatMap(\.getOutlook)
        signatures = Lazily {
            Set(outlook.flatMap { line in ["iOS", "Android"].map { Self.signatureKey(line.replacingOccurrences(of: "{os}", with: $0)) } })
        }
    }

    static let standard = QuoteRules(QuoteLanguage.tables)

    /// How many lines from `index` (one to five, no blank line among them) make an
    /// "On … wrote:" header, or nil.
    func wroteWindow(_ lines: [String], at index: Int) -> Int? {
        Self.mayEndWindow(lines, at: index) ? joinedWindow(lines, at: index) : nil
    }

    /// How many lines from `index` make a quote header: a language's "On … wrote:"
    /// (``joinedWindow(_:at:)``), else one of a language without a table that names an
    /// address (``addressedHeader(_:at:)``); nil when none.
    func headerWindow(_ lines: [String], at index: Int) -> Int? {
        guard Self.mayEndWindow(lines, at: index) else { return nil }
        return joinedWindow(lines, at: index) ?? Self.addressedHeader(lines, at: index)
    }

    /// An "On … wrote:" header of a language without a table (Gmail's Catalan "…
    /// (<bot@example.org>) va escriure:", Lithuanian's "… rašė:"): up to three lines that,
    /// joined, end with a colon and name an address, right above `>` lines. A first line
    /// without a digit (a header's has its date) that the window would match without is
    /// the person's own, written right above it ("Fet").
    static func addressedHeader(_ lines: [String], at index: Int) -> Int? {
        guard let count = addressedWindow(lines, at: index) else { return nil }
        if count > 1, addressedWindow(lines, at: index + 1) == count - 1, !lines[index].contains(where: \.isNumber) { return nil }
        return count
    }

    /// ``addressedHeader(_:at:)``'s window, whoever wrote its first line.
    private static func addressedWindow(_ lines: [String], at index: Int) -> Int? {
        var joined = ""
        for next in index..<min(index + 3, lines.count) {
            let line = ReplyText.trimmed(lines[next])
            guard !line.isEmpty, !ReplyText.isQuoted(line), line.utf8.count <= ReplyText.longestHeader - joined.utf8.count else { return nil }
            joined += (joined.isEmpty ? "" : " ") + line
            guard joined.hasSuffix(":") || joined.hasSuffix("：") else { continue }
            guard joined.contains("@") else { return nil }
            var after = next + 1
            while after < lines.count && ReplyText.isBlank(lines[after]) { after += 1 }
            return after < lines.count && ReplyText.isQuoted(lines[after]) ? next - index + 1 : nil
        }
        return nil
    }

    /// Whether a header pattern begins with a word or a date of its own: `^on\s`,
    /// `^\d{4}`, not `^.{1,300}` nor `^[^:]{1,200}` (a name); with `orGroup`, one of a
    /// group of words too: `^(w dniu|dnia)`.
    static func isLeading(_ pattern: String, orGroup: Bool = false) -> Bool {
        guard pattern.hasPrefix("^") else { return false }
        var rest = pattern.dropFirst()
        if orGroup, rest.hasPrefix("(") { rest = rest.dropFirst() }
        guard let first = rest.first else { return false }
        return first.isLetter || rest.hasPrefix("\\d")
    }

    /// Whether the `count` lines from `index`, joined, are a header that begins as a
    /// header begins (``leadingWrote``): then a line above them that a window would
    /// also take in is the person's answer, written right above the header.
    func startsHeader(_ lines: [String], at index: Int, count: Int, orGroup: Bool = false) -> Bool {
        guard count > 0, index + count <= lines.count else { return false }
        let joined = lines[index..<(index + count)].map(Self.windowLine).joined(separator: " ")
        guard joined.utf8.count <= ReplyText.longestHeader else { return false }
        return (orGroup ? startingWrote : leadingWrote).matches(joined)
    }

    /// A line as a header's window joins it: trimmed, without direction marks.
    static func windowLine(_ line: String) -> String {
        withoutDirectionMarks(ReplyText.trimmed(line))
    }

    /// ``wroteWindow(_:at:)`` without its pre-check: each window's lines joined and tried.
    func joinedWindow(_ lines: [String], at index: Int) -> Int? {
        var joined = ""
        for next in index..<min(index + 5, lines.count) {
            guard lines[next].utf8.count <= ReplyText.longestHeader else { return nil }
            let line = Self.windowLine(lines[next])
            if line.isEmpty { return nil }
            joined += (joined.isEmpty ? "" : " ") + line
            guard joined.utf8.count <= ReplyText.longestHeader else { return nil }
            if joined.hasSuffix(":") || joined.hasSuffix("："), isWrote(joined) { return next - index + 1 }
            // "2025/4/7 Name <addr>" above `|`-quoted lines.
            if joined.hasSuffix(">"), next + 1 < lines.count, lines[next + 1].hasPrefix("|"), isWrote(joined + ":") { return next - index + 1 }
        }
        return nil
    }

    /// Whether a window from `index` might end before a blank line: at a line whose last
    /// byte, ASCII white space aside, is a colon, a `>` or beyond ASCII (a full-width
    /// colon, a direction mark, white space that ``ReplyText/trimmed(_:)`` takes off). Any
    /// other byte ends its line with neither colon nor `>`, trimmed or not. Most windows
    /// have no such line, and are spared the joining of ``wroteWindow(_:at:)``.
    static func mayEndWindow(_ lines: [String], at index: Int) -> Bool {
        for line in lines[index..<min(index + 5, lines.count)] {
            guard let last = line.utf8.last(where: { !(0x09...0x0D).contains($0) && $0 != 0x20 }) else { return false }
            if last == UInt8(ascii: ":") || last == UInt8(ascii: ">") || last >= 0x80 { return true }
        }
        return false
    }

    /// Whether a whole window (its colon included) is an "On … wrote:" header.
    func isWrote(_ window: String) -> Bool {
        // Bytes, ASCII letters lowered: every header names its verb within its last 270
        // bytes.
        let tail = window.utf8.suffix(270).map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }
        return wrote.contains { table in table.verbs.contains { Bytes.contains(tail, $0) } && table.patterns.matches(window) }
    }

    /// A quoted message's header block (in any of the languages): Outlook's, `From:` then
    /// within the next six lines a date field, or two other fields (`To:`, `Subject:`);
    /// or GMX's, web.de's and mail.com's, the date first (`Gesendet:`, `Sent:`), then
    /// within the next six lines `From:` and another field.
    func isHeaderBlock(_ lines: [String], at index: Int) -> Bool {
        guard let name = Self.fieldName(lines[index]) else { return false }
        let fromFirst = from.contains(name)
        guard fromFirst || dated.contains(name) else { return false }
        var others = 0, sawFrom = fromFirst
        for next in (index + 1)..<min(index + 7, lines.count) {
            guard let field = Self.fieldName(lines[next]) else { continue }
            if fromFirst, dated.contains(field) { return true }
            if from.contains(field) { sawFrom = true } else if fields.contains(field) { others += 1 }
            if fromFirst ? others >= 2 : sawFrom && others >= 1 { return true }
        }
        return false
    }

    /// A separator line: Outlook's rule of underscores, `-----Original Message-----` and
    /// its translations, Zoho's `---- On … wrote ----`, `Begin forwarded message:`.
    func isSeparator(_ line: String) -> Bool {
        let bytes = line.utf8
        guard let first = bytes.first, bytes.count <= ReplyText.longestHeader else { return false }
        if bytes.count >= 20, bytes.allSatisfy({ $0 == UInt8(ascii: "_") }) { return true }
        let rules = Self.ruleBytes
        if rules.contains(first) {
            var inner = Substring(line)
            while let character = inner.first, character.isASCII, rules.contains(character.asciiValue!) { inner.removeFirst() }
            while let character = inner.last, character.isASCII, rules.contains(character.asciiValue!) { inner.removeLast() }
            // QQ Mail's "------------------\u{A0}原始邮件\u{A0}------------------": spaces of any
            // kind between the rules and the words.
            while inner.first?.isWhitespace == true { inner.removeFirst() }
            while inner.last?.isWhitespace == true { inner.removeLast() }
            guard !inner.isEmpty, inner.count < line.count - 3 else { return false }
            let content = Self.lowered(inner)
            if separators.contains(content) { return true }
            let window = content.hasSuffix(":") ? content : content + ":"
            return isWrote(window)
        }
        guard bytes.count <= 120 else { return false }
        var content = Self.lowered(Substring(withoutDirectionMarks(line)))
        while content.hasSuffix(":") || content.hasSuffix("：") || content.hasSuffix(" ") { content.removeLast() }
        return forwarded.contains(content)
    }

    /// Lower case as the tables write it: Turkish's dotted capital İ lowers to i and a
    /// combining dot (U+0307), which no table has ("-----Özgün İleti-----").
    static func lowered(_ text: Substring) -> String {
        let lower = text.lowercased()
        guard lower.unicodeScalars.contains("\u{307}") else { return lower }
        return String(String.UnicodeScalarView(lower.unicodeScalars.filter { $0 != "\u{307}" }))
    }

    /// What a separator's rule is drawn with, around its words.
    private static let ruleBytes: Set<UInt8> = [UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "*"), UInt8(ascii: "="), UInt8(ascii: " ")]

    /// A mobile client's "Sent from my iPhone", in any of the languages, as a line of its
    /// own: short, and either naming a device or an app, or without the comma and the full
    /// stop of a sentence ("Sent from my office, the printer works again." is the
    /// person's).
    func isSentFrom(_ line: String) -> Bool {
        guard line.utf8.count <= 300 else { return false }
        // Every Outlook line names Outlook, in Latin letters.
        if Bytes.contains(line.utf8, "utlook".utf8), outlookSignatures.contains(Self.signatureKey(line)) { return true }
        // In NFC, as the tables are: their phrases are looked for byte by byte first.
        let written = ReplyText.trimmed(line)
        let line = written.lowercased().precomposed
        // K-9's "Sent from my Android device with K-9 Mail. Please excuse my brevity." runs
        // longer in most languages; a line that long names its app.
        guard line.count <= 100 else { return false }
        var bare = Substring(line)
        while let last = bare.last, ".!".contains(last) { bare.removeLast() }
        // A beginning is followed by a space, but in scripts without spaces between words
        // (beyond U+02FF: Hebrew "נשלח מה-iPhone", Thai, Chinese).
        // The bytes first: a phrase that begins (ends) the line as characters begins (ends)
        // it in NFC bytes, and comparing characters costs 20 times more.
        // And their first (last) byte before that: most of the hundreds of phrases
        // differ there, and a generic comparison of two UTF-8 views costs 100 times more.
        let (first, last) = (bare.utf8.first, bare.utf8.last)
        func starts(_ start: String) -> Bool {
            start.utf8.first == first && bare.utf8.starts(with: start.utf8) && bare.hasPrefix(start)
                && (start.unicodeScalars.first!.value > 0x2FF || bare.dropFirst(start.count).first.map { $0 == " " } ?? true)
        }
        func ends(_ end: String) -> Bool {
            end.utf8.last == last && bare.utf8.count >= end.utf8.count && bare.utf8.suffix(end.utf8.count).elementsEqual(end.utf8)
                && bare.hasSuffix(end)
        }
        // Both in NFC: a byte search finds what Foundation's `contains` would.
        func naming() -> Bool { Self.devices.contains { line.containsBytes($0) } }
        // The tables give a longer beginning before its shorter forms ("sent from my",
        // "sent from"): the first found is the phrase.
        let start = sentFromStarts.first(where: starts)
        guard let phrase = start ?? sentFromEnds.first(where: ends) else {
            return (sentWithStarts.contains(where: starts) || sentWithEnds.contains(where: ends)) && naming()
        }
        // Naming one, it may go on after a comma ("… Galaxy, an AT&T 5G Evolution capable
        // smartphone"), but not after a colon (a link's aside: "Sent from Mail<https://…> for
        // Windows"): "Enviado desde el celular de mi esposa: leche y pan" is the person's.
        if naming() { return !line.containsBytes(": ") && !line.containsBytes("：") && !line.hasSuffix(":") }
        // Naming no device, a signature names it in a word or three ("Sent from my Nokia",
        // "Von meinem Fairphone gesendet") and reads as no sentence: "Von meinem Bruder habe
        // ich nichts gehört" is the person's.
        let all = bare.split(separator: " ")
        let words = all.count - phrase.split(separator: " ").count
        guard words <= 3, line.count <= 70, !line.containsBytes(","), !line.containsBytes("،"), !line.hasSuffix("."), !line.hasSuffix("?") else { return false }
        // And it is the sender's own device ("my", "mon", "meinem", Turkish's "-umdan"), or a
        // name ("Sent from Nokia", "Enviado desde BlueMail"), or in a script whose phrases
        // leave no room for doubt: "Wurde gestern gesendet", "Enviado desde casa" and
        // "Kargo dün gönderildi" are the person's.
        if phrase.unicodeScalars.first!.value >= 0x590 { return true }
        if all.contains(where: { Self.possessives.contains(String($0)) || $0.hasSuffix("mdan") || $0.hasSuffix("mden") }) { return true }
        guard start != nil else { return false }
        // The phrase alone is one: "Sent on the go".
        guard words > 0 else { return true }
        let cased = written.split(separator: " ")
        guard cased.count == all.count, let after = cased[all.count - words].first else { return false }
        return after.isUppercase || after.isNumber
    }

    /// "My" in the languages of the tables' "sent from my" lines, lower case.
    static let possessives: Set<String> = [
        "my", "mon", "ma", "mes", "mein", "meinem", "meiner", "meinen", "mi", "mis", "mio", "mia", "mío", "mía", "meu", "minha",
        "mijn", "min", "mitt", "mina", "mój", "mojego", "mojej", "mého", "mé", "môjho", "mojho", "мого", "моего", "моей", "мой",
        "моєї", "μου", "minun", "saját", "mele", "meus",
    ]

    /// A line as Outlook mobile's signatures are kept: lowered, without its links
    /// (`Get Outlook for iOS<https://aka.ms/o0ukef>`), white space and closing full stop.
    static func signatureKey(_ line: String) -> String {
        var key = ""
        var inLink = false
        for character in line.lowercased() {
            if character == "<" { inLink = true } else if character == ">" { inLink = false } else if !inLink, !character.isWhitespace {
                key.append(character)
            }
        }
        while let last = key.last, ".!。".contains(last) { key.removeLast() }
        return key
    }

    /// Words naming a device or a mail app, which make a "sent from" line a signature
    /// even with a comma ("Sent from my Galaxy, an AT&T 5G Evolution capable smartphone");
    /// the iPhone's stem, which Czech and Polish decline ("z iPhonu", "z iPhone'a").
    static let devices = ["iphon", "ipad", "android", "samsung", "galaxy", "mobile", "smartphone", "phone", "outlook", "yahoo", "gmail",
                          "mail", "proton", "blackberry", "huawei", "xiaomi", "pixel", "tablet", "ios", "spark", "aol", "k-9", "fastmail",
                          "yandex", "zoho", "windows", "handy", "móvil", "portable", "telefon", "телефон", "мобильн", "手机", "手機", "携帯",
                          "fairemail", "thunderbird", "갤럭시", "почт", "poczt", "メール", "邮箱", "郵件",
                          "icloud", "cellulare", "celular", "teléfono", "telefono", "telefone", "komórk", "mobilger", "mobiln", "планшет",
                          "смартфон", "айфон", "휴대폰", "핸드폰", "טלפון", "هاتف", "جوال"]

    /// The name of the header field a line starts with (`*From:*` → `from`, `De :` →
    /// `de`), read within its first 60 bytes; nil for a line that starts none.
    static func fieldName(_ line: String) -> String? {
        let head = line.utf8.prefix(60)
        guard let colon = head.firstIndex(where: { $0 == UInt8(ascii: ":") }) ?? firstFullWidthColon(head) else { return nil }
        var name = Substring(String(decoding: head[head.startIndex..<colon], as: UTF8.self))
        while let character = name.first, character == "*" || character.isWhitespace || directionMarks.contains(character) { name.removeFirst() }
        while let character = name.last, character == "*" || character.isWhitespace || directionMarks.contains(character) { name.removeLast() }
        guard !name.isEmpty, name.count <= 24 else { return nil }
        return name.lowercased()
    }

    private static func firstFullWidthColon(_ head: Substring.UTF8View.SubSequence) -> String.UTF8View.Index? {
        // "：" is EF BC 9A.
        var index = head.startIndex
        while index < head.endIndex {
            if head[index] == 0xEF {
                let next = head.index(after: index)
                if next < head.endIndex, head[next] == 0xBC {
                    let third = head.index(after: next)
                    if third < head.endIndex, head[third] == 0x9A { return index }
                }
            }
            index = head.index(after: index)
        }
        return nil
    }
}
