/// The operands of a number as CLDR plural rules see it (UTS #35, "Plural Operand
/// Meanings"), taken from its decimal text so that visible trailing zeros count:
/// "1" and "1.0" differ in English ("1 day", "1.0 days").
public struct PluralOperands: Hashable, Sendable {
    /// The integer digits of the absolute value.
    public var i: Int
    /// Whether the absolute value has no non-zero fraction digits.
    public var isIntegral: Bool
    /// The number of visible fraction digits, with trailing zeros.
    public var v: Int
    /// The number of visible fraction digits, without trailing zeros.
    public var w: Int
    /// The visible fraction digits, with trailing zeros, as an integer.
    public var f: Int
    /// The visible fraction digits, without trailing zeros, as an integer.
    public var t: Int
    /// The compact decimal exponent (`c`, and its older name `e`): 3 in "1.2c3".
    public var c: Int

    /// The operands of an integer.
    public init(_ value: Int) {
        i = abs(value)
        isIntegral = true
        v = 0
        w = 0
        f = 0
        t = 0
        c = 0
    }

    /// Parses decimal text such as `3`, `1.50`, `-2.0` or CLDR's compact `1.2c3`.
    public init?(_ text: String) {
        var body = Substring(text)
        if body.first == "-" { body = body.dropFirst() }
        var exponent = 0
        if let mark = body.firstIndex(where: { $0 == "c" || $0 == "e" }) {
            guard let value = Int(body[body.index(after: mark)...]), value >= 0 else { return nil }
            exponent = value
            body = body[..<mark]
        }
        let parts = body.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count <= 2, let integer = parts.first, !integer.isEmpty, integer.allSatisfy(\.isASCII),
              integer.allSatisfy(\.isNumber) else { return nil }
        var integerDigits = String(integer)
        var fraction = parts.count == 2 ? String(parts[1]) : ""
        guard fraction.allSatisfy({ $0.isASCII && $0.isNumber }), parts.count == 1 || !fraction.isEmpty else { return nil }
        // A compact exponent moves the point: 1.2c3 is 1200.
        if exponent > 0 {
            let moved = min(exponent, fraction.count)
            integerDigits += fraction.prefix(moved)
            fraction.removeFirst(moved)
            integerDigits += String(repeating: "0", count: exponent - moved)
        }
        let trimmed = String(fraction.reversed().drop { $0 == "0" }.reversed())
        guard let i = Int(integerDigits), let f = Int(fraction.isEmpty ? "0" : fraction), let t = Int(trimmed.isEmpty ? "0" : trimmed) else {
            return nil
        }
        self.i = i
        self.v = fraction.count
        self.w = trimmed.count
        self.f = f
        self.t = t
        self.c = exponent
        self.isIntegral = t == 0
    }
}
