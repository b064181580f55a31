import ChimeCore
import Foundation

/// A clock's time as people say it: "half past 3", "quarter to 4", "halb 4", "viertel nach
/// 3", "a las 3 menos cuarto", "à 4 heures moins le quart", "без четверти 4", "wpół do 4".
/// Each is written as the time it names ("3:30", "3:45") before the rest of a snooze's
/// words are read, so that a day, a part of the day or "pm" around it counts as around any
/// time ("tomorrow at half past 3", "quarter to 8 pm").
extension SnoozeText {
    /// How an idiom's minutes count from its hour.
    enum IdiomDirection {
        /// After the hour: "quarter past 3" is 3:15.
        case past
        /// Before it: "quarter to 4" is 3:45, "halb 4" 3:30.
        case to
    }

    /// An idiom: its pattern (lower case; its hour captured as `hour`, its minutes as
    /// `minutes` unless `minutes` gives them, a lead before it as `lead`), which way its
    /// minutes count, whether a number of minutes needs a lead asking for a time before it
    /// ("until 10 to 4", but "snooze 5 to 10" may be a while; "à 4 heures moins le quart",
    /// but "dans 2 heures moins le quart" is 1 h 45 min), and the words it holds, looked for
    /// before its pattern is run: most snoozes ("2h", "tomorrow") hold none, and a regex
    /// costs more than the rest of a snooze.
    struct ClockIdiom: @unchecked Sendable {
        /// Compiled when a text first holds one of `marks`: the idioms' ten patterns
        /// together were 8% of an MTA pipe's `chime ingest` of a reply that held none.
        let pattern: Lazily<Regex<AnyRegexOutput>>
        let direction: IdiomDirection
        let minutes: Int?
        let led: Bool
        let marks: [String]
    }

    /// The idioms, in English, German, Spanish, French, Russian and Polish; the matcher
    /// knows their first words (``ReplyWords/clockIdiomStarts``). Italian's "le 4 meno un
    /// quarto" is not read: "alle" is no lead of the snooze's. `H` stands for the hour, in
    /// numbers or, in English and German, in words (``ReplyWords/idiomHours``), with am or
    /// pm after it; `MINUTES` for minutes in numbers or English words
    /// (``ReplyWords/idiomMinutes``), their unit after them or not ("10 minutes", "ten
    /// minutes").
    static let clockIdioms: [ClockIdiom] = [
        (#"(?:(?<lead>until|till|til|at|by)\s+)?(?<minutes>quarter|half|a quarter|MINUTES)\s+(?:past|after)\s+H"#, IdiomDirection.past, nil, false, ["past", "after"]),
        (#"(?:(?<lead>until|till|til|at|by)\s+)?(?<minutes>quarter|a quarter|MINUTES)\s+to\s+H"#, .to, nil, false, ["to "]),
        (#"halb\s+H"#, .to, 30, false, ["halb"]),
        (#"viertel\s+nach\s+H"#, .past, 15, false, ["viertel"]),
        (#"(?:viertel\s+vor|dreiviertel)\s+H"#, .to, 15, false, ["viertel"]),
        (#"(?:(?<lead>a las|hasta las|a la|hasta la)\s+)?(?<hour>\d{1,2})\s+menos\s+(?<minutes>cuarto|\d{1,2})"#, .to, nil, true, ["menos"]),
        (#"(?:(?<lead>à|a|jusqu'à|jusqu’à|vers)\s+)?(?<hour>\d{1,2})\s*(?:h|heures?)\s+moins\s+(?:le\s+)?(?<minutes>quart|\d{1,2})"#, .to, nil, true, ["moins"]),
        (#"без\s+четверти\s+(?<hour>\d{1,2})"#, .to, 15, false, ["четверти"]),
        (#"(?:wpół|wpol)\s+do\s+(?<hour>\d{1,2})"#, .to, 30, false, ["wpół", "wpol"]),
        (#"za\s+kwadrans\s+(?<hour>\d{1,2})"#, .to, 15, false, ["kwadrans"]),
    ].map { pattern, direction, minutes, led, marks in
        let hour = #"(?<hour>\d{1,2}|"# + ReplyWords.idiomHours.keys.sorted { $0.count > $1.count }.joined(separator: "|") + #")(?:\s*(?<ampm>[ap])\.?\s?m\b\.?)?"#
        let minuteWords = #"(?:\d{1,2}|"# + ReplyWords.idiomMinutes.keys.sorted { $0.count > $1.count }.joined(separator: "|") + #")(?:\s*(?:"#
            + minuteUnits.joined(separator: "|") + "))?"
        let written = pattern.replacingOccurrences(of: "MINUTES", with: minuteWords).replacingOccurrences(of: "H", with: hour)
        // Words of their own: a word's start before, and no letter, digit or colon after
        // ("quarter to 3:30" is none).
        return ClockIdiom(pattern: Lazily { try! Regex(#"\b"# + written + #"(?![\w:])"#) }, direction: direction, minutes: minutes, led: led, marks: marks)
    }

    /// `words` (lower case, ASCII digits) with each clock idiom in them written as the time
    /// it names, "H:MM" ("H:MM am" or "pm" when am or pm is said of its hour); `words`
    /// themselves when they hold none, and an idiom left as it is when a unit's word follows
    /// it ("5 to 10 minutes"), or it needs a lead and has none. An hour of 12 or 0 said
    /// without am or pm is the sooner of the two from `now` in `zone`: "quarter to 1" at
    /// 11:00 is 12:45, at 23:30 0:45.
    static func withClockIdiomsRead(_ words: String, now: Instant, zone: TimeZone) -> String {
        var text = words
        for idiom in clockIdioms where idiom.marks.contains(where: text.contains) {
            let source = text
            text = source.replacing(idiom.pattern.value) { match in
                let written = String(source[match.range])
                guard let hourWord = match["hour"]?.substring, let hour = Int(hourWord) ?? ReplyWords.idiomHours[String(hourWord)],
                      let minutes = idiomMinutes(match, of: idiom) else { return written }
                let lead = match["lead"]?.substring.map(String.init)
                // A number of minutes to an hour only after a lead asking for a time, as in
                // French and Spanish ("snooze 5 to 10" may be a while), unless its unit is
                // written ("twenty minutes to 4"); past an hour, none is a while: "ten
                // minutes past 3", "20 after 3".
                let minutesWritten = match["minutes"]?.substring
                let counted = minutesWritten.map { Int($0.prefix(while: \.isNumber)) != nil || ReplyWords.idiomMinutes[minutesWord($0)] != nil } ?? false
                let ranged = counted && idiom.direction == .to && minutesWritten.map { minutesWord($0) == $0 } == true
                if idiom.led || ranged, lead == nil { return written }
                // Not a while's number: "quarter to 10 minutes".
                let next = source[match.range.upperBound...].split(whereSeparator: \.isWhitespace).first
                if let next, unitLetter(next[..<(next.firstIndex { $0.isPunctuation } ?? next.endIndex)]) != nil { return written }
                // A number of minutes a clock's face is read in: "until 10 to 4", not "until 2 to 3".
                if counted, minutes % 5 != 0 || minutes > 30 { return written }
                guard (1...24).contains(hour), (1...59).contains(minutes) else { return written }
                // Am or pm is the written hour's: "quarter to 12pm" is 11:45, "twenty to 12am" 23:40.
                let ampm = match["ampm"]?.substring
                guard ampm == nil || hour <= 12 else { return written }
                let clockHour = ampm == nil ? hour : hour % 12 + (ampm == "p" ? 12 : 0)
                var total = idiom.direction == .past ? clockHour * 60 + minutes : clockHour * 60 - minutes
                if ampm != nil { total = (total + 1440) % 1440 }
                guard total >= 0, total < 1440 else { return written }
                let minute = (total % 60 < 10 ? "0" : "") + "\(total % 60)"
                // With am or pm, written on the 12-hour clock the time lands on: "3:15 am"
                // stays the night's where "3:15" would be the afternoon's.
                if ampm != nil { return (lead.map { $0 + " " } ?? "") + "\((total / 60 + 11) % 12 + 1):" + minute + (total < 720 ? " am" : " pm") }
                var shown = total / 60
                if shown == 0 || shown == 12 {
                    // Noon's or midnight's, whichever comes first.
                    let noon = untilNext(hour: 12, minute: total % 60, now: now, zone: zone) ?? 0
                    let night = untilNext(hour: 0, minute: total % 60, now: now, zone: zone) ?? 0
                    shown = noon <= night ? 12 : 0
                }
                return (lead.map { $0 + " " } ?? "") + "\(shown):" + minute
            }
        }
        return text
    }

    /// The units an idiom's minutes may be written with, the longest first: "10 minutes",
    /// "ten mins".
    static let minuteUnits = ["minutes", "mins", "min"]

    /// The number's word of an idiom's minutes, the unit after it dropped: "ten" of "ten
    /// minutes".
    private static func minutesWord(_ written: Substring) -> String {
        for unit in minuteUnits where written.hasSuffix(unit) {
            return written.dropLast(unit.count).trimmingCharacters(in: .whitespaces)
        }
        return String(written)
    }

    /// An idiom's minutes: its own, or the words' ("quarter", "half", "cuarto", "quart",
    /// "10", "10 minutes", "ten", "ten minutes"); nil for others.
    private static func idiomMinutes(_ match: Regex<AnyRegexOutput>.Match, of idiom: ClockIdiom) -> Int? {
        if let minutes = idiom.minutes { return minutes }
        guard let written = match["minutes"]?.substring else { return nil }
        switch written {
        case "quarter", "a quarter", "cuarto", "quart": return 15
        case "half": return 30
        default: return ReplyWords.idiomMinutes[minutesWord(written)] ?? Int(written.prefix(while: \.isNumber))
        }
    }
}
