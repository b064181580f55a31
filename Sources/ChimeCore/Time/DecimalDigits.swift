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
