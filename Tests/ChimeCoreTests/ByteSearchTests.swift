import ChimeCore
import Foundation
import Testing

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
