import ChimeCore
import Foundation

/// How long a reply's `snooze` asks for: `10m`, `1h30m`, `2 hours`, `15 min`, `3 days`,
/// in the shipped languages too (`2 Stunden`, `2 heures`, `2 часа`, `2時間`), or a time
/// of day (`15:00`, `3pm`, the next one in the recipient's zone).
enum SnoozeText {
    // Built once: a regex literal is built anew each time it is evaluated.
    nonisolated(unsafe) static let clock = /(\d{1,2})[:h.](\d{2})/
    nonisolated(unsafe) static let spelled = /(\d+)\s*(\p{L}+)/
    nonisolated(unsafe) static let twelveHour = /(\d{1,2})(?:[:.](\d{2}))?\s*([ap])\.?m/

    /// The start of each unit's words, lower case, and DurationText's letter for it.
    static let units: [(prefix: String, letter: String)] = [
        ("sec", "s"), ("sek", "s"), ("seg", "s"), ("сек", "s"), ("秒", "s"),
        ("min", "m"), ("мин", "m"), ("分", "m"),
        ("hour", "h"), ("hr", "h"), ("stund", "h"), ("heure", "h"), ("hora", "h"), ("ora", "h"), ("ore", "h"), ("uur", "h"), ("час", "h"),
        ("godz", "h"), ("ساع", "h"), ("時間", "h"), ("小时", "h"), ("小時", "h"), ("시간", "h"),
        ("day", "d"), ("tag", "d"), ("jour", "d"), ("día", "d"), ("dia", "d"), ("giorn", "d"), ("dag", "d"), ("дн", "d"), ("ден", "d"),
        ("день", "d"), ("dni", "d"), ("dzie", "d"), ("يوم", "d"), ("أيام", "d"), ("日", "d"), ("天", "d"), ("일", "d"),
        ("week", "w"), ("woche", "w"), ("semaine", "w"), ("semana", "w"), ("settiman", "w"), ("недел", "w"), ("tydz", "w"), ("tygod", "w"),
        ("أسبوع", "w"), ("週", "w"), ("周", "w"), ("주", "w"),
    ]


    /// The longest text read as a duration: anything longer names none (and is not run
    /// through the patterns at all).
    static let longest = 64

    /// The seconds a snooze's text asks for, from now: read from its first words, so that
    /// what follows them ("2h, thanks", "2 hours please", "15:00.") leaves them what they
    /// were (it made the default snooze stand in for the time asked). Nil when its first
    /// words name no time.
    static func seconds(_ text: String, now: Instant, zone: TimeZone) -> Int64? {
        guard text.utf8.count <= longest else { return nil }
        var words = text.lowercased().trimmingCharacters(in: .whitespacesAndNewlines)
        if let word = ReplyWords.snoozeLeads.first(where: { words.hasPrefix($0 + " ") }) { words = String(words.dropFirst(word.count + 1)) }
        // The first four words at most (`1 h 30 m`), each without the punctuation after it,
        // the most of them that name a time first.
        let leading = words.split(whereSeparator: \.isWhitespace).prefix(4).map { word in
            word[..<(word.lastIndex { !$0.isPunctuation }.map(word.index(after:)) ?? word.startIndex)]
        }
        for count in stride(from: leading.count, through: 1, by: -1) {
            if let seconds = reading(leading.prefix(count).joined(separator: " "), now: now, zone: zone) { return seconds }
        }
        return nil
    }

    /// The seconds that text naming a time, and nothing else, asks for.
    private static func reading(_ words: String, now: Instant, zone: TimeZone) -> Int64? {
        guard !words.isEmpty else { return nil }
        if let match = words.wholeMatch(of: clock), let hour = Int(match.output.1), let minute = Int(match.output.2),
           hour < 24, minute < 60 {
            return untilNext(hour: hour, minute: minute, now: now, zone: zone)
        }
        // "3pm", "8 p.m.", "3:30 pm": a 12-hour clock's (its last dot taken off above).
        if let match = words.wholeMatch(of: twelveHour), let hour = Int(match.output.1), (1...12).contains(hour) {
            let minute = match.output.2.flatMap { Int($0) } ?? 0
            guard minute < 60 else { return nil }
            return untilNext(hour: hour % 12 + (match.output.3 == "p" ? 12 : 0), minute: minute, now: now, zone: zone)
        }
        // White space taken out character by character: through the regex `\s+`, it was
        // 36,000 instructions a snooze, with the store held (callgrind).
        let compact = String(words.filter { !$0.isWhitespace })
        if let seconds = DurationText.seconds(compact) { return seconds }
        // "2 hours", "15 min", "3 days": a number and a spelled-out unit, read as
        // DurationText's `2h` (with its bounds: a reply is untrusted text).
        guard let match = words.wholeMatch(of: spelled) else { return nil }
        guard let unit = units.first(where: { match.output.2.hasPrefix($0.prefix) }) else { return nil }
        return DurationText.seconds("\(match.output.1)\(unit.letter)")
    }

    /// The seconds until the next `hour`:`minute` in the recipient's zone.
    private static func untilNext(hour: Int, minute: Int, now: Instant, zone: TimeZone) -> Int64? {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        guard let next = calendar.nextDate(after: now.date, matching: DateComponents(hour: hour, minute: minute), matchingPolicy: .nextTime)
        else { return nil }
        return Int64(next.timeIntervalSince(now.date).rounded(.up))
    }
}
