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

/// A byte search over two strings in NFC finds what Foundation's `range(of:)` finds.
@Suite("Finding a string by its bytes")
struct ByteRangeTests {
    @Test("rangeOfBytes: the first occurrence between characters, as Foundation's range(of:) on NFC text; none inside a character (e before a combining accent, a jamo of a syllable) nor for an empty string")
    func rangeOfBytes() {
        let texts = ["snooze until the afternoon", "à 3 heures de l'après-midi", "Posponer a las 11 de la mañana, la mañana", "明日の午後3時", "내일 오후 3시", "",
                     "apres-midi après-midi", "dwa razy rano, rano"]
        let phrases = ["afternoon", "après-midi", "apres-midi", "la mañana", "午後", "오후", "rano", "midi", "x", "le", "l'"]
        for text in texts.map(\.precomposed) {
            for phrase in phrases {
                // Where each begins and ends, in characters.
                let place = { (range: Range<String.Index>) in
                    [text.distance(from: text.startIndex, to: range.lowerBound), text.distance(from: text.startIndex, to: range.upperBound)]
                }
                #expect(text.rangeOfBytes(phrase).map(place) == text.range(of: phrase).map(place), "\(phrase) in \(text)")
            }
        }
        // An "e" followed by a combining accent is no "e": the next one is found.
        let decomposed = "cafe\u{301} e"
        #expect(decomposed.rangeOfBytes("e").map { decomposed.distance(from: decomposed.startIndex, to: $0.lowerBound) } == 5)
        #expect("abc".rangeOfBytes("") == nil && "".rangeOfBytes("a") == nil && "ab".rangeOfBytes("abc") == nil)
    }

    @Test("the words of the parts of the day are in NFC, as the snooze's byte search for them needs")
    func partsOfDayInNFC() {
        let decomposedWords = ReplyWords.partsOfDay.map(\.words).filter { !$0.utf8.elementsEqual($0.precomposed.utf8) }
        #expect(decomposedWords.isEmpty, "\(decomposedWords)")
    }
}
