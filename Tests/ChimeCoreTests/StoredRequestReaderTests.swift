import ChimeCore
import ChimeTestSupport
import Foundation
import Testing

/// The store reads its requests back without Codable (`readStored`); JSONDecoder's
/// reading (`decodeStored`) stays the definition. Both must give the same request for
/// everything the store writes, and the reader must leave to JSONDecoder what it does not
/// know rather than read it otherwise.
@Suite("Stored requests read back")
struct StoredRequestReaderTests {
    /// Text with what JSON escapes (quotes, backslashes, slashes, control characters),
    /// non-ASCII letters, an emoji and U+2028.
    private func text(_ random: inout SplitMix) -> String {
        let pieces = ["a", "Zz", "\"", "\\", "/", "\n", "\r", "\t", "\u{0}", "\u{1F}", "é", "日本", "😀", " ", "\u{2028}", "{\"x\":1}"]
        return (0..<Int(random.next() % 8)).map { _ in pieces[Int(random.next() % UInt64(pieces.count))] }.joined()
    }

    private func optionalText(_ random: inout SplitMix) -> String? {
        random.next() % 3 == 0 ? nil : text(&random)
    }

    /// JSON values as `userInfo` holds them; `doubles` adds numbers with a fraction.
    private func value(_ random: inout SplitMix, depth: Int, doubles: Bool) -> JSONValue {
        switch random.next() % (depth > 3 ? 5 : 7) {
        case 0: return .null
        case 1: return .bool(random.next() % 2 == 0)
        case 2:
            let edges: [Int64] = [0, -1, 1, .max, .min, 9_007_199_254_740_993]
            return .integer(random.next() % 4 == 0 ? edges[Int(random.next() % 6)] : Int64(bitPattern: random.next()))
        case 3: return doubles ? .number(Double(Int64(bitPattern: random.next() % 1_000_000)) / 1024 + 0.5) : .string("")
        case 4: return .string(text(&random))
        case 5: return .array((0..<Int(random.next() % 4)).map { _ in value(&random, depth: depth + 1, doubles: doubles) })
        default: return .object(object(&random, depth: depth + 1, doubles: doubles))
        }
    }

    private func object(_ random: inout SplitMix, depth: Int, doubles: Bool) -> [String: JSONValue] {
        var object: [String: JSONValue] = [:]
        for _ in 0..<Int(random.next() % 4) {
            object[text(&random) + "k"] = value(&random, depth: depth, doubles: doubles)
        }
        return object
    }

    private func trigger(_ random: inout SplitMix) -> NotificationTrigger {
        let zones = [nil, "Europe/Paris", "America/New_York", "UTC"]
        switch random.next() % 3 {
        case 0:
            let seconds: [Double] = [60, 3600, 0.25, 86_400 * 365, 1e16, 12.5]
            return .timeInterval(seconds: seconds[Int(random.next() % 6)], repeats: random.next() % 2 == 0)
        case 1:
            let pattern = DateComponentsPattern(
                year: random.maybe(2026...2030), month: random.maybe(1...12), day: random.maybe(1...28),
                hour: random.maybe(0...23), minute: random.maybe(0...59), second: random.maybe(0...59),
                weekday: random.maybe(1...7), weekdayOrdinal: random.maybe(1...5))
            return .calendar(pattern, timeZone: zones[Int(random.next() % 4)], repeats: random.next() % 2 == 0)
        default:
            // With its seconds: the store writes them, and a time without reads back with.
            let date = LocalDateTime(parsing: "2026-\(10 + random.next() % 3)-0\(1 + random.next() % 9)T0\(random.next() % 10):30:\(10 + random.next() % 50)")!
            let interval = random.next() % 3 == 0 ? nil : RepeatInterval.allCases[Int(random.next() % 6)]
            return .date(fireDate: date, timeZone: zones[Int(random.next() % 4)], repeatInterval: interval)
        }
    }

    /// A request with each field given or left at its default by chance.
    private func request(_ random: inout SplitMix, doubles: Bool) -> NotificationRequest {
        var content = NotificationContent()
        func chance() -> Bool { random.next() % 2 == 0 }
        if chance() { content.title = text(&random) }
        if chance() { content.subtitle = text(&random) }
        if chance() { content.body = text(&random) }
        if chance() { content.titleLocKey = optionalText(&random) }
        if chance() { content.titleLocArgs = (0..<Int(random.next() % 3)).map { _ in text(&random) } }
        if chance() { content.subtitleLocKey = optionalText(&random) }
        if chance() { content.subtitleLocArgs = (0..<Int(random.next() % 3)).map { _ in text(&random) } }
        if chance() { content.bodyLocKey = optionalText(&random) }
        if chance() { content.bodyLocArgs = (0..<Int(random.next() % 3)).map { _ in text(&random) } }
        if chance() { content.badge = random.maybe(0...99) }
        if chance() { content.sound = optionalText(&random) }
        if chance() {
            content.attachments = (0..<Int(random.next() % 3)).map { _ in .init(identifier: text(&random), path: "/tmp/" + text(&random)) }
        }
        if chance() { content.userInfo = object(&random, depth: 0, doubles: doubles) }
        if chance() { content.categoryIdentifier = text(&random) }
        if chance() { content.threadIdentifier = text(&random) }
        if chance() { content.summaryArgument = text(&random) }
        if chance() { content.summaryArgumentCount = Int(random.next() % 5) }
        if chance() { content.targetContentIdentifier = optionalText(&random) }
        if chance() { content.interruptionLevel = NotificationContent.InterruptionLevel.allCases[Int(random.next() % 4)] }
        if chance() { content.relevanceScore = [0, 1, 0.5, 0.1, 1.0 / 3, .leastNonzeroMagnitude][Int(random.next() % 6)] }
        return NotificationRequest(identifier: text(&random), recipient: text(&random), content: content, trigger: trigger(&random))
    }

    @Test("every request the store writes reads back the same, without JSONDecoder", arguments: 0..<20)
    func roundTrip(seed: UInt64) throws {
        var random = SplitMix(seed: seed)
        for _ in 0..<100 {
            let original = request(&random, doubles: false)
            let json = try original.storedJSON()
            let read = try #require(NotificationRequest.readStored(json), "not read: \(json)")
            #expect(read == original, "\(json)")
            #expect(read == (try NotificationRequest.decodeStored(json)))
        }
    }

    @Test("requests with fractions in userInfo read back as JSONDecoder reads them", arguments: 0..<5)
    func fractions(seed: UInt64) throws {
        var random = SplitMix(seed: seed)
        for _ in 0..<100 {
            let json = try request(&random, doubles: true).storedJSON()
            #expect(try NotificationRequest(storedJSON: json) == NotificationRequest.decodeStored(json), "\(json)")
        }
    }

    /// Shapes the store does not write but JSON allows, which the reader takes: the same
    /// request as JSONDecoder's.
    @Test("spaces, escapes, nulls and another order read as JSONDecoder reads them", arguments: [
        #" { "trigger" : { "repeats" : true , "seconds" : 60 , "type" : "timeInterval" } , "recipient" : "a" , "identifier" : "r" } "#,
        #"{"identifier":"\u00e9\ud83d\ude00\/\b\f\n\r\t\"\\\u0000","recipient":"\u65e5","trigger":{"type":"date","fireDate":"2026-11-21T09:00","timeZone":null,"repeatInterval":null}}"#,
        #"{"identifier":"r","recipient":"a","content":null,"trigger":{"type":"calendar","dateComponents":{"hour":9,"minute":null},"timeZone":"UTC"}}"#,
        #"{"identifier":"r","recipient":"a","content":{"title":null,"badge":null,"userInfo":null,"titleLocArgs":null,"relevanceScore":0.25},"trigger":{"type":"timeInterval","seconds":1.5e2}}"#,
        #"{"identifier":"r","recipient":"a","content":{"userInfo":{"\u0041":[-0,{"":null}],"b":"\ud83d\ude00"},"relevanceScore":1E-2},"trigger":{"type":"timeInterval","seconds":-0.0}}"#,
        #"{"identifier":"r","recipient":"a","content":{},"trigger":{"type":"calendar","dateComponents":{},"repeats":false}}"#,
        // Past 2^53 a Double is not every whole number: both read the digits (the fuzzer's find).
        #"{"identifier":"r","recipient":"a","trigger":{"type":"calendar","dateComponents":{"hour":8,"weekdayOrdinal":99999999999999991},"repeats":true}}"#,
    ])
    func otherShapes(json: String) throws {
        let read = try #require(NotificationRequest.readStored(json))
        #expect(read == (try NotificationRequest.decodeStored(json)))
    }

    /// What the reader leaves to JSONDecoder: JSONDecoder reads some of these and refuses
    /// others, and its answer is the store's either way.
    @Test("shapes the reader does not know are left to JSONDecoder", arguments: [
        #"{"identifier":"r","recipient":"a","trigger":{"type":"timeInterval","seconds":60},"extra":1}"#,
        #"{"identifier":"r","identifier":"s","recipient":"a","trigger":{"type":"timeInterval","seconds":60}}"#,
        #"{"identifier":"r","recipient":"a","content":{"userInfo":{"a":1,"a":2}},"trigger":{"type":"timeInterval","seconds":60}}"#,
        #"{"identifier":"r","recipient":"a","content":{"userInfo":{"a":1.0,"b":1e2,"c":18446744073709551616}},"trigger":{"type":"timeInterval","seconds":60}}"#,
        #"{"identifier":"\ud800","recipient":"a","trigger":{"type":"timeInterval","seconds":60}}"#,
        #"{"identifier":"r","recipient":"a","content":{"badge":1.0},"trigger":{"type":"timeInterval","seconds":60}}"#,
        #"{"identifier":"r","recipient":"a","trigger":{"type":"timeInterval","seconds":60,"timeZone":"UTC"}}"#,
        #"{"ident\u0069fier":"r","recipient":"a","trigger":{"type":"timeInterval","seconds":60}}"#,
    ])
    func leftToJSONDecoder(json: String) {
        #expect(NotificationRequest.readStored(json) == nil)
        #expect((try? NotificationRequest(storedJSON: json)) == (try? NotificationRequest.decodeStored(json)))
    }

    /// Not a request at all: the store's error is JSONDecoder's.
    @Test("broken requests are refused as JSONDecoder refuses them", arguments: [
        "", "{", #"{"identifier":"r"}"#, #"{"identifier":"r","recipient":"a","trigger":{"type":"weekly"}}"#,
        #"{"identifier":"r","recipient":"a","trigger":{"type":"date","fireDate":"tomorrow"}}"#,
        #"{"identifier":"r","recipient":"a","trigger":{"type":"timeInterval","seconds":01}}"#,
        #"{"identifier":"r","recipient":"a","trigger":{"type":"timeInterval","seconds":60}} x"#,
        "{\"identifier\":\"r\u{1}\",\"recipient\":\"a\",\"trigger\":{\"type\":\"timeInterval\",\"seconds\":60}}",
        #"{"identifier":"r","recipient":"a","content":{"interruptionLevel":"loud"},"trigger":{"type":"timeInterval","seconds":60}}"#,
    ])
    func broken(json: String) {
        #expect(NotificationRequest.readStored(json) == nil)
        #expect(throws: (any Error).self) { try NotificationRequest(storedJSON: json) }
        #expect(throws: (any Error).self) { try NotificationRequest.decodeStored(json) }
    }

    @Test("text that is not UTF-8 is left to JSONDecoder")
    func notUTF8() {
        let bytes = Array(#"{"identifier":"r"#.utf8) + [0xFF] + Array(#"","recipient":"a","trigger":{"type":"timeInterval","seconds":60}}"#.utf8)
        // A String repairs bad bytes on the way in; the reader sees what the store hands it.
        let text = String(decoding: bytes, as: UTF8.self)
        #expect((try? NotificationRequest(storedJSON: text)) == (try? NotificationRequest.decodeStored(text)))
    }

    @Test("userInfo nested beyond the reader's depth is left to JSONDecoder")
    func deep() throws {
        let nested = String(repeating: "[", count: 40) + String(repeating: "]", count: 40)
        let json = #"{"identifier":"r","recipient":"a","content":{"userInfo":{"a":"# + nested + #"}},"trigger":{"type":"timeInterval","seconds":60}}"#
        #expect(NotificationRequest.readStored(json) == nil)
        #expect(try NotificationRequest(storedJSON: json) == NotificationRequest.decodeStored(json))
    }
}
