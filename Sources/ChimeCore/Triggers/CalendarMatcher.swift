/// Finds the instants at which a ``DateComponentsPattern`` matches in a zone.
///
/// Semantics of Foundation's `Calendar.nextDate(after:matching:matchingPolicy: .nextTime,
/// repeatedTimePolicy: .first)`: a matching wall time skipped by a DST jump fires at the
/// first instant after the gap; one that occurs twice fires once, at its first
/// occurrence; day 31 or February 29 match only where they exist. A pattern without an
/// hour (an hourly :30) fires every hour the clock passes: none in a gap, twice in an
/// hour shown twice, as Foundation looks for repeats within one hour, the unit above. Written by hand on
/// civil-day arithmetic because Foundation's implementations differ between platforms
/// on exactly these edge cases, and a scheduler must give one answer.
public struct CalendarMatcher: Sendable {
    public let pattern: DateComponentsPattern
    public let clock: ZoneClock
    private let times: [Int]

    public init(_ pattern: DateComponentsPattern, clock: ZoneClock) {
        self.pattern = pattern
        self.clock = clock
        self.times = pattern.times()
    }

    /// The first matching instant strictly after `after`, or nil when there is none
    /// within 400 years (the Gregorian calendar's full cycle), or in the pattern's year
    /// when it names one (however far ahead: `{"year": 2500}` is 2500's January 1st).
    public func next(after: Instant) -> Instant? {
        // Start a day early: a wall time on the previous local day can map after `after`
        // when the zone's offset shrinks across midnight.
        let startDay = clock.local(after).floorDivided(by: 86_400) - 1
        var day = startDay
        var lastDay = startDay + 146_097 // 400 years
        if let year = pattern.year {
            // Only that year can match: look there, a day either side for the zone.
            day = max(startDay, CivilCalendar.days(year: year, month: 1, day: 1) - 1)
            lastDay = CivilCalendar.days(year: year + 1, month: 1, day: 1) + 1
        }
        while day <= lastDay {
            guard let matching = nextMatchingDay(from: day, through: lastDay) else { return nil }
            if let found = firstTime(on: matching, after: after) { return found }
            day = matching + 1
        }
        return nil
    }

    /// How many matching instants fall in `(start, end]`, and the last of them. Steps
    /// through the first few thousand; past them, whole days count their matching times
    /// at once, except days on which the zone's offset changes, which are stepped
    /// through so gaps and overlaps count as they fire.
    public func count(after start: Instant, through end: Instant, stepped: Int = 2_000) -> (count: Int, last: Instant?) {
        var count = 0
        var last: Instant?
        var cursor = start
        func step(until limit: Instant, atMost: Int = .max) {
            var taken = 0
            while taken < atMost, let candidate = next(after: cursor), candidate <= limit {
                count += 1
                taken += 1
                last = candidate
                cursor = candidate
            }
            if taken < atMost { cursor = max(cursor, limit) }
        }
        step(until: end, atMost: stepped)
        guard cursor < end else { return (count, last) }
        // Finish the cursor's local day by stepping, then whole days, then the last day.
        let endDay = clock.local(end).floorDivided(by: 86_400)
        var day = clock.local(cursor).floorDivided(by: 86_400) + 1
        step(until: min(end, clock.instant(local: day * 86_400) + -1))
        while day < endDay {
            let dayStart = clock.instant(local: day * 86_400)
            let dayEnd = clock.instant(local: (day + 1) * 86_400) + -1
            if pattern.matches(day: day) {
                // The offset the same from just before the day to its end: no change at
                // its midnight either (Santiago springs forward at 00:00, and local
                // midnight already has the new offset), else its gap was counted whole.
                let offset = clock.offset(at: dayStart.seconds)
                if clock.offset(at: dayStart.seconds - 1) == offset, offset == clock.offset(at: dayEnd.seconds) {
                    count += times.count
                    last = instant(day, times[times.count - 1])
                    cursor = dayEnd
                } else {
                    cursor = dayStart + -1
                    step(until: dayEnd)
                }
            }
            cursor = dayEnd
            day += 1
        }
        step(until: end)
        return (count, last)
    }

    /// The first matching time on a day whose instant is after `after`; instants grow
    /// with wall times (gaps collapse, repeats take the first), so a binary search works.
    private func firstTime(on day: Int64, after: Instant) -> Instant? {
        if everyHour, let change = offsetChange(on: day) { return firstTimeEveryHour(on: day, after: after, change: change) }
        let index = firstTimeIndex { instant(day, $0) > after }
        return index < times.count ? instant(day, times[index]) : nil
    }

    /// The index of the first of ``times`` for which `isAfter` holds, which holds for all
    /// the times after it (``times``.count when none), found in halves.
    private func firstTimeIndex(where isAfter: (Int) -> Bool) -> Int {
        var low = 0
        var high = times.count
        while low < high {
            let middle = (low + high) / 2
            if isAfter(times[middle]) { high = middle } else { low = middle + 1 }
        }
        return low
    }

    /// ``firstTime(on:after:)`` for a pattern without an hour on a day whose offset
    /// changes: its minutes and seconds come every hour the clock passes, as Foundation
    /// steps through them. A time the clock skips does not fire (an hourly :30 on a
    /// spring-forward night fired at 03:00, then 03:30), and one it shows twice fires
    /// twice (the second 02:30 of an autumn night was skipped: two hours without the
    /// reminder). The times before the change are instants at the early offset, those
    /// after at the late one: two ascending runs, each searched in halves.
    private func firstTimeEveryHour(on day: Int64, after: Instant, change: OffsetChange) -> Instant? {
        /// The first of the day's times whose instant at `offset` is after `above`.
        func first(at offset: Int64, after above: Int64) -> Int64? {
            let index = firstTimeIndex { day * 86_400 + Int64($0) - offset > above }
            return index < times.count ? day * 86_400 + Int64(times[index]) - offset : nil
        }
        let before = first(at: change.early, after: after.seconds).flatMap { $0 < change.at ? $0 : nil }
        let later = first(at: change.late, after: max(after.seconds, change.at - 1))
        return [before, later].compactMap { $0 }.min().map { Instant(seconds: $0) }
    }

    /// Whether the pattern gives minutes or seconds but no hour: every hour's.
    private var everyHour: Bool {
        pattern.hour == nil && (pattern.minute != nil || pattern.second != nil)
    }

    /// A change of the zone's offset: from `early` to `late` at instant `at`.
    private struct OffsetChange {
        let early: Int64, late: Int64, at: Int64
    }

    /// The change of the zone's offset during a local day, or at its start; nil when
    /// there is none.
    private func offsetChange(on day: Int64) -> OffsetChange? {
        let start = clock.instant(local: day * 86_400).seconds - 1, end = clock.instant(local: (day + 1) * 86_400).seconds
        let early = clock.offset(at: start), late = clock.offset(at: end)
        guard early != late else { return nil }
        return OffsetChange(early: early, late: late, at: clock.firstChange(after: start, through: end))
    }

    private func instant(_ day: Int64, _ time: Int) -> Instant {
        clock.instant(local: day * 86_400 + Int64(time))
    }

    /// The first day at or after `day` whose date matches, skipping whole months and
    /// years that cannot.
    private func nextMatchingDay(from day: Int64, through lastDay: Int64) -> Int64? {
        var current = day
        while current <= lastDay {
            let date = CivilCalendar.civil(fromDays: current)
            if let year = pattern.year, date.year != year {
                guard date.year < year else { return nil }
                current = CivilCalendar.days(year: year, month: 1, day: 1)
                continue
            }
            if let month = pattern.month, date.month != month {
                let nextYear = date.month < month ? date.year : date.year + 1
                current = CivilCalendar.days(year: nextYear, month: month, day: 1)
                continue
            }
            if pattern.matches(day: current) { return current }
            current += 1
        }
        return nil
    }
}
