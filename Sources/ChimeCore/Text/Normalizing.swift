import Foundation

extension String {
    /// `normalize` (one of Foundation's Unicode normalizations) applied to this string a
    /// piece at a time, in linear time: Foundation's normalizes a long string in time that
    /// grows with the square of its length (800 KB of "é" in a reply's first line took 8 s,
    /// a subject of "e" and U+0301 three times that length 6 s), where a piece of a few
    /// hundred scalars costs a few microseconds.
    ///
    /// A piece ends before a starter (a scalar of canonical combining class 0), where no
    /// normalization joins or reorders what stands on either side, once it has 256
    /// scalars; not before a Hangul vowel or final jamo, which compose with the syllable
    /// before them (a few vowel signs of Indic scripts do too: harmless for what this
    /// serves, comparing words). A run of 4,096 scalars with nowhere to cut, which no
    /// language writes, is cut anyway.
    func normalizedInPieces(_ normalize: (String) -> String) -> String {
        var result = ""
        result.reserveCapacity(utf8.count)
        let scalars = unicodeScalars
        var start = scalars.startIndex, count = 0
        for index in scalars.indices {
            let scalar = scalars[index]
            let mayCut = scalar.properties.canonicalCombiningClass == .notReordered && !(0x1160...0x11FF).contains(scalar.value)
            if (count >= 256 && mayCut) || count >= 4_096 {
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
