import ChimeCore
import Foundation

/// A snooze that names a day ("snooze until tomorrow", "bis Montag", "next week",
/// "tonight"), with a time or a part of the day after it or a time before it: read here,
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
        if let (hour, range) = ReplyWords.partsOfDay.lazy.compactMap({ found in Self.wordRange(of: found.words, in: rest).map { (found.hour, $0) } }).first {
            part = hour
            rest = Self.trimmedRest((rest[..<range.lowerBound] + " " + rest[range.upperBound...])[...])
        }
        guard let start, var target = calendar.date(bySettingHour: part ?? day.hour, minute: 0, second: 0, of: start) else { return nil }
        let leading = leadingWords(rest[...])
        for count in stride(from: leading.count, through: 1, by: -1) {
            var time = leading.prefix(count).joined(separator: " ")
            if let lead = ReplyWords.snoozeLeads.first(where: { timeLeads.contains($0) && time.hasPrefix($0 + " ") }) {
                time = String(time.dropFirst(lead.count + 1))
            }
            // The time of day from the day's midnight ("15 heures" is 15:00, as "15h" is);
            // no while of a day or more.
            guard let seconds = reading(time, timeOfDay: true, now: Instant(start), zone: zone), seconds <= 86_400 else { continue }
            target = start.addingTimeInterval(TimeInterval(seconds))
            let hour = calendar.component(.hour, from: target)
            let morning = time.contains("am") || time.contains("a.m")
            if hour < 12, !morning, (part ?? 0) >= 12 || day == .tonight && hour >= 1 {
                // "tomorrow evening at 7", "tonight at 8": after noon.
                target.addTimeInterval(12 * 3600)
            } else if day == .tonight, hour < 12 {
                // "tonight at 1am": the night's, after midnight.
                target = calendar.date(byAdding: .day, value: 1, to: target) ?? target
            }
            break
        }
        let seconds = Int64(target.timeIntervalSince(now.date).rounded(.up))
        return seconds > 0 ? seconds : nil
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
