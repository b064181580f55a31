import ChimeCore
import ChimeReply
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
            // "tomorrow at 3 de la madrugada" is 3:00; looked for only with a bare hour.
            let bare = bare == .asWritten || !leading.prefix(count).contains(where: isBare) ? bare : bareReading(text[...], timeWords: count, otherwise: bare)
            // With its minutes, half or quarter: "18 heures 30", "3 y cuarto".
            if let clock = clockTime(time, led: true),
               let seconds = untilNext(hour: clock.bare ? bareHour(clock.hour, minute: clock.minute, bare, now: midnight, zone: zone) : clock.hour,
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

    /// `words` with the day that follows their time put first ("3pm tomorrow" as "tomorrow
    /// 3pm", "EOD on Friday" as "on Friday EOD", "3pm next week Friday" as "next week
    /// Friday 3pm"), of what follows the day only a part of the day kept ("3 pm tomorrow
    /// afternoon, thanks" as "tomorrow 3 pm afternoon"), so that no later number is read as
    /// the time's minutes ("10h lundi 23"). A word begins after white space or punctuation
    /// ("noon,tomorrow", "定時、明日"). What comes before the day must name a time of day
    /// (``namesTimeOfDay(_:led:)``; `led`: whether a lead such as "until" came first), or
    /// after a break, its first words must ("3pm thanks, tomorrow", "9am sharp, Monday");
    /// after a break or an aside, only thanks may follow the day ("3pm, tomorrow please",
    /// "EOD (Friday)"; "2h, see you tomorrow", "3pm. Monday works too", "1h (meeting
    /// tomorrow)" and "2h, tomorrow" are nil). Text that begins with a number and ends with
    /// the day, with no break and not cut (`whole`), has it first whatever comes between
    /// ("2 hours tomorrow" is 2:00). Nil too when no day begins at one of the first five
    /// word starts after the first.
    static func dayFirst(_ words: String, led: Bool, whole: Bool) -> String? {
        let starts = words.indices.lazy.filter { index in
            let character = words[index]
            guard !character.isWhitespace, !character.isPunctuation, index != words.startIndex else { return false }
            let previous = words[words.index(before: index)]
            // Not "p.m." nor "12:30", "3,5".
            return previous.isWhitespace || !character.isNumber && Self.wordBreaks.contains(previous)
        }.prefix(5)
        for start in starts {
            var before = words[..<start].trimmingCharacters(in: .whitespaces)
            // An aside ends the sentence as a comma does.
            let ended = before.last.map(asides.contains) == true || endsSentence(before)
            if ended { before = before.dropLast().trimmingCharacters(in: .whitespaces) }
            let tail = String(words[start...])
            guard let (day, found) = ReplyWords.snoozeDay(beginningWritten: tail) else {
                if ended { return nil }
                continue
            }
            var end = found
            // "next week Friday", "la semaine prochaine mercredi": that weekday of it.
            let spaced = tail[end...].firstIndex { !$0.isWhitespace } ?? tail.endIndex
            let following = String(tail[spaced...])
            if day == .nextWeek, let (named, namedEnd) = ReplyWords.snoozeDay(beginningWritten: following), case .weekday = named {
                end = tail.index(spaced, offsetBy: following.distance(from: following.startIndex, to: namedEnd))
            }
            let dayWords = tail[..<end]
            // "10 de la mañana" ends with a part of the day, not with tomorrow.
            let through = " " + before + " " + dayWords
            if ReplyWords.partsOfDay.contains(where: { $0.words.count > dayWords.count && through.hasSuffix(" " + $0.words) }) { continue }
            let after = tail[end...]
            let part = leadingPartOfDay(after)
            let rest = after[(part?.endIndex ?? after.startIndex)...]
            let alone = rest.allSatisfy { $0.isWhitespace || ".!)]}\"”»」）".contains($0) }
            let time: String
            if ended {
                guard alone || ActionMatcher.onlyCourtesy(ReplyWords.fold(String(rest))[...]), let named = timeWords(of: before, led: led) else { return nil }
                time = named
            } else if namesTimeOfDay(before, led: led) || whole && alone && part == nil && words.first?.isNumber == true {
                time = before
            } else {
                return nil
            }
            return String(dayWords) + " " + time + (part.map { " " + $0 } ?? "")
        }
        return nil
    }

    /// Whether `time` names a time of day, whole: a clock's time ("3pm", "15:00", "15 Uhr";
    /// "3 heures et demie"; "2h" only after a lead, `led`, or from 13 on: "15h"), a part of
    /// the day alone ("EOD",
    /// "the evening"), or a clock's time in one ("7 in the evening", "3 часов дня").
    static func namesTimeOfDay(_ time: String, led: Bool) -> Bool {
        let led = led || Int(time.prefix(while: \.isNumber)) ?? 0 >= 13
        // With its half or quarter: "3 heures et demie", "3 y cuarto".
        if namesClock(time, led: led) || clockTime(time, led: led) != nil || isPartOfDayAlone(time) { return true }
        // Not a while's words with no lead: "3 дня" is three days, as in the snooze alone.
        guard let found = partOfDay(in: time), !found.before.isEmpty, found.without == found.before, led || inUnits(time[...]) == nil else { return false }
        return namesClock(withoutTimeLead(found.before), led: true)
    }

    /// The most of the first words of `text` that name a time of day
    /// (``namesTimeOfDay(_:led:)``): "3pm" of "3pm thanks", "7 in the evening" of "7 in the
    /// evening please"; nil when none do, and when a unit's word follows them: they are a
    /// while's number then ("2" of "2 hours", "3 Std.", "2 more hours").
    static func timeWords(of text: String, led: Bool) -> String? {
        let split = leadingWords(text[...])
        for count in stride(from: split.count, through: 1, by: -1) {
            let time = split.prefix(count).joined(separator: " ")
            guard namesTimeOfDay(time, led: led) else { continue }
            return split[count...].contains { unitLetter($0) != nil } ? nil : time
        }
        return nil
    }

    /// What may stand between two words where no space does: "noon,tomorrow", "定時、明日",
    /// "EOD/Monday", "夜（月曜日）".
    static let wordBreaks: Set<Character> = Set(",;:!?…—–/([{\"“«「（、。，：；！？،؛؟")

    /// Whether `text` ends a sentence: with a comma, a full stop (not a.m.'s or p.m.'s), an
    /// ellipsis, a dash, a colon, a semicolon, or an exclamation or question mark, in any
    /// of the shipped scripts.
    static func endsSentence(_ text: String) -> Bool {
        guard let last = text.last else { return false }
        if last == "." { return !text.hasSuffix("a.m.") && !text.hasSuffix("p.m.") }
        return ",;:!?…—–、。，．：；！？،؛؟".contains(last)
    }

    /// What follows a day's words, without the white space, punctuation, Japanese "の"
    /// (of) and "に" (at) before it and the white space after it.
    static func trimmedRest(_ text: Substring) -> String {
        String(text.drop { $0.isWhitespace || $0.isPunctuation || $0 == "の" || $0 == "に" }).trimmingCharacters(in: .whitespaces)
    }

    /// Where `phrase` stands in `text` as words of their own: spaces, punctuation or an
    /// end around it, or anywhere for a phrase written without spaces ("午後3時").
    static func wordRange(of phrase: String, in text: String) -> Range<String.Index>? {
        guard let range = text.range(of: phrase) else { return nil }
        if ReplyWords.unspaced(phrase) || phrase.unicodeScalars.contains(where: { (0xAC00...0xD7A3).contains($0.value) }) { return range }
        let before = range.lowerBound == text.startIndex || text[text.index(before: range.lowerBound)].isWhitespace
        let after = range.upperBound == text.endIndex || text[range.upperBound].isWhitespace || text[range.upperBound].isPunctuation
        return before && after ? range : nil
    }
}
