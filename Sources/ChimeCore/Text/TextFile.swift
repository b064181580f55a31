/// The text files people write for Chime (strings, templates): UTF-8 with or without a
/// byte-order mark, or UTF-16 with one (as Xcode often writes `.strings`), decoded
/// strictly. A byte that is not text is an error at its line and column: decoded
/// leniently it would become a U+FFFD in every message sent, with nothing said.
public enum TextFile {
    public struct Invalid: Error, Hashable, Sendable {
        public var line: Int
        public var column: Int
        public var message: String
    }

    public static func decode(_ bytes: [UInt8]) throws(Invalid) -> String {
        // UTF-16 with its byte-order mark, or without one when the first character is
        // ASCII (a NUL beside it gives the order away): saved so, a strings file read as
        // UTF-8 stopped at its second byte, "expected \"=\", found \"\u{0}\"".
        let marked = bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF])
        let unmarked = !marked && bytes.count >= 2 && (bytes[0] == 0) != (bytes[1] == 0) && max(bytes[0], bytes[1]) < 0x80
        if marked || unmarked {
            let little = marked ? bytes[0] == 0xFF : bytes[1] == 0
            var units: [UInt16] = []
            units.reserveCapacity(bytes.count / 2)
            var index = marked ? 2 : 0
            while index + 1 < bytes.count {
                let (a, b) = (UInt16(bytes[index]), UInt16(bytes[index + 1]))
                units.append(little ? a | b << 8 : a << 8 | b)
                index += 2
            }
            let text = String(validating: units, as: UTF16.self)
            if let text, index == bytes.count { return text }
            var position = Position()
            var iterator = units.makeIterator()
            var decoder = UTF16()
            while case .scalarValue(let scalar) = decoder.decode(&iterator) { position.advance(over: scalar) }
            throw position.invalid(text != nil ? "the file ends in half a UTF-16 character (an odd number of bytes)"
                                                : "not UTF-16 text here (half of a surrogate pair); save the file as UTF-8 or UTF-16")
        }
        let body = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? bytes[3...] : bytes[...]
        if let text = String(validating: body, as: UTF8.self) { return text }
        var position = Position()
        var iterator = body.makeIterator()
        var decoder = UTF8()
        while case .scalarValue(let scalar) = decoder.decode(&iterator) { position.advance(over: scalar) }
        throw position.invalid("not UTF-8 text here (a byte of another encoding, such as Latin-1?); save the file as UTF-8")
    }

    private struct Position {
        var line = 1
        var column = 1

        mutating func advance(over scalar: Unicode.Scalar) {
            if scalar == "\n" {
                line += 1
                column = 1
            } else {
                column += 1
            }
        }

        func invalid(_ message: String) -> Invalid {
            Invalid(line: line, column: column, message: message)
        }
    }
}
