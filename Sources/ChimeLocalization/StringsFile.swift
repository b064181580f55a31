import ChimeCore

/// Apple's `Localizable.strings`: the old-style property-list format of
/// `"key" = "value";` pairs, with `/* */` and `//` comments, escapes (`\"`, `\\`, `\n`,
/// `\t`, `\r`, `\U00E9`, octal), and unquoted words where Apple allows them; in UTF-8 or,
/// as Xcode often writes it, UTF-16 with a byte-order mark.
///
/// Written by hand: Foundation's `PropertyListSerialization` reads the format but gives
/// no line and column for an error, and a translator's missing semicolon deserves one.
public struct StringsFile: Hashable, Sendable {
    public struct ParseError: Error, Hashable, Sendable, CustomStringConvertible {
        public var line: Int
        public var column: Int
        public var message: String
        public var description: String { "\(line):\(column): \(message)" }
    }

    /// Key → value; a later duplicate wins, as in Foundation.
    public internal(set) var table: [String: String] = [:]
    /// Keys given a second time, where (the later one wins): almost always a mistake,
    /// two strings wanting one key.
    public private(set) var duplicates: [Duplicate] = []
    /// The line each key is given on (its last time), for what `chime check` says of it.
    public private(set) var lines: [String: Int] = [:]

    public struct Duplicate: Hashable, Sendable {
        public var key: String
        public var line: Int
        public var column: Int
        /// The line the key was first given on.
        public var firstLine: Int
    }

    /// A table read from elsewhere (a String Catalog): no lines, no duplicates.
    init(table: [String: String]) {
        self.table = table
    }

    /// Parses the bytes of a `.strings` file.
    public init(bytes: [UInt8]) throws {
        // The other property-list forms Apple reads, said plainly rather than as the first
        // character this parser does not expect.
        if bytes.starts(with: Array("bplist".utf8)) {
            throw ParseError(line: 1, column: 1, message: "a binary property list (as built into an app bundle): give the project's own Localizable.strings, the text Xcode edits")
        }
        let text: String
        do {
            text = try TextFile.decode(bytes)
        } catch {
            throw ParseError(line: error.line, column: error.column, message: error.message)
        }
        var parser = Parser(text)
        try parser.skipTrivia()
        if parser.take("<") {
            throw ParseError(line: 1, column: 1, message: "an XML property list: Chime reads the text form Xcode writes (\"key\" = \"value\";); on a Mac, `plutil -convert json` turns this into JSON to rewrite it from")
        }
        // The text form may stand inside the braces of an old-style property list's
        // dictionary: { "key" = "value"; }.
        let braced = parser.take("{")
        let (braceLine, braceColumn) = (parser.line, parser.column - 1)
        var lines: [String: Int] = [:]
        var firstLines: [String: Int] = [:]
        while true {
            try parser.skipTrivia()
            if braced, parser.take("}") {
                try parser.skipTrivia()
                guard parser.atEnd else { throw parser.error("nothing may follow the dictionary's closing }") }
                break
            }
            if parser.atEnd {
                if braced { throw ParseError(line: braceLine, column: braceColumn, message: "the { opened here is never closed with }") }
                break
            }
            let (line, column) = (parser.line, parser.column)
            let key = try parser.word()
            try parser.skipTrivia()
            let value: String
            if parser.take(";") {
                value = key // "key"; is "key" = "key";
            } else {
                try parser.expect("=")
                try parser.skipTrivia()
                value = try parser.word()
                try parser.endOfEntry(key: key)
            }
            if let first = firstLines[key] {
                duplicates.append(Duplicate(key: key, line: line, column: column, firstLine: first))
            } else {
                firstLines[key] = line
            }
            lines[key] = line
            table[key] = value
        }
        self.lines = lines
    }

    public subscript(key: String) -> String? { table[key] }

    private struct Parser {
        let scalars: [Unicode.Scalar]
        /// The text's UTF-8, and where each scalar starts in it (one more for the end):
        /// a run of a string is decoded from its bytes at once, where appending it a
        /// scalar at a time had been most of the parse of the built-in strings, at every
        /// start.
        let utf8: [UInt8]
        let starts: [Int]
        var index = 0
        var line = 1
        var column = 1

        init(_ text: String) {
            utf8 = Array(text.utf8)
            var scalars: [Unicode.Scalar] = [], starts: [Int] = []
            scalars.reserveCapacity(utf8.count)
            starts.reserveCapacity(utf8.count + 1)
            var offset = 0
            for scalar in text.unicodeScalars {
                scalars.append(scalar)
                starts.append(offset)
                offset += UTF8.width(scalar)
            }
            starts.append(offset)
            (self.scalars, self.starts) = (scalars, starts)
        }

        var atEnd: Bool { index >= scalars.count }
        var current: Unicode.Scalar? { atEnd ? nil : scalars[index] }

        func error(_ message: String) -> ParseError {
            ParseError(line: line, column: column, message: message)
        }

        mutating func advance() {
            if scalars[index] == "\n" {
                line += 1
                column = 1
            } else {
                column += 1
            }
            index += 1
        }

        mutating func take(_ scalar: Unicode.Scalar) -> Bool {
            guard current == scalar else { return false }
            advance()
            return true
        }

        mutating func expect(_ scalar: Unicode.Scalar) throws {
            guard take(scalar) else {
                let found = current.map { "\"\(Character($0))\"" } ?? "the end of the file"
                throw error("expected \"\(Character(scalar))\", found \(found)")
            }
        }

        /// The `;` after an entry's value. Missing, it is reported where it belongs,
        /// right after the value, not at the next entry's line where the parser finds
        /// something else.
        mutating func endOfEntry(key: String) throws {
            let (valueEndLine, valueEndColumn) = (line, column)
            try skipTrivia()
            guard !take(";") else { return }
            let found = current.map { "\"\(Character($0))\" at \(line):\(column)" } ?? "the end of the file"
            throw ParseError(line: valueEndLine, column: valueEndColumn,
                             message: "expected \";\" after the value of \"\(key)\", found \(found)")
        }

        /// White space and comments.
        mutating func skipTrivia() throws {
            while let scalar = current {
                if scalar.properties.isWhitespace {
                    advance()
                } else if scalar == "/", index + 1 < scalars.count, scalars[index + 1] == "*" {
                    let (startLine, startColumn) = (line, column)
                    advance(); advance()
                    while !(current == "*" && index + 1 < scalars.count && scalars[index + 1] == "/") {
                        guard !atEnd else { throw ParseError(line: startLine, column: startColumn, message: "a /* comment is never closed") }
                        advance()
                    }
                    advance(); advance()
                } else if scalar == "/", index + 1 < scalars.count, scalars[index + 1] == "/" {
                    while let next = current, next != "\n" { advance() }
                } else {
                    return
                }
            }
        }

        /// A quoted string, or an unquoted word of letters, digits and `_$+/:.-`.
        mutating func word() throws -> String {
            guard let first = current else { throw error("expected a quoted string, found the end of the file") }
            if first == "\"" {
                return try quoted()
            }
            var text = ""
            while let scalar = current, scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || "_$+/:.-".unicodeScalars.contains(scalar) {
                text.unicodeScalars.append(scalar)
                advance()
            }
            guard !text.isEmpty else { throw error("expected a quoted string, found \"\(Character(first))\"") }
            return text
        }

        /// A NUL would cut a message's subject short where it is sent.
        static let noNUL = "a NUL character (\\0) cannot be sent in a message"

        /// The four hexadecimal digits of a `\\U` escape.
        private mutating func hexUnit() throws -> UInt16 {
            var hex = ""
            while hex.count < 4, let digit = current, digit.properties.isASCIIHexDigit {
                hex.unicodeScalars.append(digit)
                advance()
            }
            guard let unit = UInt16(hex, radix: 16) else { throw error("\\U needs four hexadecimal digits") }
            return unit
        }

        /// A UTF-16 unit as its escape writes it: `D83D`.
        private static func digits(_ unit: UInt16) -> String {
            let hex = String(unit, radix: 16, uppercase: true)
            return String(repeating: "0", count: 4 - hex.count) + hex
        }

        private mutating func quoted() throws -> String {
            let (startLine, startColumn) = (line, column)
            advance()
            var text = ""
            while true {
                // A run without quote or backslash, decoded whole.
                let run = index
                while index < scalars.count, scalars[index] != "\"", scalars[index] != "\\" {
                    guard scalars[index] != "\0" else { throw error(Self.noNUL) }
                    advance()
                }
                if index > run { text += String(decoding: utf8[starts[run]..<starts[index]], as: UTF8.self) }
                guard let scalar = current else {
                    throw ParseError(line: startLine, column: startColumn, message: "a string is never closed")
                }
                advance()
                if scalar == "\"" { return text }
                // Else a backslash.
                guard let escaped = current else { continue }
                advance()
                switch escaped {
                case "n": text += "\n"
                case "t": text += "\t"
                case "r": text += "\r"
                case "a": text += "\u{07}"
                case "b": text += "\u{08}"
                case "f": text += "\u{0C}"
                case "v": text += "\u{0B}"
                case "U", "u":
                    let (escapeLine, escapeColumn) = (line, column - 2)
                    let unit = try hexUnit()
                    var value = UInt32(unit)
                    // As in Apple's reader, \U is a UTF-16 unit: a character beyond
                    // the first plane (an emoji) is written as two, a surrogate pair.
                    if UTF16.isLeadSurrogate(unit) {
                        guard current == "\\", index + 1 < scalars.count, scalars[index + 1] == "U" || scalars[index + 1] == "u" else {
                            throw ParseError(line: escapeLine, column: escapeColumn, message: "\\U\(Self.digits(unit)) is half of a surrogate pair: the \\U of its second half must follow")
                        }
                        advance(); advance()
                        let trail = try hexUnit()
                        guard UTF16.isTrailSurrogate(trail) else {
                            throw ParseError(line: escapeLine, column: escapeColumn, message: "\\U\(Self.digits(unit)) is half of a surrogate pair: the \\U after it must be its second half (DC00 to DFFF)")
                        }
                        value = 0x10000 + (UInt32(unit - 0xD800) << 10) + UInt32(trail - 0xDC00)
                    }
                    guard let decoded = Unicode.Scalar(value) else {
                        throw ParseError(line: escapeLine, column: escapeColumn, message: "\\U\(Self.digits(unit)) is half of a surrogate pair without its first half")
                    }
                    guard value != 0 else { throw ParseError(line: escapeLine, column: escapeColumn, message: Self.noNUL) }
                    text.unicodeScalars.append(decoded)
                case "0"..."7":
                    var octal = String(Character(escaped))
                    while octal.count < 3, let digit = current, ("0"..."7").contains(digit) {
                        octal.unicodeScalars.append(digit)
                        advance()
                    }
                    let byte = UInt8(UInt32(octal, radix: 8)! & 0xFF)
                    guard byte != 0 else { throw ParseError(line: line, column: column - octal.count - 1, message: Self.noNUL) }
                    text.unicodeScalars.append(Unicode.Scalar(byte))
                default:
                    text.unicodeScalars.append(escaped)
                }
            }
        }
    }
}
