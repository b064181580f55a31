import Foundation

/// A trigger's fire instants, worked out in one zone (the trigger's own, or the
/// recipient's for a floating trigger).
public struct TriggerSchedule: Sendable {
    public let trigger: NotificationTrigger
    /// When the request was added: time intervals count from it.
    public let added: Instant
    public let clock: ZoneClock
    /// A calendar trigger's matcher, made once: it lays out the pattern's times of day.
    private let matcher: CalendarMatcher?

    public init(_ trigger: NotificationTrigger, added: Instant, zone: TimeZone) {
        self.trigger = trigger
        self.added = added
        self.clock = ZoneClock(zone)
        if case .calendar(let pattern, _, _) = trigger {
            matcher = CalendarMatcher(pattern, clock: clock)
        } else {
            matcher = nil
        }
    }

    /// The first fire instant. A UILocalNotification `fireDate` already past fires at
    /// once, as on iOS; the other forms fire strictly after `added`.
    public var first: Instant? { Self.representable(unboundedFirst) }

    /// The first occurrence strictly after `instant` (for a repeating trigger), or nil.
    public func next(after instant: Instant) -> Instant? { Self.representable(unboundedNext(after: instant)) }

    /// `instant`, when RFC 3339 can write it (years 0001 to 9999, as `--now` takes): a
    /// time interval of 3·10¹¹ seconds fired in year 11532, which every listing then
    /// printed in a form no reader takes back. Later (or earlier) is never.
    private static func representable(_ instant: Instant?) -> Instant? {
        instant.flatMap { Instant.writable.contains($0) ? $0 : nil }
    }

    private var unboundedFirst: Instant? {
        switch trigger {
        case .timeInterval(let seconds, _):
            return occurrence(interval: seconds, index: 1)
        case .calendar:
            return matcher?.next(after: added)
        case .date(let fireDate, _, let interval):
            return dateOccurrence(fireDate, interval, index: 0)
        }
    }

    private func unboundedNext(after instant: Instant) -> Instant? {
        guard trigger.repeats else { return nil }
        switch trigger {
        case .timeInterval(let seconds, _):
            // Occurrences are added + k·seconds, k ≥ 1, so they never drift.
            let elapsed = Double(instant.seconds - added.seconds)
            var index = max(1, Int64((elapsed / seconds).rounded(.down)))
            while true {
                guard let candidate = occurrence(interval: seconds, index: index) else { return nil }
                if candidate > instant { return candidate }
                index += 1
            }
        case .calendar:
            return matcher?.next(after: instant)
        case .date(let fireDate, _, let interval?):
            var index = estimatedIndex(fireDate, interval, before: instant)
            while true {
                guard let candidate = dateOccurrence(fireDate, interval, index: index) else { return nil }
                if candidate > instant { return candidate }
                index += 1
            }
        case .date(_, _, nil):
            return nil
        }
    }

    /// What firing one occurrence does to a repeating request.
    public struct Advance: Hashable, Sendable {
        /// The next occurrence, after the moment of firing; nil when it does not repeat.
        public var next: Instant?
        /// Occurrences missed while nothing ran, folded into this fire.
        public var coalesced: Int
        /// The latest occurrence this fire stands for (the scheduled one when none was
        /// missed): what the message is dated.
        public var latest: Instant
        /// The instant `next` was computed after, kept so a floating request that moves
        /// zone is worked out again from there, never from the past.
        public var anchor: Instant
    }

    /// After the occurrence at `scheduled` fires at `now`: the next occurrence after
    /// `now`, and how many occurrences in between were missed and folded into this fire
    /// (the machine was off; nothing ran). Occurrences before the request was added (a
    /// `fireDate` already past) were never missed and are not counted.
    public func advance(from scheduled: Instant, now: Instant) -> Advance {
        let (count, last) = occurrences(after: max(scheduled, added), through: now)
        let latest = max(last ?? scheduled, scheduled)
        let anchor = max(latest, now)
        return Advance(next: next(after: anchor), coalesced: count, latest: latest, anchor: anchor)
    }

    /// How many occurrences fall in `(start, end]`, and the last of them; counted by
    /// arithmetic where the trigger allows, and for calendar triggers day by day past the
    /// first few thousand, so a year of a per-minute trigger costs milliseconds.
    public func occurrences(after start: Instant, through end: Instant) -> (count: Int, last: Instant?) {
        guard trigger.repeats, start < end else { return (0, nil) }
        switch trigger {
        case .timeInterval(let seconds, _):
            return arithmetic(after: start, through: end) { occurrence(interval: seconds, index: $0) }
        case .date(let fireDate, _, let interval?) where interval == .minute || interval == .hour:
            return arithmetic(after: start, through: end) { dateOccurrence(fireDate, interval, index: $0) }
        case .calendar:
            return matcher?.count(after: start, through: end) ?? (0, nil)
        default:
            // Days, weeks, months, years: a decade of daily occurrences is 3,650 steps.
            var count = 0
            var cursor = start
            while let candidate = next(after: cursor), candidate <= end {
                count += 1
                cursor = candidate
            }
            return (count, count > 0 ? cursor : nil)
        }
    }

    /// Counts occurrences `occurrence(k)`, increasing in k, within `(start, end]`.
    private func arithmetic(after start: Instant, through end: Instant, _ occurrence: (Int64) -> Instant?) -> (count: Int, last: Instant?) {
        func firstIndex(after instant: Instant) -> Int64 {
            // Binary search on k: occurrences grow with k.
            var low: Int64 = 0
            var high: Int64 = 1
            while let value = occurrence(high), value <= instant, high < Int64(1) << 40 { high *= 2 }
            while low < high {
                let middle = low + (high - low) / 2
                if let value = occurrence(middle), value > instant { high = middle } else { low = middle + 1 }
            }
            return low
        }
        let first = firstIndex(after: start)
        let beyond = firstIndex(after: end)
        guard beyond > first else { return (0, nil) }
        return (Int(beyond - first), occurrence(beyond - 1))
    }

    /// `count` fire instants: `start` (the pending next, which fires at the next run even
    /// when overdue), then those that follow once it has fired at `now` or later.
    public func upcoming(from start: Instant, count: Int, now: Instant) -> [Instant] {
        guard count > 0 else { return [] }
        var result = [start]
        var current = next(after: max(start, now))
        while let instant = current, result.count < count {
            result.append(instant)
            current = next(after: instant)
        }
        return result
    }

    // MARK: Occurrences

    private func occurrence(interval seconds: Double, index: Int64) -> Instant? {
        let offset = (Double(index) * seconds).rounded(.up)
        guard offset < 1e15 else { return nil }
        return added + Int64(offset)
    }

    /// The k-th occurrence of a UILocalNotification. Minutes and hours are exact spans of
    /// time; days, weeks, months and years move the wall date and keep the wall time. A
    /// month or year that lacks the day keeps to its last day (January 31 → February 28
    /// → March 31), as Foundation's `Calendar.date(byAdding:)` does, counted from the
    /// original date each time so the day never drifts.
    private func dateOccurrence(_ fireDate: LocalDateTime, _ interval: RepeatInterval?, index: Int64) -> Instant? {
        let start = clock.instant(local: fireDate.secondsSinceEpoch)
        guard let interval, index != 0 else { return start }
        var date = fireDate
        switch interval {
        case .minute: return start + index * 60
        case .hour: return start + index * 3600
        case .day, .week:
            let days = CivilCalendar.days(year: date.year, month: date.month, day: date.day) + index * (interval == .day ? 1 : 7)
            (date.year, date.month, date.day) = CivilCalendar.civil(fromDays: days)
        case .month, .year:
            let months = Int64(date.year) * 12 + Int64(date.month - 1) + index * (interval == .month ? 1 : 12)
            date.year = Int(months.floorDivided(by: 12))
            date.month = Int(months.floorModulo(12)) + 1
            date.day = min(fireDate.day, CivilCalendar.daysIn(year: date.year, month: date.month))
        }
        guard (1...9999).contains(date.year) else { return nil }
        return clock.instant(local: date.secondsSinceEpoch)
    }

    /// An index whose occurrence is at or before `instant` (a lower bound to step from).
    private func estimatedIndex(_ fireDate: LocalDateTime, _ interval: RepeatInterval, before instant: Instant) -> Int64 {
        let elapsed = instant.seconds - clock.instant(local: fireDate.secondsSinceEpoch).seconds
        guard elapsed > 0 else { return 0 }
        let span: Int64 = switch interval {
        case .minute: 60
        case .hour: 3600
        case .day: 86_400
        case .week: 7 * 86_400
        case .month: 31 * 86_400
        case .year: 366 * 86_400
        }
        // Spans are the longest a unit lasts give or take a DST hour: step back one more.
        return max(0, elapsed / span - 1)
    }
}
