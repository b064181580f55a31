import ChimeCore
import Foundation

/// A snooze's time of day as a clock's, where its words could name a while: after a lead
/// asking for a time ("à 15 heures", "à 18 heures 30", "a las 10 y media") and in a part of
/// the day ("à 8 heures 30 du soir").
extension SnoozeText {
    /// The seconds until the next time of day that `words` name as a clock's
    /// (``clockTime(_:led:minutesNamed:)``, after a lead asking for a time), a bare hour
    /// read as `bare` says; nil when they name none.
    static func clockReading(_ words: String, minutesNamed: Bool, bare: BareHour, now: Instant, zone: TimeZone) -> Int64? {
        guard let clock = clockTime(words, led: true, minutesNamed: minutesNamed) else { return nil }
        return untilNext(hour: readHour(clock.hour, minute: clock.minute, isBare: clock.bare, bare, now: now, zone: zone), minute: clock.minute, now: now, zone: zone)
    }

    /// The time of day that `words` name as a clock's: a clock's time ("15:00", "3pm",
    /// "15h30", "15 Uhr"), an hour alone, or with an hours' word after a lead asking for a
    /// time (`led`: "à 15 heures", "в 3 часа"), with its minutes, half or quarter ("18
    /// heures 30", "15 Uhr 30", "15h et demie", "10 y media", "10 y cuarto"); nil when they
    /// name none. A while's words are read as that long after a midnight of no zone's, so
    /// that no change of clocks moves them; "24h" is a while's. Minutes named as such ("18
    /// heures 30 minutes") are a clock's unless `minutesNamed` is false (after "um" and
    /// "o", which lead a while too: "um 1h 30min" is a while). The hour as written, with
    /// whether it is a bare one (``isBare(_:)``: "a las 3 y media").
    static func clockTime(_ words: String, led: Bool, minutesNamed: Bool = true) -> (hour: Int, minute: Int, bare: Bool)? {
        var base = Substring(words)
        var added = 0
        if let fraction = clockFractions.first(where: { words.hasSuffix(" " + $0.words) }) {
            base = base.dropLast(fraction.words.count + 1)
            added = fraction.minutes
        } else if let match = base.wholeMatch(of: hourWordMinutes), let minute = Int(match.output.1), minute < 60,
                  minutesNamed || match.output.2 == nil {
            base = base[..<match.output.1.startIndex]
            added = minute
        }
        let time = base.trimmingCharacters(in: .whitespaces)
        // Midnight reads as the next one, a day on ("0 Uhr 30" is 0:30); "24h" is a while.
        guard namesClock(time, led: led), !time.hasPrefix("24"),
              let read = reading(time, timeOfDay: true, bare: .asWritten, now: Instant(seconds: 0), zone: utc), read <= 86_400 else { return nil }
        let minutes = Int(read / 60) % 1440 + added
        guard minutes < 1440 else { return nil }
        return (minutes / 60, minutes % 60, isBare(time[...]))
    }

    /// A half or a quarter after a clock's hour, lower case, with its minutes.
    static let clockFractions: [(words: String, minutes: Int)] = ReplyWords.halves.map { ($0, 30) }
        + [("y cuarto", 15), ("et quart", 15), ("e un quarto", 15), ("и четверть", 15)]

    /// An hour with its clock's word, then the minutes (captured) after it, perhaps named
    /// (captured when in Latin letters): "18 heures 30", "15 Uhr 30", "18h30min", "15 ч 30
    /// мин" (Russian's "в" leads no while).
    nonisolated(unsafe) static let hourWordMinutes = /\d{1,2}\s*(?:heures?|h|uhr|ч|час|часа|часов)\s*(\d{2})(?:\s*(min|minutes?|minutos?|minuten?)|\s*(?:мин|минут))?/

    /// UTC, made once (a zone is looked up by its name each time one is made): the clock's
    /// readings' zone, and the recipient's when none is known (``ActionDesk``).
    static let utc = TimeZone(identifier: "UTC")!
}
