import ChimeCore
import Foundation

/// A snooze that names a part of the day without a day ("until noon", "at 7 in the
/// evening", "до 3 часов дня", "午後3時"), and what a time means in a part of the day,
/// with a day too ("tomorrow evening at 7"): read here, the parts' words in
/// ``ReplyWords/partsOfDay``.
extension SnoozeText {
    /// The seconds until the time that `words` name in a part of the day, with no day
    /// before them ("at 7 in the evening", "в 3 часа дня", "午後3時", "um 3 Uhr
    /// nachmittags"), or until that part's hour when they are that part alone ("until
    /// noon", "bis zum Abend", "до вечера"; "this afternoon" only while it is ahead today):
    /// the next one in the recipient's zone. Nil when they name no part of the day, or
    /// more than a clock's time with it: "2 hours in the evening" is a while, "2h, thanks,
    /// good evening" a while and a greeting. `led`: whether a lead that asks for a time
    /// ("until", "до") came before `words`.
    static func inPartOfDay(_ words: String, led: Bool, now: Instant, zone: TimeZone) -> Int64? {
        guard let (part, found, _, _) = partOfDay(in: words) else { return nil }
        var rest = found
        // An article or "this" before the part ("the morning at 10", "this afternoon at 3").
        let first = String(rest.prefix { !$0.isWhitespace })
        let this = ReplyWords.partOfDayThis.contains(first)
        if this || ReplyWords.partOfDayArticles.contains(first) { rest = rest.dropFirst(first.count).trimmingCharacters(in: .whitespaces) }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let today = calendar.startOfDay(for: now.date)
        var seconds: Int64?
        if rest.isEmpty {
            seconds = untilNext(hour: part.rawValue, minute: 0, now: now, zone: zone)
        } else {
            let time = withoutTimeLead(rest)
            // With its minutes, half or quarter: "3 y media de la tarde", "8 heures 30 du soir".
            guard let clock = clockTime(time, led: led || time != rest) else { return nil }
            seconds = untilNext(hour: clockHour(clock.hour, in: part, written: time), minute: clock.minute, now: now, zone: zone)
        }
        // "This afternoon" is today's only: never tomorrow's.
        guard let seconds, !this || calendar.isDate(now.date.addingTimeInterval(TimeInterval(seconds)), inSameDayAs: today) else { return nil }
        return seconds
    }

    /// Whether `time` is a clock's time as written beside a part of the day: a number with
    /// at most ``clockWords`` ("7", "7:30", "15 Uhr", "3時半", "3시 반", "7 p.m."), or, after
    /// a lead that asks for a time, with ``clockUnits`` ("в 3 часа дня", "à 3 heures du
    /// soir"), which are a while's without one ("1 час утром", "1h in the morning").
    static func namesClock(_ time: String, led: Bool) -> Bool {
        let words = String(time.filter { !$0.isNumber && !$0.isWhitespace && !":.'’".contains($0) })
        return time.contains(where: \.isNumber) && (clockWords.contains(words) || led && clockUnits.contains(words))
    }

    static let clockWords: Set<String> = ["", "uhr", "時", "時半", "点", "點", "点半", "點半", "点钟", "點鐘", "시", "시반", "am", "pm", "oclock"]
    static let clockUnits: Set<String> = ["h", "ч", "час", "часа", "часов", "heure", "heures"]

    /// The hour of the clock that `hour` means in `part` of the day
    /// (``ReplyWords/PartOfDay/clockHour(_:)``), but as written when it is written with am.
    static func clockHour(_ hour: Int, in part: ReplyWords.PartOfDay, written: String) -> Int {
        written.contains("am") || written.contains("a.m") ? hour : part.clockHour(hour)
    }

    /// The part of the day that `text` names, as words of their own, `text` without it,
    /// whether `text` begins with it, and what comes before it (white space trimmed); nil
    /// when it names none.
    static func partOfDay(in text: String) -> (part: ReplyWords.PartOfDay, without: String, first: Bool, before: String)? {
        let text = text.precomposed
        guard let (part, range) = ReplyWords.partsOfDay.lazy.compactMap({ found in Self.wordRange(of: found.words, in: text).map { (found.part, $0) } }).first
        else { return nil }
        return (part, trimmedRest((text[..<range.lowerBound] + " " + text[range.upperBound...])[...]), range.lowerBound == text.startIndex,
                text[..<range.lowerBound].trimmingCharacters(in: .whitespaces))
    }

    /// Whether `text` is a part of the day and nothing else but an article before it:
    /// "EOD", "the evening", "la mañana", "end of the day" ("this afternoon" is today's).
    static func isPartOfDayAlone(_ text: String) -> Bool {
        guard let found = partOfDay(in: text) else { return false }
        return found.without.isEmpty || ReplyWords.partOfDayArticles.contains(found.without)
    }

    /// The words that `text` begins with when they name a part of the day, an article
    /// before it taken with it ("afternoon" of "afternoon, thanks", "the evening"); nil
    /// when it begins with none.
    static func leadingPartOfDay(_ text: Substring) -> Substring? {
        let start = text.drop { $0.isWhitespace || $0.isPunctuation }
        var rest = start
        let first = rest.prefix { !$0.isWhitespace }
        if ReplyWords.partOfDayArticles.contains(String(first)) { rest = rest.dropFirst(first.count).drop(while: \.isWhitespace) }
        // The longest first, a word of its own.
        guard let found = ReplyWords.partsOfDay.first(where: { entry in
            rest.hasPrefix(entry.words) && rest.dropFirst(entry.words.count).first.map { $0.isWhitespace || $0.isPunctuation } ?? true
        }) else { return nil }
        return start[..<rest.index(rest.startIndex, offsetBy: found.words.count)]
    }
}
