import ChimeCore
import ChimeTestSupport
import Foundation
import Testing

/// Unicode normalization a piece at a time gives what Foundation gives the whole string.
@Suite("Normalizing in pieces")
struct NormalizingTests {
    @Test("NFC and NFKD of mixed text (decomposed accents, precomposed ones, Hangul, ligatures, marks, CJK, ASCII) equal Foundation's on the whole string")
    func agreesWithWhole() {
        let pieces = ["e\u{301}", "é", "\u{1100}\u{1161}\u{11A8}", "한", "ﬁ", "A\u{30A}", "o\u{308}\u{304}", "日本", " ", "x", "\u{FB01}", "Å", "ǆ", "①"]
        var generator = SplitMix(seed: 42)
        var text = ""
        for _ in 0..<6_000 { text += pieces[Int(generator.next() % UInt64(pieces.count))] }
        #expect(text.precomposed == text.precomposedStringWithCanonicalMapping)
        #expect(text.compatibilityDecomposed == text.decomposedStringWithCompatibilityMapping)
        // Conjoining jamo at every place a piece could end: syllables stay whole.
        let jamo = String(repeating: "\u{1100}\u{1161}\u{11A8}", count: 3_000)
        #expect(jamo.precomposed == jamo.precomposedStringWithCanonicalMapping)
        #expect(jamo.precomposed.unicodeScalars.count == 3_000)
    }

    @Test("long runs: 200,000 decomposed é become 200,000 precomposed, and back; ASCII is returned as it is")
    func longRuns() {
        let decomposed = String(repeating: "e\u{301}", count: 200_000), precomposed = String(repeating: "é", count: 200_000)
        #expect(decomposed.precomposed.unicodeScalars.elementsEqual(precomposed.unicodeScalars))
        #expect(precomposed.compatibilityDecomposed.unicodeScalars.elementsEqual(decomposed.unicodeScalars))
        #expect("plain ASCII".precomposed == "plain ASCII")
    }
}
