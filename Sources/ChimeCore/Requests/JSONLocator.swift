/// Places in JSON text, so that a request file's errors can say `r.json:3:17`:
/// where its syntax first goes wrong (Foundation's decoder says only that it is not
/// valid), and where the value or field name at a coding path starts.
struct JSONLocator {
    /// One step of a coding path: an object's field or an array's element.
    enum Step: Hashable {
        case field(String)
        case element(Int)
    }

    /// Why the text is not JSON, or nests too deep, at a byte offset.
    struct SyntaxError: Error {
        var offset: Int
        var message: String
        /// The text broke no rule of JSON's but nests deeper than ``deepest``.
        var tooDeep = false
    }

    /// How deep arrays and objects may nest: a request is a few levels, its userInfo a
    /// few more. The reading here is recursive, and Foundation's decoder refuses 512
    /// levels and on Linux then crashes working out where (found by fuzzing): deeper
    /// text is refused at the bracket that opens level 65, before either goes further.
    static let deepest = 64

    private let bytes: [UInt8]
    private var index = 0
    private var path: [Step] = []
    private let targets: Set<[Step]>
    /// Where the value at each of `targets` starts, and its field name when it is an object's.
    private var values: [[Step]: Int] = [:]
    private var names: [[Step]: Int] = [:]
    /// The first field an object gives twice: its path and where its second name starts.
    private var duplicate: (path: [Step], offset: Int)?

    private init(_ bytes: [UInt8], targets: Set<[Step]>) {
        self.bytes = bytes
        self.targets = targets
    }

    /// The byte offset where the value at `path` starts (or, with `name`, its field name);
    /// nil when the text has no such value before a syntax error.
    static func offset(of path: [Step], name: Bool = false, in bytes: [UInt8]) -> Int? {
        let found = offsets(of: [path], in: bytes)
        return name ? found.names[path] ?? found.values[path] : found.values[path]
    }

    /// In one pass, where the value at each of `paths` starts, and the field name of each
    /// that is an object's; those the text has before a syntax error.
    static func offsets(of paths: Set<[Step]>, in bytes: [UInt8]) -> (values: [[Step]: Int], names: [[Step]: Int]) {
        var locator = JSONLocator(bytes, targets: paths)
        try? locator.document()
        return (locator.values, locator.names)
    }

    /// In one pass: the first syntax error of the text (nil when it is JSON), and the
    /// first field an object of the text gives twice (RFC 8259 leaves what it means to
    /// the reader, and readers differ: Foundation keeps the first, many others the last),
    /// with where its second name starts.
    static func scan(_ bytes: [UInt8]) -> (syntaxError: SyntaxError?, duplicate: (path: [Step], offset: Int)?) {
        var locator = JSONLocator(bytes, targets: [])
        do {
            try locator.document()
            return (nil, locator.duplicate)
        } catch {
            return (error, locator.duplicate)
        }
    }

    /// The 1-based line and column of a byte offset, counting characters as Unicode
    /// scalars (bytes that do not continue a UTF-8 sequence).
    static func lineAndColumn(of offset: Int, in bytes: [UInt8]) -> (line: Int, column: Int) {
        linesAndColumns(of: [offset], in: bytes)[offset]!
    }

    /// ``lineAndColumn(of:in:)`` of each offset, in one pass over the text.
    static func linesAndColumns(of offsets: some Sequence<Int>, in bytes: [UInt8]) -> [Int: (line: Int, column: Int)] {
        var found: [Int: (line: Int, column: Int)] = [:]
        var line = 1, column = 1, position = 0
        for offset in Set(offsets).sorted() {
            while position < min(offset, bytes.count) {
                if bytes[position] == UInt8(ascii: "\n") {
                    line += 1
                    column = 1
                } else if bytes[position] & 0xC0 != 0x80 {
                    column += 1
                }
                position += 1
            }
            found[offset] = (line, column)
        }
        return found
    }

    // MARK: The grammar of RFC 8259

    private mutating func document() throws(SyntaxError) {
        space()
        try element()
        space()
        if index < bytes.count { throw failure(expected: "the end of the file after the JSON value") }
    }

    private mutating func element() throws(SyntaxError) {
        if !targets.isEmpty, targets.contains(path) { values[path] = index }
        guard index < bytes.count else { throw failure(expected: "a value") }
        let opens = bytes[index] == UInt8(ascii: "{") || bytes[index] == UInt8(ascii: "[")
        if opens, path.count >= Self.deepest {
            throw SyntaxError(offset: index, message: "arrays and objects nested deeper than \(Self.deepest) levels", tooDeep: true)
        }
        switch bytes[index] {
        case UInt8(ascii: "{"): try object()
        case UInt8(ascii: "["): try array()
        case UInt8(ascii: "\""): _ = try string()
        case UInt8(ascii: "t"): try literal("true")
        case UInt8(ascii: "f"): try literal("false")
        case UInt8(ascii: "n"): try literal("null")
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try number()
        default: throw failure(expected: "a value (a string in double quotes, a number, true, false, null, an object or an array)")
        }
    }

    private mutating func object() throws(SyntaxError) {
        index += 1
        space()
        if next(is: "}") { return }
        var keys = Set<String>()
        while true {
            space()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                throw failure(expected: "a field name in double quotes")
            }
            let start = index
            let key = try string()
            space()
            guard next(is: ":") else { throw failure(expected: ": after the field name") }
            space()
            path.append(.field(key))
            if !targets.isEmpty, targets.contains(path) { names[path] = start }
            if !keys.insert(key).inserted, duplicate == nil { duplicate = (path, start) }
            try element()
            path.removeLast()
            space()
            if next(is: ",") { continue }
            if next(is: "}") { return }
            throw failure(expected: ", or } after a field")
        }
    }

    private mutating func array() throws(SyntaxError) {
        index += 1
        space()
        if next(is: "]") { return }
        var count = 0
        while true {
            space()
            path.append(.element(count))
            try element()
            path.removeLast()
            count += 1
            space()
            if next(is: ",") { continue }
            if next(is: "]") { return }
            throw failure(expected: ", or ] after an element")
        }
    }

    /// A string's text (escapes read, enough to compare field names).
    private mutating func string() throws(SyntaxError) -> String {
        let start = index
        index += 1
        var text: [UInt8] = []
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                return String(decoding: text, as: UTF8.self)
            case UInt8(ascii: "\\"):
                guard index + 1 < bytes.count else { break }
                let escaped = bytes[index + 1]
                if escaped == UInt8(ascii: "u") {
                    let hex = bytes[min(index + 2, bytes.count)..<min(index + 6, bytes.count)]
                    guard var code = Self.hexValue(hex) else {
                        throw failure("\\u must be followed by four hexadecimal digits")
                    }
                    // A character beyond U+FFFF is two escapes, a high surrogate then a low
                    // one; either alone is no character, and Foundation refuses the text.
                    if (0xDC00...0xDFFF).contains(code) { throw failure("a lone low surrogate \\u\(String(decoding: hex, as: UTF8.self)) (no character)") }
                    if (0xD800...0xDBFF).contains(code) {
                        let low = bytes[min(index + 6, bytes.count)..<min(index + 12, bytes.count)]
                        guard low.count == 6, low.first == UInt8(ascii: "\\"), low.dropFirst().first == UInt8(ascii: "u"),
                              let second = Self.hexValue(low.dropFirst(2)), (0xDC00...0xDFFF).contains(second) else {
                            throw failure("a lone high surrogate \\u\(String(decoding: hex, as: UTF8.self)) (no character: a low one, \\uDC00 to \\uDFFF, must follow)")
                        }
                        code = 0x10000 + ((code - 0xD800) << 10) + (second - 0xDC00)
                        index += 6
                    }
                    text += Array(String(Unicode.Scalar(code).map(Character.init) ?? "\u{FFFD}").utf8)
                    index += 6
                    continue
                }
                guard let meaning = Self.escapes[escaped] else { throw failure("\\\(Character(Unicode.Scalar(escaped))) is not an escape of JSON") }
                text.append(meaning)
                index += 2
                continue
            case 0..<0x20:
                throw failure("a control character inside a string (write it as \\n, \\t or \\u00XX)")
            case 0x80...:
                guard let length = scalarLength(at: index) else {
                    throw failure("a byte that is not UTF-8 (the text must be UTF-8)")
                }
                text += bytes[index..<index + length]
                index += length
                continue
            default:
                text.append(byte)
                index += 1
                continue
            }
            break
        }
        throw SyntaxError(offset: start, message: "a string that never ends (no closing \")")
    }

    /// The length of the well-formed UTF-8 sequence starting at `offset` (the Unicode
    /// Standard's table 3-7: no overlong forms, no surrogates, nothing past U+10FFFF);
    /// nil when none starts there. Foundation refuses text that is not UTF-8.
    private func scalarLength(at offset: Int) -> Int? {
        let length: Int, second: ClosedRange<UInt8>
        switch bytes[offset] {
        case 0xC2...0xDF: (length, second) = (2, 0x80...0xBF)
        case 0xE0: (length, second) = (3, 0xA0...0xBF)
        case 0xE1...0xEC, 0xEE...0xEF: (length, second) = (3, 0x80...0xBF)
        case 0xED: (length, second) = (3, 0x80...0x9F)
        case 0xF0: (length, second) = (4, 0x90...0xBF)
        case 0xF1...0xF3: (length, second) = (4, 0x80...0xBF)
        case 0xF4: (length, second) = (4, 0x80...0x8F)
        default: return nil
        }
        guard offset + length <= bytes.count, second.contains(bytes[offset + 1]),
              bytes[offset + 2..<offset + length].allSatisfy({ (0x80...0xBF).contains($0) }) else { return nil }
        return length
    }

    /// Four hexadecimal digits' value (`UInt32(_:radix:)` would take a sign too).
    private static func hexValue(_ digits: ArraySlice<UInt8>) -> UInt32? {
        guard digits.count == 4 else { return nil }
        var value: UInt32 = 0
        for digit in digits {
            let nibble: UInt8
            switch digit {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): nibble = digit - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): nibble = digit - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): nibble = digit - UInt8(ascii: "A") + 10
            default: return nil
            }
            value = value << 4 | UInt32(nibble)
        }
        return value
    }

    private static let escapes: [UInt8: UInt8] = [
        UInt8(ascii: "\""): UInt8(ascii: "\""), UInt8(ascii: "\\"): UInt8(ascii: "\\"), UInt8(ascii: "/"): UInt8(ascii: "/"),
        UInt8(ascii: "b"): 0x08, UInt8(ascii: "f"): 0x0C, UInt8(ascii: "n"): 0x0A, UInt8(ascii: "r"): 0x0D, UInt8(ascii: "t"): 0x09,
    ]

    private mutating func number() throws(SyntaxError) {
        let start = index
        _ = next(is: "-")
        let integer = index
        let count = digits()
        guard count > 0 else { throw SyntaxError(offset: start, message: "a number needs digits") }
        if count > 1, bytes[integer] == UInt8(ascii: "0") {
            throw SyntaxError(offset: start, message: "a number that starts with 0 before other digits (write 1, not 01)")
        }
        if next(is: "."), digits() == 0 { throw failure("a number needs digits after its decimal point") }
        var exponent = false
        if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "e") {
            index += 1
            if !next(is: "+") { _ = next(is: "-") }
            if digits() == 0 { throw failure("a number needs digits in its exponent") }
            exponent = true
        }
        // Beyond a double's range (1e400, or 400 digits), which Foundation refuses.
        if exponent || index - start > 300, !(Double(String(decoding: bytes[start..<index], as: UTF8.self))?.isFinite ?? false) {
            throw SyntaxError(offset: start, message: "a number too large to be read (beyond ±1.8e308)")
        }
    }

    private mutating func digits() -> Int {
        let start = index
        while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
        return index - start
    }

    private mutating func literal(_ word: String) throws(SyntaxError) {
        guard bytes[index...].starts(with: word.utf8) else {
            throw failure(expected: word)
        }
        index += word.utf8.count
    }

    private mutating func space() {
        while index < bytes.count, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[index]) { index += 1 }
    }

    /// Takes the next byte when it is `character`.
    private mutating func next(is character: Unicode.Scalar) -> Bool {
        guard index < bytes.count, bytes[index] == UInt8(ascii: character) else { return false }
        index += 1
        return true
    }

    /// What is at the current position, as a message names it: a word, or one character.
    private var found: String {
        guard index < bytes.count else { return "the end of the file" }
        let word = bytes[index...].prefix { (0x30...0x39).contains($0) || (0x61...0x7A).contains($0 | 0x20) || $0 >= 0x80 }.prefix(24)
        return "`" + String(decoding: word.isEmpty ? bytes[index...index] : word, as: UTF8.self) + "`"
    }

    /// `expected , or } after a field, found `"``.
    private func failure(expected: String) -> SyntaxError {
        failure("expected \(expected), found \(found)")
    }

    private func failure(_ message: String) -> SyntaxError {
        SyntaxError(offset: index, message: message)
    }
}
