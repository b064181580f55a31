// The grammar of JSON (RFC 8259) as ``StoredRequestReader`` reads it: objects and arrays,
// strings with their escapes, numbers, literals, and any JSON for `userInfo`. What it does
// not read exactly as JSONDecoder would, it refuses (``NotStoredShape``).

/// The field names of one kind of object, as bytes, each with the coding key it stands
/// for: a name's bit in what ``StoredRequestReader/fields(_:_:)`` returns is its position.
struct FieldNames<Key: CodingKey & CaseIterable> {
    private let names: [(bytes: [UInt8], key: Key)]

    init() {
        names = Key.allCases.map { (Array($0.stringValue.utf8), $0) }
        precondition(names.count <= 32, "a field's bit must fit in 32")
    }

    /// The position and key of the name `bytes`; nil when it is none of them.
    func find(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> (Int, Key)? {
        for (position, name) in names.enumerated() where name.bytes.count == bytes.count && name.bytes.elementsEqual(bytes) {
            return (position, name.key)
        }
        return nil
    }

    /// The bits of the fields named in `set`.
    func bits(of set: Set<String>) -> UInt32 {
        names.enumerated().reduce(0) { bits, name in set.contains(name.element.key.stringValue) ? bits | 1 << name.offset : bits }
    }
}

extension StoredRequestReader {
    // MARK: userInfo: any JSON, as JSONValue decodes it

    /// How deep `userInfo` nests before the reader leaves it to JSONDecoder.
    private static let maximumDepth = 32

    private mutating func value(depth: Int) throws(NotStoredShape) -> JSONValue {
        skipSpace()
        guard index < bytes.count else { throw NotStoredShape() }
        switch bytes[index] {
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "["):
            guard depth < Self.maximumDepth else { throw NotStoredShape() }
            var values: [JSONValue] = []
            try elements { (reader: inout StoredRequestReader) throws(NotStoredShape) in
                values.append(try reader.value(depth: depth + 1))
            }
            return .array(values)
        case UInt8(ascii: "{"):
            guard depth < Self.maximumDepth else { throw NotStoredShape() }
            return .object(try object(depth: depth + 1))
        case UInt8(ascii: "t"), UInt8(ascii: "f"): return .bool(try bool())
        case UInt8(ascii: "n"):
            _ = try null()
            return .null
        default:
            // Only whole numbers within Int64: JSONValue's decoding tries Int64 before
            // Double, and what JSONDecoder makes of a fraction or an exponent is its own.
            return .integer(Int64(try integer()))
        }
    }

    mutating func object(depth: Int) throws(NotStoredShape) -> [String: JSONValue] {
        var object: [String: JSONValue] = [:]
        try members(UInt8(ascii: "{"), UInt8(ascii: "}")) { (reader: inout StoredRequestReader) throws(NotStoredShape) in
            try reader.toName()
            let name = try reader.decodeString()
            try reader.expect(UInt8(ascii: ":"))
            let value = try reader.value(depth: depth)
            // A repeated name: which one JSONDecoder keeps is its own to say.
            guard object.updateValue(value, forKey: name) == nil else { throw NotStoredShape() }
        }
        return object
    }

    // MARK: JSON's grammar

    /// Each field of an object whose names are among `names`, its value read by `field`;
    /// returns the bits (``FieldNames/bits(of:)``) of the names it had. A name with an
    /// escape, unknown or repeated is not the store's shape.
    @discardableResult
    mutating func fields<Key>(_ names: FieldNames<Key>,
                              _ field: (inout StoredRequestReader, Key) throws(NotStoredShape) -> Void) throws(NotStoredShape) -> UInt32 {
        var seen: UInt32 = 0
        try members(UInt8(ascii: "{"), UInt8(ascii: "}")) { (reader: inout StoredRequestReader) throws(NotStoredShape) in
            try reader.toName()
            // A field name of the store has no escape.
            let (range, closed) = try reader.plainRun()
            guard closed, let (position, key) = names.find(reader.bytes[range]), seen & 1 << position == 0 else {
                throw NotStoredShape()
            }
            seen |= 1 << position
            try reader.expect(UInt8(ascii: ":"))
            try field(&reader, key)
        }
        return seen
    }

    /// Moves to the opening quote of a field's name.
    private mutating func toName() throws(NotStoredShape) {
        skipSpace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw NotStoredShape() }
    }

    /// Each element of an array, read by `element`.
    mutating func elements(_ element: (inout StoredRequestReader) throws(NotStoredShape) -> Void) throws(NotStoredShape) {
        try members(UInt8(ascii: "["), UInt8(ascii: "]"), element)
    }

    /// The members of an object or an array, between `open` and `close`, separated by
    /// commas, each read by `member`.
    private mutating func members(_ open: UInt8, _ close: UInt8,
                                  _ member: (inout StoredRequestReader) throws(NotStoredShape) -> Void) throws(NotStoredShape) {
        try expect(open)
        skipSpace()
        if index < bytes.count, bytes[index] == close {
            index += 1
            return
        }
        while true {
            try member(&self)
            skipSpace()
            guard index < bytes.count else { throw NotStoredShape() }
            let byte = bytes[index]
            index += 1
            if byte == close { return }
            guard byte == UInt8(ascii: ",") else { throw NotStoredShape() }
        }
    }

    /// Moves past the opening quote (the reader at it) and the bytes that follow up to
    /// the closing quote or the first escape: their range, and whether the string closed
    /// there (the reader after the quote) or an escape follows (the reader at it).
    private mutating func plainRun() throws(NotStoredShape) -> (range: Range<Int>, closed: Bool) {
        index += 1
        let start = index
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                index += 1
                return (start..<(index - 1), true)
            }
            if byte == UInt8(ascii: "\\") { return (start..<index, false) }
            guard byte >= 0x20 else { throw NotStoredShape() }
            index += 1
        }
        throw NotStoredShape()
    }

    mutating func string() throws(NotStoredShape) -> String {
        skipSpace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw NotStoredShape() }
        return try decodeString()
    }

    /// The string at the reader (at its opening quote), its escapes decoded.
    private mutating func decodeString() throws(NotStoredShape) -> String {
        // Most strings have no escape: their bytes are the string's.
        let (plain, closed) = try plainRun()
        if closed { return try Self.text(UnsafeBufferPointer(rebasing: bytes[plain])) }
        var decoded = Array(bytes[plain])
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: "\""):
                return try decoded.withUnsafeBufferPointer { buffer throws(NotStoredShape) in try Self.text(buffer) }
            case UInt8(ascii: "\\"):
                guard index < bytes.count else { throw NotStoredShape() }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): decoded.append(escape)
                case UInt8(ascii: "b"): decoded.append(0x08)
                case UInt8(ascii: "f"): decoded.append(0x0C)
                case UInt8(ascii: "n"): decoded.append(0x0A)
                case UInt8(ascii: "r"): decoded.append(0x0D)
                case UInt8(ascii: "t"): decoded.append(0x09)
                case UInt8(ascii: "u"): decoded.append(contentsOf: String(try unicodeEscape()).utf8)
                default: throw NotStoredShape()
                }
            default:
                guard byte >= 0x20 else { throw NotStoredShape() }
                decoded.append(byte)
            }
        }
        throw NotStoredShape()
    }

    /// The scalar of `\uXXXX` (the reader after the `u`), a surrogate pair's two escapes
    /// joined; a lone surrogate is not the store's shape.
    private mutating func unicodeEscape() throws(NotStoredShape) -> Character {
        let first = try hexQuad()
        if let scalar = Unicode.Scalar(first) { return Character(scalar) }
        guard first & 0xFC00 == 0xD800, index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"),
              bytes[index + 1] == UInt8(ascii: "u") else { throw NotStoredShape() }
        index += 2
        let second = try hexQuad()
        guard second & 0xFC00 == 0xDC00,
              let scalar = Unicode.Scalar(0x10000 + ((first & 0x3FF) << 10) + (second & 0x3FF)) else {
            throw NotStoredShape()
        }
        return Character(scalar)
    }

    private mutating func hexQuad() throws(NotStoredShape) -> UInt32 {
        guard index + 4 <= bytes.count else { throw NotStoredShape() }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            index += 1
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw NotStoredShape()
            }
            value = value << 4 | UInt32(digit)
        }
        return value
    }

    /// Text that is UTF-8, or not the store's shape.
    private static func text(_ bytes: UnsafeBufferPointer<UInt8>) throws(NotStoredShape) -> String {
        guard let text = String(validating: bytes, as: UTF8.self) else { throw NotStoredShape() }
        return text
    }

    mutating func strings() throws(NotStoredShape) -> [String] {
        var strings: [String] = []
        try elements { (reader: inout StoredRequestReader) throws(NotStoredShape) in
            strings.append(try reader.string())
        }
        return strings
    }

    /// A whole number: `-`, then `0` or digits not starting with 0, within Int64.
    mutating func integer() throws(NotStoredShape) -> Int {
        skipSpace()
        let negative = index < bytes.count && bytes[index] == UInt8(ascii: "-")
        if negative { index += 1 }
        let start = index
        var magnitude: UInt64 = 0
        while index < bytes.count, case let digit = bytes[index] &- UInt8(ascii: "0"), digit < 10 {
            let (times10, overflow) = magnitude.multipliedReportingOverflow(by: 10)
            let (sum, carry) = times10.addingReportingOverflow(UInt64(digit))
            guard !overflow, !carry else { throw NotStoredShape() }
            magnitude = sum
            index += 1
        }
        guard index > start, bytes[start] != UInt8(ascii: "0") || index == start + 1 else { throw NotStoredShape() }
        // A fraction or an exponent follows: not a whole number as the store writes one.
        if index < bytes.count, [UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E")].contains(bytes[index]) {
            throw NotStoredShape()
        }
        if negative {
            guard magnitude <= UInt64(Int64.max) + 1 else { throw NotStoredShape() }
            return Int(truncatingIfNeeded: 0 &- magnitude)
        }
        guard magnitude <= UInt64(Int64.max) else { throw NotStoredShape() }
        return Int(magnitude)
    }

    /// A JSON number (its grammar checked here, its value by Swift's correctly rounded
    /// parser), finite.
    mutating func double() throws(NotStoredShape) -> Double {
        skipSpace()
        let start = index
        if index < bytes.count, bytes[index] == UInt8(ascii: "-") { index += 1 }
        let integerStart = index
        skipDigits()
        guard index > integerStart, bytes[integerStart] != UInt8(ascii: "0") || index == integerStart + 1 else {
            throw NotStoredShape()
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            let fractionStart = index
            skipDigits()
            guard index > fractionStart else { throw NotStoredShape() }
        }
        if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "e") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            let exponentStart = index
            skipDigits()
            guard index > exponentStart else { throw NotStoredShape() }
        }
        guard let value = Double(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)),
              value.isFinite else { throw NotStoredShape() }
        return value
    }

    private mutating func skipDigits() {
        while index < bytes.count, bytes[index] &- UInt8(ascii: "0") < 10 { index += 1 }
    }

    mutating func bool() throws(NotStoredShape) -> Bool {
        if try literal("true") { return true }
        if try literal("false") { return false }
        throw NotStoredShape()
    }

    /// Whether the value at the reader is null (moved past when it is).
    mutating func null() throws(NotStoredShape) -> Bool {
        try literal("null")
    }

    private mutating func literal(_ word: StaticString) throws(NotStoredShape) -> Bool {
        skipSpace()
        let count = word.utf8CodeUnitCount
        guard index + count <= bytes.count else { return false }
        let same = word.withUTF8Buffer { word in word.elementsEqual(bytes[index..<(index + count)]) }
        if same { index += count }
        return same
    }

    mutating func expect(_ byte: UInt8) throws(NotStoredShape) {
        skipSpace()
        guard index < bytes.count, bytes[index] == byte else { throw NotStoredShape() }
        index += 1
    }

    mutating func skipSpace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x0A, 0x0D, 0x09: index += 1
            default: return
            }
        }
    }
}
