import ChimeCore
import Foundation

/// How long a reply's `snooze` asks for: `10m`, `1h30m`, `2 hours`, `15 min`, `3 days`,
/// or a time of day (`15:00`, the next one in the recipient's zone).
enum SnoozeText {
    // Built once: a regex literal is built anew each time it is evaluated.
    nonisolated(unsafe) static let clock = /(\d{1,2})[:h.](\d{2})/
    nonisolated(unsafe) static let spelled = /(\d+)\s*([a-z]+)/

    /// The longest text read as a duration: anything longer names none (and is not run
    /// through the patterns at all).
    static let longest = 64

    static func seconds(_ text: String, now: Instant, zone: TimeZone) -> Int64? {
        guard text.utf8.count <= longest else { return nil }
        let words = text.lowercased().trimmingCharacters(in: .whitespacesAndNewlines)
            .replacingOccurrences(of: "until ", with: "").replacingOccurrences(of: "for ", with: "")
        guard !words.isEmpty else { return nil }
        if let match = words.wholeMatch(of: clock), let hour = Int(match.output.1), let minute = Int(match.output.2),
           hour < 24, minute < 60 {
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = zone
            guard let next = calendar.nextDate(after: now.date, matching: DateComponents(hour: hour, minute: minute), matchingPolicy: .nextTime)
            else { return nil }
            return Int64(next.timeIntervalSince(now.date).rounded(.up))
        }
        // White space taken out character by character: through the regex `\s+`, it was
        // 36,000 instructions a snooze, with the store held (callgrind).
        let compact = String(words.filter { !$0.isWhitespace })
        if let seconds = DurationText.seconds(compact) { return seconds }
        // "2 hours", "15 min", "3 days": a number and a spelled-out unit, read as
        // DurationText's `2h` (with its bounds: a reply is untrusted text).
        guard let match = words.wholeMatch(of: spelled) else { return nil }
        let units: [(prefix: String, letter: String)] = [("sec", "s"), ("min", "m"), ("hour", "h"), ("hr", "h"), ("day", "d"), ("week", "w")]
        guard let unit = units.first(where: { match.output.2.hasPrefix($0.prefix) }) else { return nil }
        return DurationText.seconds("\(match.output.1)\(unit.letter)")
    }
}
