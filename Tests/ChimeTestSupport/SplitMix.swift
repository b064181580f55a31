/// A small seeded generator, so a failure can be replayed.
public struct SplitMix {
    public var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A value of the range half the time, nil otherwise.
    public mutating func maybe(_ range: ClosedRange<Int>) -> Int? {
        next() % 2 == 0 ? nil : range.lowerBound + Int(next() % UInt64(range.count))
    }
}

extension SplitMix {
    /// `count` random words of `length` letters drawn from `alphabet`.
    public mutating func words(_ count: Int, length: Int = 8, alphabet: [Character] = Array("bcdfghjkmnpqrstvwxz")) -> [String] {
        (0..<count).map { _ in String((0..<length).map { _ in alphabet[Int(next() % UInt64(alphabet.count))] }) }
    }
}
