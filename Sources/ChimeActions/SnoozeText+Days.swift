import ChimeCore
import Foundation

/// A snooze that names a day ("snooze until tomorrow", "bis Montag", "next week",
/// "tonight"), with a time or a part of the day after it or a time before it, or a part
/// of the day without a day ("at 7 in the evening", "until noon"): read here,
/// the day's words in ``ReplyWords/snoozeDayWords``; a time or a while, in SnoozeText.
extension SnoozeText {
    /// The seconds until the day that `words` begin with, if they begin with one: at the
    /// time named after it ("tomorrow at 15:00", "demain 15h", "明日の15時"), in the part
    /// of the day named with it ("tomorrow evening at 7", "明日の午後3時"), else at that
    /// part's hour ("tomorrow morning", "demain soir"), else at the day's (9:00; tonight
    /// 18:00), in the recipient's zone; "next week" with a weekday is that day of it. Nil
    /// when that is not ahead.
    static func onDay(_ words: String, now: Instant, zone: TimeZone) -> Int64? {
        guard let (day, end) = ReplyWords.snoozeDay(beginningWritten: words) else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let today = calendar.startOfDay(for: now.date)
        var rest = Self.trimmedRest(words[end...])
        var start: Date? = switch day {
        case .tomorrow: calendar.date(byAdding: .day, value: 1, to: today)
        case .tonight: today
        case .nextWeek: calendar.nextDate(after: now.date, matching: DateComponents(weekday: 2), matchingPolicy: .nextTime)
        case .weekday(let weekday): calendar.nextDate(after: now.date, matching: DateComponents(weekday: weekday), matchingPolicy: .nextTime)
        }
        // "next week Wednesday", "来週の水曜日": that weekday of next week.
        if day == .nextWeek, let monday = start, let (named, namedEnd) = ReplyWords.snoozeDay(beginningWritten: rest), case .weekday(let weekday) = named {
            start = calendar.date(byAdding: .day, value: (weekday + 5) % 7, to: monday)
            rest = Self.trimmedRest(rest[namedEnd...])
        }
        // A part of the day, before or after the time.
        var part: Int?
        if let (hour, without) = partOfDay(in: rest) {
            part = hour
            rest = without
        }
        guard let start, var target = calendar.date(bySettingHour: part ?? day.hour, minute: 0, second: 0, of: start) else { return nil }
        if let (seconds, time) = timeOfDay(beginning: rest, after: Instant(start), zone: zone) {
            target = start.addingTimeInterval(TimeInterval(seconds))
            let hour = calendar.component(.hour, from: target)
            if let evening = part ?? (day == .tonight ? 18 : nil), clockHour(hour, in: evening, written: time) != hour {
                // "tomorrow evening at 7", "tonight at 8": after noon.
                target.addTimeInterval(12 * 3600)
            } else if day == .tonight, hour < 12 {
                // "tonight at 1am", "tonight at 2": the night's, after midnight.
                target = calendar.date(byAdding: .day, value: 1, to: target) ?? target
            }
        }
        let seconds = Int64(target.timeIntervalSince(now.date).rounded(.up))
        return seconds > 0 ? seconds : nil
    }

    /// The seconds until the time that `words` name in a part of the day, with no day
    /// before them ("at 7 in the evening", "в 3 часа дня", "午後3時", "um 3 Uhr
    /// nachmittags"), or until that part's hour when they are that part alone ("until
    /// noon", "bis Mittag", "до вечера"): the next one in the recipient's zone. Nil when
    /// they name no part of the day, or more than a time with it.
    static func inPartOfDay(_ words: String, now: Instant, zone: TimeZone) -> Int64? {
        guard let (part, rest) = partOfDay(in: words) else { return nil }
        if rest.isEmpty { return untilNext(hour: part, minute: 0, now: now, zone: zone) }
        guard rest.contains(where: \.isNumber) else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        guard let (seconds, time) = timeOfDay(beginning: rest, after: Instant(calendar.startOfDay(for: now.date)), zone: zone) else { return nil }
        let hour = Int(seconds / 3600) % 24
        return untilNext(hour: clockHour(hour, in: part, written: time), minute: Int(seconds % 3600 / 60), now: now, zone: zone)
    }

    /// The time of day that the first words of `text` name (a lead such as "at" taken
    /// off), in seconds from `midnight` ("15 heures" is 15:00, as "15h" is; "3 часа" is
    /// 3:00), with the words that named it; nil when they name none, or a while of more
    /// than a day.
    private static func timeOfDay(beginning text: String, after midnight: Instant, zone: TimeZone) -> (seconds: Int64, written: String)? {
        let leading = leadingWords(text[...])
        for count in stride(from: leading.count, through: 1, by: -1) {
            var time = leading.prefix(count).joined(separator: " ")
            if let lead = ReplyWords.snoozeLeads.first(where: { timeLeads.contains($0) && time.hasPrefix($0 + " ") }) {
                time = String(time.dropFirst(lead.count + 1))
            }
            if let seconds = reading(time, timeOfDay: true, now: midnight, zone: zone), seconds <= 86_400 { return (seconds, time) }
        }
        return nil
    }

    /// The hour of the clock that `hour` means in the part of the day whose hour is
    /// `part`: after noon in the afternoon and evening ("7 in the evening" is 19:00), but
    /// not a night's small hours ("2 at night") nor a time `written` with am.
    static func clockHour(_ hour: Int, in part: Int, written: String) -> Int {
        let morning = written.contains("am") || written.contains("a.m")
        guard hour < 12, part >= 12, !morning, !(part == 18 && hour < 5) else { return hour }
        return hour + 12
    }

    /// The hour of the part of the day that `text` names, as words of their own, and
    /// `text` without it; nil when it names none.
    private static func partOfDay(in text: String) -> (hour: Int, without: String)? {
        guard let (hour, range) = ReplyWords.partsOfDay.lazy.compactMap({ found in Self.wordRange(of: found.words, in: text).map { (found.hour, $0) } }).first
        else { return nil }
        return (hour, trimmedRest((text[..<range.lowerBound] + " " + text[range.upperBound...])[...]))
    }

    /// `words` with the day its last one or two words name put first ("3pm tomorrow" as
    /// "tomorrow 3pm"); nil when they end with none.
    static func dayLast(_ words: String) -> String? {
        let split = words.split(whereSeparator: \.isWhitespace)
        for count in [2, 1] where count < split.count {
            let tail = split.suffix(count).joined(separator: " ")
            if let (_, end) = ReplyWords.snoozeDay(beginningWritten: tail), end == tail.endIndex {
                return tail + " " + split.dropLast(count).joined(separator: " ")
            }
        }
        return nil
    }

    /// What follows a day's words, without the white space, punctuation, Japanese "の"
    /// (of) and "に" (at) before it and the white space after it.
    private static func trimmedRest(_ text: Substring) -> String {
        String(text.drop { $0.isWhitespace || $0.isPunctuation || $0 == "の" || $0 == "に" }).trimmingCharacters(in: .whitespaces)
    }

    /// Where `phrase` stands in `text` as words of their own: spaces, punctuation or an
    /// end around it, or anywhere for a phrase written without spaces ("午後3時").
    private static func wordRange(of phrase: String, in text: String) -> Range<String.Index>? {
        guard let range = text.range(of: phrase) else { return nil }
        if ReplyWords.unspaced(phrase) || phrase.unicodeScalars.contains(where: { (0xAC00...0xD7A3).contains($0.value) }) { return range }
        let before = range.lowerBound == text.startIndex || text[text.index(before: range.lowerBound)].isWhitespace
        let after = range.upperBound == text.endIndex || text[range.upperBound].isWhitespace || text[range.upperBound].isPunctuation
        return before && after ? range : nil
    }
}
