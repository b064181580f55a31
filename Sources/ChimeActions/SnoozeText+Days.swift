import ChimeCore
import Foundation

/// A snooze that names a day ("snooze until tomorrow", "bis Montag", "next week",
/// "tonight"), with a time or a part of the day after it or a time before it: read here,
/// the day's words in ``ReplyWords/snoozeDayWords``; a part of the day without a day, in
/// SnoozeText+PartsOfDay; a time or a while, in SnoozeText.
extension SnoozeText {
    /// The seconds until the day that `words` begin with, if they begin with one: at the
    /// time named after it ("tomorrow at 15:00", "demain 15h", "明日の15時"), in the part
    /// of the day named with it ("tomorrow evening at 7", "明日の午後3時"), else at that
    /// part's hour ("tomorrow morning", "demain soir"), else at the day's (9:00; tonight
    /// 18:00), in the recipient's zone; "next week" with a weekday is that day of it. Nil
    /// when that is not ahead.
    static func onDay(_ words: String, now: Instant, zone: TimeZone) -> Int64? {
        guard let (found, end) = ReplyWords.snoozeDay(beginningWritten: words) else { return nil }
        var day = found
        if case .date = day, !dateStands(words[..<end], before: words[end...]) { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let today = calendar.startOfDay(for: now.date)
        var rest = Self.trimmedRest(words[end...])
        // "Monday, December 7", "lundi 7 décembre": the date.
        if case .weekday = day, let (named, namedEnd) = ReplyWords.snoozeDay(beginningWritten: rest), case .date = named,
           dateStands(rest[..<namedEnd], before: rest[namedEnd...]) {
            day = named
            rest = Self.trimmedRest(rest[namedEnd...])
        }
        // The next of a weekday, never today's.
        let next = { (weekday: Int) in calendar.nextDate(after: now.date, matching: DateComponents(weekday: weekday), matchingPolicy: .nextTime) }
        var start: Date? = switch day {
        case .tomorrow: calendar.date(byAdding: .day, value: 1, to: today)
        case .tonight: today
        case .nextWeek: next(2)
        case .weekend: calendar.component(.weekday, from: now.date) == 7 ? calendar.date(byAdding: .day, value: 1, to: today) : next(7)
        case .nextWeekend: next(2).flatMap { calendar.date(byAdding: .day, value: 5, to: $0) }
        case .weekday(let weekday): next(weekday)
        case .date(let month, let dayOfMonth, let year): date(month: month, day: dayOfMonth, year: year, from: today, calendar: calendar)
        }
        // "next week Wednesday", "来週の水曜日": that weekday of next week.
        if day == .nextWeek, let monday = start, let (named, namedEnd) = ReplyWords.snoozeDay(beginningWritten: rest), case .weekday(let weekday) = named {
            start = calendar.date(byAdding: .day, value: (weekday + 5) % 7, to: monday)
            rest = Self.trimmedRest(rest[namedEnd...])
        }
        // A part of the day, first (an article before it: "tomorrow the evening") or after
        // the time: "tomorrow evening at 7", "завтра в 8 вечера", "tomorrow 7 evening,
        // thanks"; not a farewell's ("до завтра, спокойной ночи").
        var part: ReplyWords.PartOfDay?
        if let found = partOfDay(in: rest), found.first || timeLeads.contains(found.before) || ReplyWords.partOfDayArticles.contains(found.before)
            || namesClock(withoutTimeLead(found.before), led: true) {
            part = found.part
            rest = found.without
        }
        // Midnight is the day's end.
        if part == .midnight { start = start.flatMap { calendar.date(byAdding: .day, value: 1, to: $0) } }
        guard let start, var target = calendar.date(bySettingHour: part?.rawValue ?? day.hour, minute: 0, second: 0, of: start) else { return nil }
        // "tomorrow at 3" is 15:00, "tomorrow morning at 3" 3:00.
        if let (seconds, time) = timeOfDay(beginning: rest, after: Instant(start), bare: part == nil ? .afternoon : .asWritten, zone: zone) {
            target = start.addingTimeInterval(TimeInterval(seconds))
            let hour = calendar.component(.hour, from: target)
            // Tonight's time is the evening's ("this evening at 4", "esta tarde a las 3"),
            // and its 12 midnight.
            if let named = part ?? (day == .tonight ? .evening : nil), clockHour(hour, in: named, written: time) != hour || day == .tonight && hour == 12 {
                // "tomorrow evening at 7", "tonight at 8": after noon; "tomorrow night at
                // 12", "tonight at 12", twelve hours on too: midnight.
                target.addTimeInterval(12 * 3600)
            } else if day == .tonight, hour < 12 {
                // "tonight at 1am": the night's, after midnight.
                target = calendar.date(byAdding: .day, value: 1, to: target) ?? target
            }
        }
        let seconds = Int64(target.timeIntervalSince(now.date).rounded(.up))
        return seconds > 0 ? seconds : nil
    }

    /// The time of day that the first words of `text` name (a lead such as "at" taken
    /// off), in seconds from `midnight` ("15 heures" is 15:00, as "15h" is; "3 часа" is
    /// 3:00), with the words that named it; nil when they name none, or a while of more
    /// than a day. A bare hour is read as `bare` says (``BareHour``).
    private static func timeOfDay(beginning text: String, after midnight: Instant, bare: BareHour, zone: TimeZone) -> (seconds: Int64, written: String)? {
        let leading = leadingWords(text[...])
        for count in stride(from: leading.count, through: 1, by: -1) {
            let time = withoutTimeLead(leading.prefix(count).joined(separator: " "))
            // "tomorrow at 3 de la madrugada" is 3:00.
            let bare = bareReading(text[...], leading: leading, timeWords: count, otherwise: bare)
            // With its minutes, half or quarter: "18 heures 30", "3 y cuarto".
            if let clock = clockTime(time, led: true),
               let seconds = untilNext(hour: readHour(clock.hour, minute: clock.minute, isBare: clock.bare, bare, now: midnight, zone: zone),
                                       minute: clock.minute, now: midnight, zone: zone) {
                return (seconds, time)
            }
            if let seconds = reading(time, timeOfDay: true, bare: bare, now: midnight, zone: zone), seconds <= 86_400 {
                return (seconds, time)
            }
        }
        return nil
    }

    /// `time` without a lead that asks for a time of day ("at 7", "в 3 часа").
    static func withoutTimeLead(_ time: String) -> String {
        guard let lead = ReplyWords.snoozeLeads.first(where: { timeLeads.contains($0) && time.hasPrefix($0 + " ") }) else { return time }
        return String(time.dropFirst(lead.count + 1))
    }

    /// What follows a day's words, without the white space, punctuation, Japanese "の"
    /// (of) and "に" (at) before it and the white space after it.
    static func trimmedRest(_ text: Substring) -> String {
        String(text.drop { $0.isWhitespace || $0.isPunctuation || $0 == "の" || $0 == "に" }).trimmingCharacters(in: .whitespaces)
    }

    /// Where `phrase` stands in `text` as words of their own: spaces, punctuation or an
    /// end around it, or anywhere for a phrase written without spaces ("午後3時"). Both in
    /// NFC, as ``ReplyWords``' phrases are: a byte search then finds what Foundation's
    /// `range(of:)` would (``Swift/String/rangeOfBytes(_:)``).
    static func wordRange(of phrase: String, in text: String) -> Range<String.Index>? {
        guard let range = text.rangeOfBytes(phrase) else { return nil }
        if ReplyWords.unspaced(phrase) || phrase.unicodeScalars.contains(where: { (0xAC00...0xD7A3).contains($0.value) }) { return range }
        let before = range.lowerBound == text.startIndex || text[text.index(before: range.lowerBound)].isWhitespace
        let after = range.upperBound == text.endIndex || text[range.upperBound].isWhitespace || text[range.upperBound].isPunctuation
        return before && after ? range : nil
    }
}
