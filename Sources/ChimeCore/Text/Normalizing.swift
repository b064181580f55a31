import Foundation

extension String {
    /// `normalize` (one of Foundation's Unicode normalizations) applied to this string a
    /// piece at a time, in linear time: Foundation's normalizes a long string in time that
    /// grows with the square of its length (800 KB of "é" in a reply's first line took 8 s,
    /// a subject of "e" and U+0301 three times that length 6 s), where a piece of a few
    /// hundred scalars costs a few microseconds.
    ///
    /// A piece ends before a starter (a scalar of canonical combining class 0), where no
    /// normalization joins or reorders what stands on either side (Hangul jamo and a few
    /// vowel signs of Indic scripts, which compose with the starter before them, aside:
    /// harmless for what this serves, comparing words), once it has 256 scalars; a run of
    /// combining marks with no starter for 4,096 scalars, which no language writes, is cut
    /// anyway.
    func normalizedInPieces(_ normalize: (String) -> String) -> String {
        var result = ""
        result.reserveCapacity(utf8.count)
        let scalars = unicodeScalars
        var start = scalars.startIndex, count = 0
        for index in scalars.indices {
            let isStarter = scalars[index].properties.canonicalCombiningClass == .notReordered
            if (count >= 256 && isStarter) || count >= 4_096 {
                result += normalize(String(scalars[start..<index]))
                (start, count) = (index, 0)
            }
            count += 1
        }
        if start < scalars.endIndex { result += normalize(String(scalars[start...])) }
        return result
    }

    /// This string in NFC, at no cost when it is ASCII (as most header values are), in
    /// linear time (``normalizedInPieces(_:)``).
    public var precomposed: String {
        utf8.allSatisfy { $0 < 0x80 } ? self : normalizedInPieces(\.precomposedStringWithCanonicalMapping)
    }

    /// This string in NFKD (compatibility decomposition), in linear time
    /// (``normalizedInPieces(_:)``).
    public var compatibilityDecomposed: String {
        utf8.allSatisfy { $0 < 0x80 } ? self : normalizedInPieces(\.decomposedStringWithCompatibilityMapping)
    }
}
