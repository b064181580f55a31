import ChimeCore
import Testing

@Suite("Edit distance and suggestions")
struct EditDistanceTests {
    /// The whole table, as the textbook writes it: the reference the banded one must match.
    static func reference(_ a: String, _ b: String) -> Int {
        let s = Array(a.lowercased()), t = Array(b.lowercased())
        var d = [[Int]](repeating: [Int](repeating: 0, count: t.count + 1), count: s.count + 1)
        for i in 0...s.count { d[i][0] = i }
        for j in 0...t.count { d[0][j] = j }
        for i in stride(from: 1, through: s.count, by: 1) {
            for j in stride(from: 1, through: t.count, by: 1) {
                d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (s[i - 1] == t[j - 1] ? 0 : 1))
                if i > 1, j > 1, s[i - 1] == t[j - 2], s[i - 2] == t[j - 1] { d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1) }
            }
        }
        return d[s.count][t.count]
    }

    @Test("the banded distance equals the full table's whenever it is within the limit, and is nil beyond, over 3000 random pairs")
    func matchesReference() {
        var generator = SystemRandomNumberGenerator()
        let letters = Array("abcab")
        for _ in 0..<3_000 {
            let a = String((0..<Int.random(in: 0...9, using: &generator)).map { _ in letters.randomElement(using: &generator)! })
            let b = String((0..<Int.random(in: 0...9, using: &generator)).map { _ in letters.randomElement(using: &generator)! })
            let limit = Int.random(in: 0...4, using: &generator)
            let expected = Self.reference(a, b)
            #expect(EditDistance.distance(a, b, limit: limit) == (expected <= limit ? expected : nil), "\(a) \(b) \(limit)")
        }
    }

    @Test("a misspelt name gets the one near it; a name near none, or near two alike, gets nothing")
    func nearest() {
        let attributes = ["identifier", "title", "textInputButtonTitle", "textInputPlaceholder", "foreground"]
        #expect(EditDistance.nearest(to: "textInputPlaceholdr", among: attributes) == "textInputPlaceholder")
        #expect(EditDistance.nearest(to: "titel", among: attributes) == "title")
        #expect(EditDistance.nearest(to: "TITLE", among: attributes) == "title")
        #expect(EditDistance.nearest(to: "replys", among: ["replies", "recipients", "channels"]) == "replies")
        #expect(EditDistance.nearest(to: "colour", among: attributes) == nil)
        #expect(EditDistance.nearest(to: "title", among: attributes) == nil)
        #expect(EditDistance.nearest(to: "cat", among: ["bat", "hat"]) == nil)
    }

    @Test("locales are written as BCP 47 writes them", arguments: [
        ("fr_FR", "fr-FR"), ("FR-fr", "fr-FR"), ("zh_hant_tw", "zh-Hant-TW"), ("en", "en"), ("es-419", "es-419"), ("de-DE-u-co-PHONEBK", "de-DE-u-co-PHONEBK"),
    ])
    func normalized(written: String, normal: String) {
        #expect(LanguageTag.normalized(written) == normal)
    }
}
