import ChimeCore
import Foundation

/// How long a reply's `snooze` asks for: `10m`, `1h30m`, `2 hours`, `15 min`, `3 days`,
/// in the shipped languages too (`2 Stunden`, `2 heures`, `2 часа`, `2時間`), or a time
/// of day (`15:00`, `3pm`, the next one in the recipient's zone), or a day (`tomorrow`,
/// `Monday`, `next week`, `tonight`, with a time or not).
enum SnoozeText {
    // Built once: a regex literal is built anew each time it is evaluated.
    nonisolated(unsafe) static let clock = /(\d{1,2})[:h.](\d{2})/
    /// A number and the word after it, white space before either: one part of "1 hour 30
    /// minutes", "1h 30min", "1h30min".
    /// English may put its half between them ("1 and a half hours"), and "and" may join
    /// two ("1 hour and 30 minutes").
    nonisolated(unsafe) static let spelledPart = /\s*(?:(?:and|und|et|y|e|i|и)\s+|و\s*)?(\d+(?:[.,]\d+)?)\s*(and a half\s+)?(\p{L}+)/
    /// An hour alone, as a clock's: "15h" or "9 h" after "until", "15 Uhr", "15 ч", "15時",
    /// "15点", "15시"; and a half after it: "15時半", "3시 반".
    nonisolated(unsafe) static let hourOnly = /(\d{1,2})\s*(h|uhr|ч|時|点|點|시)(\s*(?:半|반))?/
    nonisolated(unsafe) static let twelveHour = /(\d{1,2})(?:[:.](\d{2}))?\s*([ap])\.?m/
    /// A time of day as Japanese, Chinese and Korean write it: "15時30分", "15点30分", "15시 30분".
    nonisolated(unsafe) static let hourAndMinute = /(\d{1,2})\s*(?:時|点|點|시)\s*(\d{1,2})\s*(?:分|분)/

    /// The start of each unit's words, lower case, and DurationText's letter for it.
    static let units: [(prefix: String, letter: String)] = [
        ("sec", "s"), ("sek", "s"), ("seg", "s"), ("сек", "s"), ("秒", "s"),
        ("min", "m"), ("mn", "m"), ("мин", "m"), ("دقيق", "m"), ("دقائق", "m"), ("分", "m"), ("分钟", "m"), ("分鐘", "m"), ("분", "m"),
        ("hour", "h"), ("hr", "h"), ("stund", "h"), ("std", "h"), ("heure", "h"), ("hora", "h"), ("ora", "h"), ("ore", "h"), ("uur", "h"),
        ("час", "h"), ("ч", "h"),
        ("godz", "h"), ("ساع", "h"), ("時間", "h"), ("小时", "h"), ("小時", "h"), ("个小时", "h"), ("個小時", "h"), ("시간", "h"),
        ("day", "d"), ("tag", "d"), ("jour", "d"), ("día", "d"), ("dia", "d"), ("giorn", "d"), ("dag", "d"), ("дн", "d"), ("ден", "d"),
        ("день", "d"), ("dni", "d"), ("dzie", "d"), ("يوم", "d"), ("أيام", "d"), ("日", "d"), ("天", "d"), ("일", "d"),
        ("week", "w"), ("woche", "w"), ("semaine", "w"), ("semana", "w"), ("settiman", "w"), ("недел", "w"), ("tydz", "w"), ("tygod", "w"),
        ("أسبوع", "w"), ("週", "w"), ("周", "w"), ("주", "w"), ("주일", "w"), ("星期", "w"),
    ]


    /// What may follow a unit written without spaces: a while's "間" (2日間), "about",
    /// "later", "with", please, a polite ending.
    static let unitTails: Set<String> = ["", "間", "お願いします", "おねがいします", "でお願いします", "で", "ほど", "くらい", "ぐらい", "程度",
                                         "後", "後で", "あと", "あとで", "ください", "してください", "이요", "요", "후", "후에", "뒤", "뒤에", "정도",
                                         "后", "以后", "之后", "左右", "吧"]

    /// The leads that ask for a time of day rather than a while: after them, "9h30" is
    /// half past nine, not nine and a half hours.
    static let timeLeads: Set = ["until", "till", "til", "at", "by", "bis", "um", "jusqu'à", "jusqu’à", "jusqu'a", "vers", "à", "a",
                                 "hasta las", "hasta la", "hasta", "a las", "a la", "до", "в", "do", "o", "حتى", "الساعة"]

    /// The ``timeLeads`` that also lead a while, as "by": "um eine Stunde", "o 2 godziny",
    /// "um 1h 30min", "by an hour"; after "by" itself, "2h" is two hours, not 2:00
    /// (``hoursAfterBy(_:)``).
    static let byLeads: Set = ["by", "um", "o"]

    /// Whether `words` after "by" begin with hours that are a while: "2h", "1 h 30", up to
    /// 12 ("by 14h" is 14:00).
    static func hoursAfterBy(_ words: String) -> Bool {
        let digits = words.prefix(while: \.isNumber)
        guard let hours = Int(digits), hours <= 12 else { return false }
        return words.dropFirst(digits.count).drop { $0 == " " }.first == "h"
    }

    /// The most of a snooze's text read, in bytes: its first words within them
    /// (``firstWords(_:)``), so that no pattern runs over more, and a sentence after the
    /// time ("2h, I am in a meeting with the whole team until …") leaves it the time.
    static let longest = 128

    /// The seconds a snooze's text asks for, from now: read from its first words, so that
    /// what follows them ("2h, thanks", "2 hours please", "15:00.") leaves them what they
    /// were (it made the default snooze stand in for the time asked). Nil when its first
    /// words name no time.
    static func seconds(_ text: String, now: Instant, zone: TimeZone) -> Int64? {
        let marked = withoutDirectionMarks(text)
        let first = firstWords(marked)
        // "half past 3" as "3:30", "quarter to 4" as "3:45", wherever they stand.
        var words = withClockIdiomsRead(asciiDigits(first.lowercased()).trimmingCharacters(in: .whitespacesAndNewlines), now: now, zone: zone)
        // A while written in words ("an hour", "a day") is a while, whatever lead came
        // before it: "um eine Stunde" and "o godzinę" are by an hour.
        var spelled = spelledOut(words)
        let lead = spelled == nil ? ReplyWords.snoozeLeads.first { words.hasPrefix($0 + " ") } : nil
        if let lead {
            words = String(words.dropFirst(lead.count + 1))
            // "for an hour", "dans une heure"; but "à une heure" is one o'clock.
            if byLeads.contains(lead) || !timeLeads.contains(lead) { spelled = spelledOut(words) }
        }
        if let spelled { words = spelled }
        // Japanese puts its "until" after the time: "15時まで"; its "in" after the
        // duration: "30分後に"; and its "at" after the time: "9:00に".
        // Korean's too: "내일까지".
        let until = ReplyWords.untilAfter.contains(where: words.hasSuffix)
        if until { words = String(words.dropLast(2)) }
        // ("午後", afternoon, ends as "後" does.)
        for after in ["後に", "後"] where words.hasSuffix(after) && !words.hasSuffix("午" + after) {
            words = String(words.dropLast(after.count))
            break
        }
        // "at" only after a clock's time ("9:00に", "15時に", "15時30分に"): "10日に" is on the
        // 10th, "30分に" at half past.
        let beforeAt = words.dropLast()
        if words.hasSuffix("に"), beforeAt.hasSuffix("時") || beforeAt.hasSuffix("分") && beforeAt.contains("時") || beforeAt.wholeMatch(of: clock) != nil {
            words = String(words.dropLast())
        }
        // Half an hour more: "1時間半", "1시간 반".
        for (half, whole) in [("時間半", "時間30分"), ("시간 반", "시간 30분"), ("시간반", "시간 30분")] where words.hasSuffix(half) {
            words = String(words.dropLast(half.count)) + whole
            break
        }
        // A fraction written without its zero: ".5h" is half an hour.
        words = withFractionRead(words, led: lead != nil)
        // A day, never a number first (the common snooze, "2h", pays nothing for it), but a
        // date ("3 December", "12月3日"), whose number is no hour when it is past.
        if words.first?.isNumber == false, let seconds = onDay(words, now: now, zone: zone) { return seconds }
        if words.first?.isNumber == true, words.contains(where: { " -.月월年".contains($0) }), beginsWithDate(words) {
            return onDay(words, now: now, zone: zone)
        }
        // Looked for once: most snoozes ("2h, thanks") name no part of the day, and each
        // look compares every part's words.
        let part = partOfDay(in: words)
        // A time or a part of the day before its day ("3pm tomorrow", "15:00 завтра", "10am
        // Monday", "EOD tomorrow", "noon on Friday", "Feierabend morgen"): the day first.
        // Not for a while written in words: "an hour tomorrow" is no 1:00.
        // "by 2h" is two hours, where "until 2h" is 2:00.
        let timeLed = lead.map { timeLeads.contains($0) && !($0 == "by" && hoursAfterBy(words)) } ?? false
        let timeOfDay = until || spelled == nil && timeLed
        if spelled == nil, words.first?.isNumber == true || part != nil,
           let reordered = dayFirst(words, led: timeOfDay, whole: first.endIndex == marked.endIndex),
           let seconds = onDay(reordered, now: now, zone: zone) {
            return seconds
        }
        // After a lead that asks for a time of day ("à", "в", "until", "um"), an hour
        // written with a clock's word names the clock's time, as it does after a day: "à 15
        // heures", "à 18 heures 30 minutes", "à 15h et demie", "a las 10 y media". Other units
        // stay a while: "until 90 minutes", "bis 2 Stunden", "um 2 Stunden", "o 2 godziny",
        // and so do minutes named after "um" and "o" (by): "um 1h 30min".
        let clockLed = spelled == nil && timeLed
        // The first six words at most (`1 h 30 m`), each without the punctuation after it,
        // the most of them that name a time first.
        let leading = leadingWords(words[...])
        let namesPart = part != nil
        for count in stride(from: leading.count, through: 1, by: -1) {
            let prefix = leading.prefix(count).joined(separator: " ")
            // A bare hour ("until 3") is the afternoon's, but not before a word of the
            // night's small hours ("until 3 de la madrugada"); looked for only with one.
            let bare = bareReading(words[...], leading: leading, timeWords: count, otherwise: .afternoonUnlessSoon)
            // A time in a part of the day ("at 7 in the evening", "3 часа дня") before a
            // while its first words name ("3 часа", three hours); "на 3 дня" is three days,
            // but after "until" or "at" the time comes first: "до 5 дня" is 17:00.
            let inPart = { namesPart ? inPartOfDay(prefix, led: timeOfDay, now: now, zone: zone) : nil }
            if timeOfDay, let seconds = inPart() { return seconds }
            if clockLed, let seconds = clockReading(prefix, minutesNamed: !byLeads.contains(lead ?? ""), bare: bare, now: now, zone: zone) { return seconds }
            if let seconds = reading(prefix, timeOfDay: timeOfDay, bare: bare, now: now, zone: zone) { return seconds }
            if !timeOfDay, let seconds = inPart() { return seconds }
        }
        return nil
    }

    /// The first words of `text` within ``longest`` bytes, cut at white space (within
    /// them, at a character where there is none: Japanese), all of it when it is no
    /// longer. A point or comma first is not counted: the matcher keeps one before a
    /// number (".5h").
    static func firstWords(_ text: String) -> Substring {
        let most = longest + (text.first == "." || text.first == "," ? 1 : 0)
        guard text.utf8.count > most else { return text[...] }
        var bytes = 0
        var end = text.startIndex
        var space: String.Index?
        for index in text.indices {
            bytes += text[index].utf8.count
            if bytes > most { break }
            if text[index].isWhitespace { space = index }
            end = text.index(after: index)
        }
        return text[..<(space ?? end)]
    }

    /// The first six words of `text` at most (`1 h 30 m`, `2 hours and a half`, `3 y media
    /// de la tarde`), each without the punctuation after it.
    static func leadingWords(_ text: Substring) -> [Substring] {
        text.split(whereSeparator: \.isWhitespace).prefix(6).map { word in
            word[..<(word.lastIndex { !$0.isPunctuation }.map(word.index(after:)) ?? word.startIndex)]
        }
    }

    /// The seconds that text naming a time, and nothing else, asks for.
    /// - Parameters:
    ///   - timeOfDay: whether a lead such as "until" came before it.
    ///   - bare: how a bare hour from 1 to 5 is read (``BareHour``).
    static func reading(_ words: String, timeOfDay: Bool, bare: BareHour, now: Instant, zone: TimeZone) -> Int64? {
        guard !words.isEmpty else { return nil }
        // White space taken out character by character: through the regex `\s+`, it was
        // 36,000 instructions a snooze, with the store held (callgrind).
        var compact = String(words.filter { !$0.isWhitespace })
        // "at 3 30", "until 9 45": a clock's time with a space for its colon, where a lead
        // asks for a time of day (the hour alone was read, its minutes dropped); without
        // one, "3 30" names no time.
        if timeOfDay, let spaced = spacedClock(words) { compact = spaced }
        // A clock's time as French writes it, spaced ("2 h 30"), is the same time unspaced.
        // Each regex only where what it needs is there: the common snooze ("1h") ran all
        // three, 3% of `chime ingest`'s firing thread.
        if compact.utf8.count >= 4, compact.contains(where: { $0 == ":" || $0 == "h" || $0 == "." }),
           let match = compact.wholeMatch(of: clock), let hour = Int(match.output.1), let minute = Int(match.output.2),
           hour < 24, minute < 60 {
            // "1h30" is an hour and a half, as "1h" is an hour; "09h30", "15h30", "9:30"
            // and "until 9h30" are times of day.
            if match.output.1.count == 1, compact.contains("h"), !timeOfDay { return DurationText.seconds("\(hour)h\(minute)m") }
            return untilNext(hour: readHour(hour, minute: minute, isBare: isBare(compact[...]), bare, now: now, zone: zone), minute: minute, now: now, zone: zone)
        }
        // "until 15h", "15 Uhr", "15時": an hour of the clock. Without a lead, "15h" is
        // fifteen hours, as "2h" is two; "Uhr", "ч" after "до", "時", "点" and "시" (not
        // "時間", "小时", "시간") are always the clock's.
        if timeOfDay || words.contains(where: { $0 == "u" || $0 == "時" || $0 == "点" || $0 == "點" || $0 == "시" }),
           let match = words.wholeMatch(of: hourOnly), let hour = Int(match.output.1), hour < 24,
           timeOfDay || !["h", "ч"].contains(match.output.2) {
            return untilNext(hour: hour, minute: match.output.3 == nil ? 0 : 30, now: now, zone: zone)
        }
        // Only where its minute's character is (a regex costs more than the rest of a snooze).
        if words.contains(where: { $0 == "分" || $0 == "분" }), let match = words.wholeMatch(of: hourAndMinute), let hour = Int(match.output.1), let minute = Int(match.output.2), hour < 24, minute < 60 {
            return untilNext(hour: hour, minute: minute, now: now, zone: zone)
        }
        // "3pm", "8 p.m.", "3:30 pm": a 12-hour clock's (its last dot taken off above).
        if words.contains(where: { $0 == "m" }), let match = words.wholeMatch(of: twelveHour), let hour = Int(match.output.1), (1...12).contains(hour) {
            let minute = match.output.2.flatMap { Int($0) } ?? 0
            guard minute < 60 else { return nil }
            return untilNext(hour: hour % 12 + (match.output.3 == "p" ? 12 : 0), minute: minute, now: now, zone: zone)
        }
        if let seconds = DurationText.seconds(compact) { return seconds }
        // An hour alone after "at" or "until" ("a las 15", "o 15"): the clock's.
        if timeOfDay, (1...2).contains(words.count), words.allSatisfy(\.isASCII), let hour = Int(words), hour < 24 {
            return untilNext(hour: readHour(hour, minute: 0, isBare: isBare(words[...]), bare, now: now, zone: zone), minute: 0, now: now, zone: zone)
        }
        return inUnits(Substring(words))
    }

    /// "3:30" for "3 30": an hour of one or two ASCII digits, one space, and two digits.
    static func spacedClock(_ words: String) -> String? {
        let parts = words.split(separator: " ", omittingEmptySubsequences: false)
        guard parts.count == 2, (1...2).contains(parts[0].utf8.count), parts[1].utf8.count == 2,
              parts.allSatisfy({ $0.utf8.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) } }) else { return nil }
        return "\(parts[0]):\(parts[1])"
    }

    /// "2 hours", "15 min", "1 hour 30 minutes", "1h 30min": numbers each with a unit,
    /// spelled out or DurationText's own letter, read as DurationText's `1h30m` (with its
    /// bounds: a reply is untrusted text).
    static func inUnits(_ words: Substring) -> Int64? {
        var letters = ""
        var rest = words
        while !rest.isEmpty {
            guard let match = rest.prefixMatch(of: spelledPart), let letter = unitLetter(match.output.3) else { return nil }
            rest = rest[match.range.upperBound...]
            // And a half, before the unit or after it: "1 and a half hours" and "1 hora y
            // media" are `90m`, as "1.5 horas" is.
            var number = match.output.1
            if !number.contains(where: { $0 == "." || $0 == "," }) {
                let afterSpace = rest.drop { $0 == " " }
                if match.output.2 != nil {
                    number += ".5"
                } else if let half = ReplyWords.halves.first(where: { afterSpace.hasPrefix($0) && ReplyWords.ended(afterSpace.dropFirst($0.count), after: $0) }) {
                    number += ".5"
                    rest = afterSpace.dropFirst(half.count)
                }
            }
            guard let part = whole(number, letter) else { return nil }
            letters += part
        }
        return DurationText.seconds(letters)
    }

    /// Each unit's next smaller one, and how many of it make one.
    private static let smallerUnit: [String: (factor: Double, letter: String)] = ["w": (7, "d"), "d": (24, "h"), "h": (60, "m"), "m": (60, "s")]

    /// A number of a unit as DurationText's whole numbers: "2" hours is `2h`; a decimal
    /// ("1,5 Stunden", "1.5h") in the next smaller unit, `90m`. Nil for a fraction of a
    /// second or a number past a few digits.
    private static func whole(_ number: Substring, _ letter: String) -> String? {
        guard number.contains(where: { $0 == "." || $0 == "," }) else { return "\(number)\(letter)" }
        guard number.count <= 8, var value = Double(number.replacingOccurrences(of: ",", with: ".")) else { return nil }
        // Smaller units until the number is whole, give or take a binary fraction's error
        // (1.33 × 3,600 is not quite 4,788): "1.5 weeks" is `252h`, not 11 days; "1.2 days"
        // `1728m`. A number still not whole in seconds ("0.333h", 1,198.8 s) is no while,
        // nor is one under a second ("0.5 s").
        var letter = letter
        func isWhole(_ value: Double) -> Bool { abs(value - value.rounded()) < 1e-6 }
        while !isWhole(value), let (factor, unit) = smallerUnit[letter] {
            value *= factor
            letter = unit
        }
        guard isWhole(value), value.rounded() >= 1 else { return nil }
        return "\(Int(value.rounded()))\(letter)"
    }

    /// DurationText's letter for a unit's word: the letter itself, or the unit whose word
    /// it begins with ("hours", "Stunden", "мин").
    static func unitLetter(_ word: Substring) -> String? {
        if ["s", "m", "h", "d", "w"].contains(word) { return String(word) }
        // Written without spaces, a unit is followed by nothing or by what may follow a
        // while ("2時間お願いします", "2시간이요", "30分钟后"): "10日に" is on the 10th, not ten
        // days ("日" begins it, as "heure" begins "heures").
        if let first = word.unicodeScalars.first, first.value >= 0x1100 {
            return units.first { word.hasPrefix($0.prefix) && unitTails.contains(String(word.dropFirst($0.prefix.count))) }?.letter
        }
        return units.first { word.hasPrefix($0.prefix) }?.letter
    }

    /// `text` with a digit of any script as its ASCII digit: a Japanese keyboard's "２時間",
    /// an Arabic one's "٢ ساعة", as the menu's number is read.
    static func asciiDigits(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { ReplyWords.asciiDigit($0) != nil }) else { return text }
        return String(String.UnicodeScalarView(text.unicodeScalars.map { ReplyWords.asciiDigit($0) ?? $0 }))
    }

    /// The seconds until the next `hour`:`minute` in the recipient's zone.
    static func untilNext(hour: Int, minute: Int, now: Instant, zone: TimeZone) -> Int64? {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        guard let next = calendar.nextDate(after: now.date, matching: DateComponents(hour: hour, minute: minute), matchingPolicy: .nextTime)
        else { return nil }
        return Int64(next.timeIntervalSince(now.date).rounded(.up))
    }
}
