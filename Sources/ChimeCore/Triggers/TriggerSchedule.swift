import Foundation

/// A trigger's fire instants, worked out in one zone (the trigger's own, or the
/// recipient's for a floating trigger).
public struct TriggerSchedule: Sendable {
    public let trigger: NotificationTrigger
    /// When the request was added: time intervals count from it.
    public let added: Instant
    public let clock: ZoneClock

    /// At most this many missed occurrences are counted one by one when coalescing.
    static let coalesceCountLimit = 100_000

    public init(_ trigger: NotificationTrigger, added: Instant, zone: TimeZone) {
        self.trigger = trigger
        self.added = added
        self.clock = ZoneClock(zone)
    }

    /// The first fire instant. A UILocalNotification `fireDate` already past fires at
    /// once, as on iOS; the other forms fire strictly after `added`.
    public var first: Instant? {
        switch trigger {
        case .timeInterval(let seconds, _):
            return occurrence(interval: seconds, index: 1)
        case .calendar(let pattern, _, _):
            return CalendarMatcher(pattern, clock: clock).next(after: added)
        case .date(let fireDate, _, let interval):
            return dateOccurrence(fireDate, interval, index: 0)
        }
    }

    /// The first occurrence strictly after `instant` (for a repeating trigger), or nil.
    public func next(after instant: Instant) -> Instant? {
        guard trigger.repeats else { return nil }
        switch trigger {
        case .timeInterval(let seconds, _):
            // Occurrences are added + k·seconds, k ≥ 1, so they never drift.
            let elapsed = Double(instant.seconds - added.seconds)
            var index = max(1, Int64((elapsed / seconds).rounded(.down)))
            while let candidate = occurrence(interval: seconds, index: index), candidate <= instant { index += 1 }
            return occurrence(interval: seconds, index: index)
        case .calendar(let pattern, _, _):
            return CalendarMatcher(pattern, clock: clock).next(after: instant)
        case .date(let fireDate, _, let interval?):
            var index = estimatedIndex(fireDate, interval, before: instant)
            while let candidate = dateOccurrence(fireDate, interval, index: index), candidate <= instant { index += 1 }
            return dateOccurrence(fireDate, interval, index: index)
        case .date(_, _, nil):
            return nil
        }
    }

    /// After the occurrence at `scheduled` fires at `now`: the next occurrence after
    /// `now`, and how many occurrences in between were missed and folded into this fire
    /// (the machine was off; nothing ran). Occurrences before the request was added (a
    /// `fireDate` already past) were never missed and are not counted.
    public func advance(from scheduled: Instant, now: Instant) -> (next: Instant?, coalesced: Int) {
        var coalesced = 0
        var cursor = max(scheduled, added)
        while let candidate = next(after: cursor), candidate <= now {
            coalesced += 1
            cursor = candidate
            if coalesced >= Self.coalesceCountLimit {
                return (next(after: now), coalesced)
            }
        }
        return (next(after: max(cursor, now)), coalesced)
    }

    /// `count` fire instants, starting with `start` (the first, or the pending next).
    public func upcoming(from start: Instant, count: Int) -> [Instant] {
        var result: [Instant] = []
        var current: Instant? = start
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
