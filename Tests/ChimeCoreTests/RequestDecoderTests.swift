import ChimeCore
import Foundation
import Testing

@Suite("Request JSON")
struct RequestDecoderTests {
    @Test("the contract's example request reads with every field")
    func contractExample() throws {
        let json = """
            {"identifier": "shopping-1", "recipient": "alice",
             "content": {"title": "Shopping", "subtitle": "", "body": "Hey, you must go shopping, remember?",
               "titleLocKey": null, "titleLocArgs": [], "bodyLocKey": null, "bodyLocArgs": [],
               "badge": 1, "sound": "default", "attachments": [{"identifier": "cup", "path": "cup.jpg"}],
               "userInfo": {"list": "groceries", "n": [1, true, null, {"x": 2.5}], "id": 9007199254740993},
               "categoryIdentifier": "shoppingListReminderCategory", "threadIdentifier": "shopping",
               "summaryArgument": "Matt", "summaryArgumentCount": 1,
               "targetContentIdentifier": "https://example.org/lists/groceries",
               "interruptionLevel": "timeSensitive", "relevanceScore": 0.5, "launchImageName": ""},
             "trigger": {"type": "calendar", "dateComponents": {"hour": 9, "minute": 0, "weekday": 2},
                         "timeZone": "Europe/Paris", "repeats": true}}
            """
        let requests = try RequestDecoder.decode(Data(json.utf8))
        let request = try #require(requests.first)
        #expect(request.content.badge == 1)
        #expect(request.content.attachments == [.init(identifier: "cup", path: "cup.jpg")])
        #expect(request.content.userInfo["n"] == .array([.integer(1), .bool(true), .null, .object(["x": .number(2.5)])]))
        #expect(request.content.userInfo["id"] == .integer(9_007_199_254_740_993))
        #expect(request.content.interruptionLevel == .timeSensitive)
        #expect(request.trigger == .calendar(.init(hour: 9, minute: 0, weekday: 2), timeZone: "Europe/Paris", repeats: true))
        // What is written reads back the same (launchImageName, taken and ignored, is not written).
        let written = try JSONEncoder().encode(requests)
        #expect(!String(decoding: written, as: UTF8.self).contains("launchImageName"))
        let again = try RequestDecoder.decode(written)
        #expect(again == requests)
    }

    @Test("errors name the field", arguments: [
        (#"{"identifier": "a", "recipient": "b", "content": {}, "trigger": {"type": "sometime"}}"#, "at trigger.type: expected one of timeInterval, calendar, date"),
        (#"{"identifier": "a", "recipient": "b", "content": {}, "trigger": {"type": "location", "region": {}}}"#,
         "at trigger.type: expected one of timeInterval, calendar, date (location triggers fire on a device entering a region, which a server cannot see)"),
        (#"[{"identifier": "a", "recipient": "b", "content": {}, "trigger": {"type": "timeInterval"}}]"#, "at [0].trigger: missing \"seconds\""),
        (#"{"identifier": "a", "recipient": "b", "content": {"badge": "one"}, "trigger": {"type": "timeInterval", "seconds": 5}}"#, "at content.badge: expected a number"),
        (#"{"identifier": "a""#, "not valid JSON: expected , or } after a field, found the end of the file"),
        (#"{"identifier": "a", "recipient": "b", "trigger": {"type": "calendar", "dateComponents": {"hour": 9, "minutes": 30}, "repeats": true}}"#,
         "at trigger.dateComponents.minutes: unknown field (expected one of day, hour, minute, month, second, weekday, weekdayOrdinal, year)"),
        (#"{"identifier": "a", "recipient": "b", "trigger": {"type": "calendar", "dateComponents": {"hour": 9}, "timezone": "UTC"}}"#,
         "at trigger.timezone: unknown field (expected one of dateComponents, repeats, timeZone, type)"),
        (#"{"identifier": "a", "recipient": "b", "extra": 1, "trigger": {"type": "timeInterval", "seconds": 60}}"#,
         "at extra: unknown field (expected one of content, identifier, recipient, trigger)"),
        // Valid JSON whose number does not fit: Foundation said "not valid JSON", nowhere.
        (#"{"identifier": "a", "recipient": "b", "trigger": {"type": "calendar", "dateComponents": {"hour": 9.5}, "repeats": true}}"#,
         "at trigger.dateComponents.hour: expected a whole number, not 9.5"),
        (#"{"identifier": "a", "recipient": "b", "content": {"badge": 1e30}, "trigger": {"type": "timeInterval", "seconds": 60}}"#,
         "at content.badge: expected a whole number, not 1e+30"),
        (#"{"identifier": "a", "recipient": "b", "trigger": {"type": "date", "fireDate": "2027-03-01T09:00", "repeatInterval": "daily"}}"#,
         "at trigger.repeatInterval: expected one of minute, hour, day, week, month, year, not \"daily\""),
        (#"{"identifier": "a", "recipient": "b", "trigger": {"type": "date", "fireDate": "2027-04-31T09:00"}}"#,
         "at trigger.fireDate: 2027-04-31 does not exist (that month has 30 days)"),
        // Int("-001") is -1: a year that was stored as "00-1", which no read of the store
        // parsed again (every listing and run of the store then failed).
        (#"{"identifier": "a", "recipient": "b", "trigger": {"type": "date", "fireDate": "-001-01-01T00:00"}}"#,
         "at trigger.fireDate: expected a local date and time such as 2026-11-21T14:00:00 (no offset: the zone is timeZone), not \"-001-01-01T00:00\""),
        (#"{"identifier": "a", "recipient": "b", "trigger": {"type": "date", "fireDate": "2027-03-01T+9:00"}}"#,
         "at trigger.fireDate: expected a local date and time such as 2026-11-21T14:00:00 (no offset: the zone is timeZone), not \"2027-03-01T+9:00\""),
        (#"{"identifier": "a", "recipient": "b", "content": {"interruptionLevel": "urgent"}, "trigger": {"type": "timeInterval", "seconds": 60}}"#,
         "at content.interruptionLevel: expected one of passive, active, timeSensitive, critical, not \"urgent\""),
        // What Foundation's decoder takes or refuses without saying where: RFC 8259 decides.
        (#"{"identifier": "a", "recipient": "b", "trigger": {"type": "timeInterval", "seconds": 60},}"#,
         "not valid JSON: expected a field name in double quotes, found `}`"),
        (#"[{"identifier": "a", "recipient": "b", "trigger": {"type": "timeInterval", "seconds": 60}},]"#,
         "not valid JSON: expected a value (a string in double quotes, a number, true, false, null, an object or an array), found `]`"),
        (#"{"identifier": "a", "recipient": "b", "content": {"badge": 01}, "trigger": {"type": "timeInterval", "seconds": 60}}"#,
         "not valid JSON: a number that starts with 0 before other digits (write 1, not 01)"),
        (#"{"identifier": "a", "recipient": "b", "trigger": {"type": "timeInterval", "seconds": 1e400}}"#,
         "not valid JSON: a number too large to be read (beyond ±1.8e308)"),
    ])
    func errors(json: String, message: String) {
        #expect(throws: RequestDecoder.Failure.self) { try RequestDecoder.decode(Data(json.utf8)) }
        do {
            _ = try RequestDecoder.decode(Data(json.utf8))
        } catch {
            #expect(error.description == message)
        }
    }

    @Test("a byte that is not UTF-8 is pointed at by line and column; 0, -0.5 and 1e3 are numbers")
    func notUTF8() throws {
        var bytes = Array("{\"identifier\": \"a\",\n \"recipient\": \"b".utf8)
        bytes += [0xE9] + Array("\", \"trigger\": {\"type\": \"timeInterval\", \"seconds\": 60}}".utf8)
        let failure = try #require(throws: RequestDecoder.Failure.self) { try RequestDecoder.decode(Data(bytes)) }
        #expect(failure.message == "not valid JSON: a byte that is not UTF-8 (the text must be UTF-8)")
        #expect(failure.line == 2 && failure.column == 17, "\(failure.line):\(failure.column)")
        // Overlong and surrogate forms are not UTF-8 either; well-formed text of every length is.
        for sequence: [UInt8] in [[0xC0, 0xAF], [0xE0, 0x80, 0xAF], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xC3]] {
            let text = Array(#"{"identifier": "a"#.utf8) + sequence + Array(#"", "recipient": "b", "trigger": {"type": "timeInterval", "seconds": 60}}"#.utf8)
            #expect(throws: RequestDecoder.Failure.self) { try RequestDecoder.decode(Data(text)) }
        }
        let fine = #"{"identifier": "é€😀", "recipient": "b", "content": {"userInfo": {"a": 0, "b": -0.5, "c": 1e3, "d": 10}}, "trigger": {"type": "timeInterval", "seconds": 60}}"#
        #expect(try RequestDecoder.decode(Data(fine.utf8)).first?.identifier == "é€😀")
    }

    @Test("a file with a byte order mark, or in UTF-16 with or without one, is said to be so at 1:1, rather than shown as invisible or raw bytes")
    func markOrUTF16() throws {
        let json = #"{"identifier": "a", "recipient": "b", "trigger": {"type": "timeInterval", "seconds": 60}}"#
        let utf16LE = Array(json.utf16).flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        let utf16BE = Array(json.utf16).flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
        let cases: [([UInt8], String)] = [
            ([0xEF, 0xBB, 0xBF] + Array(json.utf8), "not valid JSON: the file starts with a byte order mark (U+FEFF): save it as UTF-8 without one"),
            ([0xFF, 0xFE] + utf16LE, "not valid JSON: the file is UTF-16 (as Windows PowerShell's > writes it), not UTF-8: save it as UTF-8"),
            (utf16LE, "not valid JSON: the file is UTF-16 (as Windows PowerShell's > writes it), not UTF-8: save it as UTF-8"),
            ([0xFE, 0xFF] + utf16BE, "not valid JSON: the file is UTF-16 (as Windows PowerShell's > writes it), not UTF-8: save it as UTF-8"),
            (utf16BE, "not valid JSON: the file is UTF-16 (as Windows PowerShell's > writes it), not UTF-8: save it as UTF-8"),
        ]
        for (bytes, message) in cases {
            let failure = try #require(throws: RequestDecoder.Failure.self) { try RequestDecoder.decode(Data(bytes)) }
            #expect(failure.message == message && failure.line == 1 && failure.column == 1, "\(failure.message) \(failure.line):\(failure.column)")
        }
        // Text that merely starts wrong in UTF-8 keeps the scanner's own words.
        let wrong = try #require(throws: RequestDecoder.Failure.self) { try RequestDecoder.decode(Data("x{}".utf8)) }
        #expect(!wrong.message.contains("UTF-16") && !wrong.message.contains("byte order"), "\(wrong.message)")
    }

    @Test("a fraction where a whole number goes is pointed at by line and column")
    func fractionPlace() throws {
        let json = "{\"identifier\": \"a\", \"recipient\": \"b\",\n \"trigger\": {\"type\": \"calendar\", \"dateComponents\": {\"hour\": 9.5}}}"
        let failure = try #require(throws: RequestDecoder.Failure.self) { try RequestDecoder.decode(Data(json.utf8)) }
        #expect(failure.line == 2 && failure.column == 61, "\(String(describing: failure.line)):\(String(describing: failure.column))")
    }

    @Test("a field given twice in one object is refused at its second name, however deep: readers differ on which value counts")
    func duplicateFields() throws {
        let json = "[{\"identifier\": \"a\", \"recipient\": \"b\", \"content\": {\"title\": \"t\"}, \"trigger\": {\"type\": \"timeInterval\", \"seconds\": 60}},\n"
            + " {\"identifier\": \"d1\", \"recipient\": \"bob\", \"content\": {\"title\": \"t\", \"userInfo\": {\"k\": 1, \"k\": 2}}, \"trigger\": {\"type\": \"timeInterval\", \"seconds\": 60}}]"
        do {
            _ = try RequestDecoder.decode(Data(json.utf8))
            Issue.record("decoded")
        } catch {
            #expect(error.description == "at [1].content.userInfo.k: \"k\" is given twice in one object")
            #expect((error.line, error.column) == (2, 90))
        }
        let top = #"{"identifier": "d1", "identifier": "d2", "recipient": "alice", "trigger": {"type": "timeInterval", "seconds": 60}}"#
        #expect(throws: RequestDecoder.Failure.self) { try RequestDecoder.decode(Data(top.utf8)) }
        // The same name in two objects is two fields.
        let two = #"[{"identifier": "a", "recipient": "b", "content": {"title": "t"}, "trigger": {"type": "timeInterval", "seconds": 60}}, {"identifier": "b", "recipient": "b", "content": {"title": "t"}, "trigger": {"type": "timeInterval", "seconds": 60}}]"#
        #expect(try RequestDecoder.decode(Data(two.utf8)).count == 2)
    }

    @Test("a lone UTF-16 surrogate, or \\u with a sign, is refused at its place; a pair reads as its one character")
    func surrogates() throws {
        func failure(_ json: String) -> RequestDecoder.Failure? {
            do { _ = try RequestDecoder.decode(Data(json.utf8)) } catch { return error }
            return nil
        }
        let head = #"{"identifier": "a", "recipient": "alice","# + "\n" + #" "content": {"title": "x"#
        let tail = #"y"}, "trigger": {"type": "timeInterval", "seconds": 60}}"#
        let high = failure(head + #"\ud800"# + tail)
        #expect(high?.message.hasPrefix("not valid JSON: a lone high surrogate \\ud800") == true, "\(String(describing: high))")
        #expect(high?.line == 2 && high?.column == 25, "\(String(describing: high))")
        #expect(failure(head + #"\udc00"# + tail)?.message.hasPrefix("not valid JSON: a lone low surrogate \\udc00") == true)
        #expect(failure(head + #"\ud83d\u0041"# + tail)?.message.contains("lone high surrogate") == true)
        #expect(failure(head + #"\u+041"# + tail)?.message == "not valid JSON: \\u must be followed by four hexadecimal digits")
        #expect(try RequestDecoder.decode(Data((head + #"\ud83d\ude00"# + tail).utf8)).first?.content.title == "x\u{1F600}y")
    }

    @Test("arrays and objects nested past 64 levels are refused at the bracket that goes too deep, never handed to Foundation's decoder (which crashes on Linux working out where 512 levels are); brackets inside strings do not count")
    func nesting() throws {
        let deep = #"{"identifier": "a", "recipient": "alice", "userInfo":"# + "\n" + String(repeating: "[", count: 600) + "\n\n" + String(repeating: "]", count: 600) + "}"
        #expect(throws: RequestDecoder.Failure.self) { try RequestDecoder.decode(Data(deep.utf8)) }
        do {
            _ = try RequestDecoder.decode(Data(deep.utf8))
        } catch {
            #expect(error.message == "arrays and objects nested deeper than 64 levels" && error.line == 2 && error.column == 64, "\(error) \(error.line):\(error.column)")
        }
        let quoted = #"{"identifier": "a", "recipient": "alice", "content": {"title": ""# + String(repeating: "[", count: 600) + #""}, "trigger": {"type": "timeInterval", "seconds": 60}}"#
        #expect(try RequestDecoder.decode(Data(quoted.utf8)).first?.content.title.count == 600)
    }
}
