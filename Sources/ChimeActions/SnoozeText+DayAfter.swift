import ChimeCore
import ChimeReply
import Foundation

/// A snooze whose day comes after its time or its part of the day ("3pm tomorrow", "EOD
/// on Friday", "3pm thanks, tomorrow", "noon,tomorrow"): its words put in the order
/// SnoozeText+Days reads ("tomorrow 3pm"), where what comes before the day names a time.
extension SnoozeText {
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
    /// the day alone ("EOD", "the evening"), or a clock's time in one ("7 in the evening",
    /// "3 часов дня").
    static func namesTimeOfDay(_ time: String, led: Bool) -> Bool {
        let led = led || (Int(time.prefix(while: \.isNumber)) ?? 0) >= 13
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
}
