/// Decimal digits written straight into a string's buffer, for the date texts that every
/// stored instant, `file:` line and email carries (``LocalDateTime/description``,
/// ``Instant/rfc5322(in:)``): built from padded strings, each had cost thousands of
/// instructions.
enum DecimalDigits {
    /// Writes `value` (0 or more) as `width` digits from `start`, zero-padded; digits
    /// beyond `width` are dropped, so callers check the range or use ``count(_:)``.
    static func write(_ value: Int, width: Int, into buffer: UnsafeMutableBufferPointer<UInt8>, at start: Int) {
        var rest = value
        for index in (start..<start + width).reversed() {
            buffer[index] = UInt8(ascii: "0") + UInt8(rest % 10)
            rest /= 10
        }
    }

    /// The number `text` writes in ASCII digits only; nil for anything else. `Int(_:)`
    /// also takes a sign ("-001" as a year was -1, stored as "00-1", which no read of
    /// the store could parse again).
    static func value(of text: Substring) -> Int? {
        guard text.utf8.count <= 18, areAll(text) else { return nil }
        return Int(text)
    }

    /// Whether `text` is one ASCII digit or more, and nothing else.
    static func areAll(_ text: Substring) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
    }

    /// How many digits `value` (0 or more) has.
    static func count(_ value: Int) -> Int {
        var digits = 1, rest = value
        while rest >= 10 {
            rest /= 10
            digits += 1
        }
        return digits
    }
}
