import ChimeCore
import Foundation
import Testing

@Suite("Trigger schedules")
struct TriggerScheduleTests {
    private func instant(_ text: String) -> Instant { Instant(rfc3339: text)! }

    private func schedule(_ trigger: NotificationTrigger, added: String, zone: String = "UTC") -> TriggerSchedule {
        TriggerSchedule(trigger, added: instant(added), zone: TimeZone(identifier: zone)!)
    }

    @Test("a time interval counts from the moment the request was added, not from now")
    func intervalFromAdded() {
        let trigger = NotificationTrigger.timeInterval(seconds: 600, repeats: true)
        let s = schedule(trigger, added: "2026-11-21T09:00:17Z")
        #expect(s.first?.description == "2026-11-21T09:10:17Z")
        // Asked later, the next occurrence still lies on the added + k·600 grid.
        #expect(s.next(after: instant("2026-11-21T09:31:00Z"))?.description == "2026-11-21T09:40:17Z")
    }

    @Test("no occurrence past 9999-12-31T23:59:59Z, which RFC 3339 cannot write: a time interval reaching beyond never fires, a repeating one stops before it")
    func lastInstant() {
        #expect(schedule(.timeInterval(seconds: 3e11, repeats: false), added: "2026-11-21T09:00:00Z").first == nil)
        let yearly = schedule(.timeInterval(seconds: 365 * 86_400, repeats: true), added: "9998-06-01T00:00:00Z")
        #expect(yearly.first?.description == "9999-06-01T00:00:00Z")
        #expect(yearly.next(after: instant("9999-06-01T00:00:00Z")) == nil)
        #expect(schedule(.timeInterval(seconds: 60, repeats: false), added: "9999-12-31T23:58:59Z").first == .latest)
    }

    @Test("a repeating interval under 60 s is refused; 60 s is accepted")
    func minimumInterval() {
        #expect(NotificationTrigger.timeInterval(seconds: 59, repeats: true).problem == .init("a repeating time interval must be at least 60 seconds, not 59", at: "trigger.seconds"))
        #expect(NotificationTrigger.timeInterval(seconds: 60, repeats: true).problem == nil)
        #expect(NotificationTrigger.timeInterval(seconds: 5, repeats: false).problem == nil)
        #expect(NotificationTrigger.timeInterval(seconds: 0, repeats: false).problem == .init("trigger.seconds must be more than 0", at: "trigger.seconds"))
    }

    @Test("missed occurrences fire once and are counted")
    func coalescing() {
        let s = schedule(.timeInterval(seconds: 60, repeats: true), added: "2026-11-21T09:00:00Z")
        let fired = s.advance(from: instant("2026-11-21T09:01:00Z"), now: instant("2026-11-21T09:10:30Z"))
        #expect(fired.coalesced == 9)
        #expect(fired.latest.description == "2026-11-21T09:10:00Z")
        #expect(fired.next?.description == "2026-11-21T09:11:00Z")
        // A machine off for two days: a daily reminder fires once, two missed.
        let daily = schedule(.calendar(.init(hour: 9), timeZone: "Europe/Paris", repeats: true), added: "2026-11-01T00:00:00Z", zone: "Europe/Paris")
        let after = daily.advance(from: instant("2026-11-21T08:00:00Z"), now: instant("2026-11-23T12:00:00Z"))
        #expect(after.coalesced == 2)
        #expect(after.next?.description == "2026-11-24T08:00:00Z")
    }

    @Test("a fire date without seconds fires at :00")
    func fireDateSeconds() throws {
        let local = try #require(LocalDateTime(parsing: "2026-11-21T14:00"))
        let s = schedule(.date(fireDate: local, timeZone: "Europe/Paris", repeatInterval: nil), added: "2026-11-21T10:37:42Z", zone: "Europe/Paris")
        #expect(s.first?.description == "2026-11-21T13:00:00Z")
    }

    @Test("a monthly repeat from the 31st keeps to the month's last day, as Foundation's date(byAdding:) does")
    func monthEnd() throws {
        let local = try #require(LocalDateTime(parsing: "2026-01-31T09:00:00"))
        let s = schedule(.date(fireDate: local, timeZone: "UTC", repeatInterval: .month), added: "2026-01-01T00:00:00Z")
        #expect(s.upcoming(from: s.first!, count: 5, now: Instant(seconds: 0)).map(\.description) == [
            "2026-01-31T09:00:00Z", "2026-02-28T09:00:00Z", "2026-03-31T09:00:00Z", "2026-04-30T09:00:00Z", "2026-05-31T09:00:00Z",
        ])
    }

    @Test("a yearly repeat from 29 February falls on the 28th in common years")
    func leapYearly() throws {
        let local = try #require(LocalDateTime(parsing: "2028-02-29T08:00"))
        let s = schedule(.date(fireDate: local, timeZone: "UTC", repeatInterval: .year), added: "2028-01-01T00:00:00Z")
        #expect(s.upcoming(from: s.first!, count: 3, now: Instant(seconds: 0)).map(\.description) == ["2028-02-29T08:00:00Z", "2029-02-28T08:00:00Z", "2030-02-28T08:00:00Z"])
    }

    @Test("a daily repeat keeps the wall time across DST; an hourly one keeps exact hours")
    func dailyAndHourly() throws {
        let local = try #require(LocalDateTime(parsing: "2026-03-28T09:00"))
        let daily = schedule(.date(fireDate: local, timeZone: "Europe/Paris", repeatInterval: .day), added: "2026-03-01T00:00:00Z", zone: "Europe/Paris")
        #expect(daily.upcoming(from: daily.first!, count: 2, now: Instant(seconds: 0)).map(\.description) == ["2026-03-28T08:00:00Z", "2026-03-29T07:00:00Z"])
        let night = try #require(LocalDateTime(parsing: "2026-03-29T01:00"))
        let hourly = schedule(.date(fireDate: night, timeZone: "Europe/Paris", repeatInterval: .hour), added: "2026-03-01T00:00:00Z", zone: "Europe/Paris")
        #expect(hourly.upcoming(from: hourly.first!, count: 3, now: Instant(seconds: 0)).map { $0.rfc3339(in: TimeZone(identifier: "Europe/Paris")!) } == [
            "2026-03-29T01:00:00+01:00", "2026-03-29T03:00:00+02:00", "2026-03-29T04:00:00+02:00",
        ])
    }

    @Test("a floating trigger follows the zone it is worked out in")
    func floating() throws {
        let local = try #require(LocalDateTime(parsing: "2026-11-24T09:00"))
        let trigger = NotificationTrigger.date(fireDate: local, timeZone: nil, repeatInterval: nil)
        #expect(trigger.isFloating)
        #expect(schedule(trigger, added: "2026-11-21T00:00:00Z", zone: "Europe/Paris").first?.description == "2026-11-24T08:00:00Z")
        #expect(schedule(trigger, added: "2026-11-21T00:00:00Z", zone: "America/New_York").first?.description == "2026-11-24T14:00:00Z")
    }

    @Test("instants print in a zone's own offset")
    func offsets() {
        let paris = TimeZone(identifier: "Europe/Paris")!
        #expect(instant("2026-11-24T08:00:00Z").rfc3339(in: paris) == "2026-11-24T09:00:00+01:00")
        #expect(instant("2026-06-01T03:30:00Z").rfc3339(in: TimeZone(identifier: "Asia/Kolkata")!) == "2026-06-01T09:00:00+05:30")
        #expect(Instant(rfc3339: "2026-11-24T09:00:00+01:00") == instant("2026-11-24T08:00:00Z"))
        // An offset with seconds (Monrovia's local mean time until 1972, −00:44:30), which
        // RFC 3339 cannot write: in UTC, the instant itself, not one 30 seconds off.
        let monrovia = instant("1971-06-01T09:44:30Z")
        #expect(monrovia.rfc3339(in: TimeZone(identifier: "Africa/Monrovia")!) == "1971-06-01T09:44:30Z")
        #expect(Instant(rfc3339: monrovia.rfc3339(in: TimeZone(identifier: "Africa/Monrovia")!)) == monrovia)
        // A fireDate in year 0000, which no calendar component may name, is refused.
        #expect(LocalDateTime.impossibility(in: "0000-01-01T00:00:00") == "there is no year 0000: years start at 0001")
        #expect(LocalDateTime.impossibility(in: "0001-01-01T00:00:00") == nil)
        // Past year 9999 on the local clock (Kiritimati, +14:00): in UTC too.
        #expect(instant("9999-12-31T23:00:00Z").rfc3339(in: TimeZone(identifier: "Pacific/Kiritimati")!) == "9999-12-31T23:00:00Z")
        #expect(instant("9999-12-31T09:00:00Z").rfc3339(in: TimeZone(identifier: "Pacific/Kiritimati")!) == "9999-12-31T23:00:00+14:00")
        #expect(Instant(rfc3339: "2026-11-24T09:00") == nil)
        // Digits only, in the offset and the fraction: Int("-1") read "+-1:30" as -00:30.
        #expect(Instant(rfc3339: "2026-11-24T09:00:00+-1:30") == nil)
        #expect(Instant(rfc3339: "2026-11-24T09:00:00.Z") == nil)
        #expect(Instant(rfc3339: "2026-11-24T09:00:00.1x5Z") == nil)
        #expect(Instant(rfc3339: "2026-11-24T09:00:00.125Z") == instant("2026-11-24T09:00:00Z"))
        #expect(Instant(rfc3339: "-026-11-24T09:00:00Z") == nil)
    }
}

@Suite("Coalescing a fire date already past")
struct PastFireDateTests {
    @Test("occurrences before the request was added are not counted as missed")
    func pastFireDate() throws {
        let local = try #require(LocalDateTime(parsing: "2026-11-20T09:00"))
        let schedule = TriggerSchedule(.date(fireDate: local, timeZone: "UTC", repeatInterval: .hour),
                                       added: Instant(rfc3339: "2026-11-21T09:00:00Z")!, zone: TimeZone(identifier: "UTC")!)
        #expect(schedule.first?.description == "2026-11-20T09:00:00Z")
        let fired = schedule.advance(from: schedule.first!, now: Instant(rfc3339: "2026-11-21T11:30:00Z")!)
        #expect(fired.coalesced == 2)
        #expect(fired.next?.description == "2026-11-21T12:00:00Z")
    }
}

@Suite("Counting missed occurrences")
struct OccurrenceCountTests {
    private func instant(_ text: String) -> Instant { Instant(rfc3339: text)! }

    /// The day-by-day count gives exactly what stepping through every occurrence gives,
    /// across DST changes (gaps collapse, repeats count once).
    @Test("day counting agrees with stepping", arguments: [
        ("Europe/Paris", DateComponentsPattern(second: 0), "2026-03-01T00:00:00Z", "2026-11-15T00:00:00Z"),
        ("Europe/Paris", DateComponentsPattern(minute: 30), "2025-01-01T00:00:00Z", "2026-12-31T12:00:00Z"),
        ("America/New_York", DateComponentsPattern(hour: 2, minute: 30), "2020-01-01T00:00:00Z", "2026-12-31T12:00:00Z"),
        ("Australia/Lord_Howe", DateComponentsPattern(minute: 15, weekday: 1), "2024-01-01T00:00:00Z", "2026-12-31T12:00:00Z"),
    ])
    func agreement(zone: String, pattern: DateComponentsPattern, from: String, to: String) {
        let matcher = CalendarMatcher(pattern, clock: ZoneClock(TimeZone(identifier: zone)!))
        var stepped = 0
        var last: Instant?
        var cursor = instant(from)
        while let next = matcher.next(after: cursor), next <= instant(to) {
            stepped += 1
            last = next
            cursor = next
        }
        let counted = matcher.count(after: instant(from), through: instant(to), stepped: 50)
        #expect(counted.count == stepped)
        #expect(counted.last == last)
    }

    @Test("a year of a per-minute trigger coalesces exactly, and the next fire follows the run")
    func perMinuteYear() {
        let schedule = TriggerSchedule(.calendar(.init(second: 0), timeZone: "UTC", repeats: true),
                                       added: instant("2025-01-01T00:00:00Z"), zone: TimeZone(identifier: "UTC")!)
        let result = schedule.advance(from: instant("2025-01-01T00:01:00Z"), now: instant("2026-01-01T00:00:00Z"))
        #expect(result.coalesced == 525_599)
        #expect(result.latest.description == "2026-01-01T00:00:00Z")
        #expect(result.next?.description == "2026-01-01T00:01:00Z")
    }

    @Test("next lists an overdue request's pending fire, then what follows the next run")
    func upcomingOverdue() throws {
        let local = try #require(LocalDateTime(parsing: "2020-01-01T09:00"))
        let schedule = TriggerSchedule(.date(fireDate: local, timeZone: "UTC", repeatInterval: .day),
                                       added: instant("2026-03-01T00:00:00Z"), zone: TimeZone(identifier: "UTC")!)
        #expect(schedule.upcoming(from: schedule.first!, count: 3, now: instant("2026-03-01T00:00:00Z")).map(\.description) == [
            "2020-01-01T09:00:00Z", "2026-03-01T09:00:00Z", "2026-03-02T09:00:00Z",
        ])
    }
}
