import ChimeCore
import ChimeTestSupport
import Foundation
import Testing

@Suite("JSON text")
struct JSONTextTests {
    /// A random value of every kind, strings with quotes, backslashes, control
    /// characters and non-ASCII text.
    private func value(_ random: inout SplitMix, depth: Int = 0) -> JSONValue {
        let pieces = ["a", "\"", "\\", "/", "\n", "\r", "\t", "\u{01}", "\u{1F}", "é", "😀", " ", "\u{2028}"]
        switch random.next() % (depth > 3 ? 5 : 7) {
        case 0: return .null
        case 1: return .bool(random.next() % 2 == 0)
        case 2: return .integer(Int64(bitPattern: random.next()))
        case 3: return .number(Double(Int64(bitPattern: random.next() % 1_000_000)) / 1024)
        case 4: return .string((0..<Int(random.next() % 10)).map { _ in pieces[Int(random.next() % UInt64(pieces.count))] }.joined())
        case 5: return .array((0..<Int(random.next() % 4)).map { _ in value(&random, depth: depth + 1) })
        default:
            return .object(Dictionary(uniqueKeysWithValues: (0..<Int(random.next() % 4)).map { index in
                ("k\(index)\(pieces[Int(random.next() % UInt64(pieces.count))])", value(&random, depth: depth + 1))
            }))
        }
    }

    @Test("random values decode back to themselves, keys sorted, the same bytes every time", arguments: 0..<50)
    func roundTrip(seed: UInt64) throws {
        var random = SplitMix(seed: seed)
        let original = JSONValue.object(["v": value(&random)])
        let text = original.jsonText
        #expect(try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8)) == original)
        #expect(try JSONSerialization.jsonObject(with: Data(text.utf8)) is [String: Any])
        #expect(original.jsonText == text)
    }

    @Test("a character to escape at any place of a long string is escaped, among ASCII and multi-byte text", arguments: ["\"", "\\", "\n", "\u{01}", "\u{1F}"])
    func escapeAnywhere(special: String) throws {
        for length in [7, 8, 9, 16, 23, 40] {
            for place in 0..<length {
                var pieces = (0..<length).map { $0 % 5 == 4 ? "é" : $0 % 7 == 6 ? "😀" : "a" }
                pieces[place] = special
                let string = pieces.joined()
                let text = JSONValue.string(string).jsonText
                #expect(!text.utf8.contains { $0 < 0x20 }, "a raw control character in \(text)")
                #expect(try JSONDecoder().decode(JSONValue.self, from: Data("[\(text)]".utf8)) == .array([.string(string)]))
            }
        }
        #expect(JSONValue.string(String(repeating: "é~ a", count: 10)).jsonText == "\"" + String(repeating: "é~ a", count: 10) + "\"")
    }

    @Test("exact text: sorted keys, escapes, unescaped slashes, no NaN")
    func exact() {
        let value = JSONValue.object(["b": .array([.integer(1), .number(0.5), .number(.nan), .null]), "a": .string("x\"y\\z/\n\u{01}é")])
        #expect(value.jsonText == #"{"a":"x\"y\\z/\n\u0001é","b":[1,0.5,null,null]}"#)
    }
}
