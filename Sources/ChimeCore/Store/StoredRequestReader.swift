// Written by hand, on purpose: every request a store hands back (claimed to fire, loaded
// to send, looked up for a reply) was read with Foundation's JSONDecoder, and its keyed
// containers cost about 87,000 instructions a request, a fifth of firing one into a file.
// No well-kept Swift package reads JSON straight into a given type without Codable.
//
// The Codable conformances stay the one definition of a request's JSON: this reader takes
// only the plain shapes they write, and says "not mine" (nil) at anything else — an
// unknown or repeated field, a number with a fraction in userInfo, a lone surrogate, text
// that is not UTF-8 — so that JSONDecoder reads it and decides, error included. A field
// added to those types and not to the key lists below is such an unknown field: read, more
// slowly, by JSONDecoder. Tests hold the two to the same value for every shape the store
// writes, and a fuzz target for any bytes the reader accepts.

extension NotificationRequest {
    /// The request in JSON as the store writes it (``storedJSON()``), read without
    /// Codable; nil when the text is not in the shapes this reader knows.
    package static func readStored(_ text: String) -> NotificationRequest? {
        var text = text
        return text.withUTF8 { bytes in
            var reader = StoredRequestReader(bytes: bytes)
            return try? reader.document()
        }
    }
}

/// Not a shape the reader knows: JSONDecoder reads the text instead.
struct NotStoredShape: Error {}

struct StoredRequestReader {
    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0
    /// How deep `userInfo` nests before the reader leaves it to JSONDecoder.
    private static let maximumDepth = 32

    init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    mutating func document() throws(NotStoredShape) -> NotificationRequest {
        let request = try request()
        skipSpace()
        guard index == bytes.count else { throw NotStoredShape() }
        return request
    }

    // MARK: The request's fields

    private mutating func request() throws(NotStoredShape) -> NotificationRequest {
        var identifier: String?, recipient: String?, trigger: NotificationTrigger?
        var content = NotificationContent()
        var seen: UInt32 = 0
        try fields { (reader: inout StoredRequestReader, key: Int) throws(NotStoredShape) in
            switch key {
            case 0: identifier = try reader.string()
            case 1: recipient = try reader.string()
            case 2: if try !reader.null() { content = try reader.content() }
            default: trigger = try reader.trigger()
            }
        } keys: { reader throws(NotStoredShape) in
            try reader.key(in: Self.requestKeys, seen: &seen)
        }
        guard let identifier, let recipient, let trigger else { throw NotStoredShape() }
        return NotificationRequest(identifier: identifier, recipient: recipient, content: content, trigger: trigger)
    }

    // The field names each object may have: a name's position is the number `fields`
    // hands its reader, and its bit in `seen`.
    private static let requestKeys: [StaticString] = ["identifier", "recipient", "content", "trigger"]

    private static let contentKeys: [StaticString] = [
        "title", "subtitle", "body", "titleLocKey", "titleLocArgs", "bodyLocKey", "bodyLocArgs", "badge", "sound",
        "attachments", "userInfo", "categoryIdentifier", "threadIdentifier", "summaryArgument",
        "summaryArgumentCount", "targetContentIdentifier", "interruptionLevel", "relevanceScore",
    ]

    /// As `NotificationContent.init(from:)`: a field at null is at its default.
    private mutating func content() throws(NotStoredShape) -> NotificationContent {
        var content = NotificationContent()
        var seen: UInt32 = 0
        try fields { (reader: inout StoredRequestReader, key: Int) throws(NotStoredShape) in
            if try reader.null() {
                return
            }
            switch key {
            case 0: content.title = try reader.string()
            case 1: content.subtitle = try reader.string()
            case 2: content.body = try reader.string()
            case 3: content.titleLocKey = try reader.string()
            case 4: content.titleLocArgs = try reader.strings()
            case 5: content.bodyLocKey = try reader.string()
            case 6: content.bodyLocArgs = try reader.strings()
            case 7: content.badge = try reader.integer()
            case 8: content.sound = try reader.string()
            case 9: content.attachments = try reader.attachments()
            case 10: content.userInfo = try reader.object(depth: 1)
            case 11: content.categoryIdentifier = try reader.string()
            case 12: content.threadIdentifier = try reader.string()
            case 13: content.summaryArgument = try reader.string()
            case 14: content.summaryArgumentCount = try reader.integer()
            case 15: content.targetContentIdentifier = try reader.string()
            case 16:
                guard let level = NotificationContent.InterruptionLevel(rawValue: try reader.string()) else {
                    throw NotStoredShape()
                }
                content.interruptionLevel = level
            default: content.relevanceScore = try reader.double()
            }
        } keys: { reader throws(NotStoredShape) in
            try reader.key(in: Self.contentKeys, seen: &seen)
        }
        return content
    }

    private mutating func attachments() throws(NotStoredShape) -> [NotificationContent.Attachment] {
        var attachments: [NotificationContent.Attachment] = []
        try elements { (reader: inout StoredRequestReader) throws(NotStoredShape) in
            var identifier: String?, path: String?
            var seen: UInt32 = 0
            try reader.fields { (reader: inout StoredRequestReader, key: Int) throws(NotStoredShape) in
                if key == 0 { identifier = try reader.string() } else { path = try reader.string() }
            } keys: { reader throws(NotStoredShape) in
                try reader.key(in: Self.attachmentKeys, seen: &seen)
            }
            guard let identifier, let path else { throw NotStoredShape() }
            attachments.append(.init(identifier: identifier, path: path))
        }
        return attachments
    }

    private static let attachmentKeys: [StaticString] = ["identifier", "path"]

    private static let triggerKeys: [StaticString] = [
        "type", "seconds", "repeats", "dateComponents", "timeZone", "fireDate", "repeatInterval",
    ]

    /// As `NotificationTrigger.init(from:)`, with only the fields of the trigger's type.
    private mutating func trigger() throws(NotStoredShape) -> NotificationTrigger {
        var type: String?, seconds: Double?, repeats = false, pattern: DateComponentsPattern?
        var zone: String?, fireDate: String?, interval: RepeatInterval?
        var seen: UInt32 = 0
        try fields { (reader: inout StoredRequestReader, key: Int) throws(NotStoredShape) in
            switch key {
            case 0: type = try reader.string()
            case 1: seconds = try reader.double()
            case 2: repeats = try reader.null() ? false : try reader.bool()
            case 3: pattern = try reader.dateComponents()
            case 4: zone = try reader.null() ? nil : try reader.string()
            case 5: fireDate = try reader.string()
            default:
                guard try !reader.null() else { return }
                guard let value = RepeatInterval(rawValue: try reader.string()) else { throw NotStoredShape() }
                interval = value
            }
        } keys: { reader throws(NotStoredShape) in
            try reader.key(in: Self.triggerKeys, seen: &seen)
        }
        // Bits of `seen`, in the order of triggerKeys: each type's own fields and no other.
        switch type {
        case "timeInterval":
            guard seen & ~0b111 == 0, let seconds else { throw NotStoredShape() }
            return .timeInterval(seconds: seconds, repeats: repeats)
        case "calendar":
            guard seen & ~0b11101 == 0, let pattern else { throw NotStoredShape() }
            return .calendar(pattern, timeZone: zone, repeats: repeats)
        case "date":
            guard seen & ~0b1110001 == 0, let fireDate, let date = LocalDateTime(parsing: fireDate) else {
                throw NotStoredShape()
            }
            return .date(fireDate: date, timeZone: zone, repeatInterval: interval)
        default:
            throw NotStoredShape()
        }
    }

    private static let componentKeys: [StaticString] = [
        "year", "month", "day", "hour", "minute", "second", "weekday", "weekdayOrdinal",
    ]

    private mutating func dateComponents() throws(NotStoredShape) -> DateComponentsPattern {
        var pattern = DateComponentsPattern()
        var seen: UInt32 = 0
        try fields { (reader: inout StoredRequestReader, key: Int) throws(NotStoredShape) in
            let value = try reader.null() ? nil : try reader.integer()
            switch key {
            case 0: pattern.year = value
            case 1: pattern.month = value
            case 2: pattern.day = value
            case 3: pattern.hour = value
            case 4: pattern.minute = value
            case 5: pattern.second = value
            case 6: pattern.weekday = value
            default: pattern.weekdayOrdinal = value
            }
        } keys: { reader throws(NotStoredShape) in
            try reader.key(in: Self.componentKeys, seen: &seen)
        }
        return pattern
    }

    // MARK: userInfo: any JSON, as JSONValue decodes it

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

    private mutating func object(depth: Int) throws(NotStoredShape) -> [String: JSONValue] {
        var object: [String: JSONValue] = [:]
        var name = ""
        try fields { (reader: inout StoredRequestReader, _: Int) throws(NotStoredShape) in
            let value = try reader.value(depth: depth)
            // A repeated name: which one JSONDecoder keeps is its own to say.
            guard object.updateValue(value, forKey: name) == nil else { throw NotStoredShape() }
        } keys: { reader throws(NotStoredShape) in
            name = try reader.decodeString()
            return 0
        }
        return object
    }

    // MARK: JSON's grammar

    /// Each field of an object: `keys` reads its name (the reader at the opening quote)
    /// and returns its number, `field` reads its value.
    private mutating func fields(
        _ field: (inout StoredRequestReader, Int) throws(NotStoredShape) -> Void,
        keys: (inout StoredRequestReader) throws(NotStoredShape) -> Int
    ) throws(NotStoredShape) {
        try members(UInt8(ascii: "{"), UInt8(ascii: "}")) { (reader: inout StoredRequestReader) throws(NotStoredShape) in
            reader.skipSpace()
            guard reader.index < reader.bytes.count, reader.bytes[reader.index] == UInt8(ascii: "\"") else { throw NotStoredShape() }
            let key = try keys(&reader)
            try reader.expect(UInt8(ascii: ":"))
            try field(&reader, key)
        }
    }

    /// Each element of an array, read by `element`.
    private mutating func elements(_ element: (inout StoredRequestReader) throws(NotStoredShape) -> Void) throws(NotStoredShape) {
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

    /// The number of the field name at the reader (at its opening quote) among `names`,
    /// marked in `seen`; a name with an escape, unknown or repeated is not the store's shape.
    private mutating func key(in names: [StaticString], seen: inout UInt32) throws(NotStoredShape) -> Int {
        // A field name of the store has no escape.
        let (range, closed) = try plainRun()
        guard closed else { throw NotStoredShape() }
        for (number, name) in names.enumerated() where name.utf8CodeUnitCount == range.count {
            let same = name.withUTF8Buffer { name in
                name.elementsEqual(bytes[range])
            }
            guard same else { continue }
            let bit: UInt32 = 1 << number
            guard seen & bit == 0 else { throw NotStoredShape() }
            seen |= bit
            return number
        }
        throw NotStoredShape()
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

    private mutating func string() throws(NotStoredShape) -> String {
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

    private mutating func strings() throws(NotStoredShape) -> [String] {
        var strings: [String] = []
        try elements { (reader: inout StoredRequestReader) throws(NotStoredShape) in
            strings.append(try reader.string())
        }
        return strings
    }

    /// A whole number: `-`, then `0` or digits not starting with 0, within Int64.
    private mutating func integer() throws(NotStoredShape) -> Int {
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
    private mutating func double() throws(NotStoredShape) -> Double {
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

    private mutating func bool() throws(NotStoredShape) -> Bool {
        if try literal("true") { return true }
        if try literal("false") { return false }
        throw NotStoredShape()
    }

    /// Whether the value at the reader is null (moved past when it is).
    private mutating func null() throws(NotStoredShape) -> Bool {
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

    private mutating func expect(_ byte: UInt8) throws(NotStoredShape) {
        skipSpace()
        guard index < bytes.count, bytes[index] == byte else { throw NotStoredShape() }
        index += 1
    }

    private mutating func skipSpace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x0A, 0x0D, 0x09: index += 1
            default: return
            }
        }
    }
}
