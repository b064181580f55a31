import ChimeCore

/// What the tests draw from a seeded generator (``SplitMix``, seeded by hand so that a
/// failure can be replayed).
extension SplitMix {
    /// A value of the range half the time, nil otherwise.
    public mutating func maybe(_ range: ClosedRange<Int>) -> Int? {
        next() % 2 == 0 ? nil : range.lowerBound + Int(next() % UInt64(range.count))
    }

    /// `count` random words of `length` letters drawn from `alphabet`.
    public mutating func words(_ count: Int, length: Int = 8, alphabet: [Character] = Array("bcdfghjkmnpqrstvwxz")) -> [String] {
        (0..<count).map { _ in String((0..<length).map { _ in alphabet[Int(next() % UInt64(alphabet.count))] }) }
    }
}
