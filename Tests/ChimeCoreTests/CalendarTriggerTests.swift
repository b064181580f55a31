import ChimeCore
import Foundation
import Testing

/// The next fire instants of calendar triggers across zones, DST gaps and overlaps,
/// month ends, leap days and weekday ordinals. Expected instants are in UTC.
@Suite("Calendar triggers across zones")
struct CalendarTriggerTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var zone: String
        var pattern: DateComponentsPattern
        var after: String
        var expected: [String]
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "a year 474 years ahead, as any year up to 9999: its January 1st, then none",
             zone: "UTC", pattern: .init(year: 2500), after: "2026-11-24T12:00:00Z", expected: ["2500-01-01T00:00:00Z"]),
        Case(name: "9999-12-31T23:00 in Kiritimati (+14:00), as a date trigger takes it",
             zone: "Pacific/Kiritimati", pattern: .init(year: 9999, month: 12, day: 31, hour: 23), after: "2026-11-24T12:00:00Z",
             expected: ["9999-12-31T09:00:00Z"]),
        Case(name: "December at 9 is every day of December at 09:00",
             zone: "Europe/Paris", pattern: .init(month: 12, hour: 9), after: "2026-11-24T12:00:00Z",
             expected: ["2026-12-01T08:00:00Z", "2026-12-02T08:00:00Z", "2026-12-03T08:00:00Z"]),
        Case(name: "Paris: 02:30 skipped by spring-forward fires at 03:00, the first instant after the gap",
             zone: "Europe/Paris", pattern: .init(hour: 2, minute: 30), after: "2026-03-28T12:00:00Z",
             expected: ["2026-03-29T01:00:00Z", "2026-03-30T00:30:00Z"]),
        Case(name: "Paris: 02:30 that occurs twice in fall-back fires once, at the first",
             zone: "Europe/Paris", pattern: .init(hour: 2, minute: 30), after: "2026-10-24T12:00:00Z",
             expected: ["2026-10-25T00:30:00Z", "2026-10-26T01:30:00Z"]),
        // Without an hour, :30 comes every hour the clock passes (Foundation's repeated-time
        // rule looks within one hour, the unit above the minute): both 02:30s of the
        // autumn night fire, and none in the spring gap (it fired at 03:00 and 03:30).
        Case(name: "Paris: hourly :30 across fall-back fires in the repeated hour too",
             zone: "Europe/Paris", pattern: .init(minute: 30), after: "2026-10-24T23:45:00Z",
             expected: ["2026-10-25T00:30:00Z", "2026-10-25T01:30:00Z", "2026-10-25T02:30:00Z", "2026-10-25T03:30:00Z"]),
        Case(name: "Paris: hourly :30 across spring-forward fires each real hour, not at 03:00",
             zone: "Europe/Paris", pattern: .init(minute: 30), after: "2026-03-28T23:45:00Z",
             expected: ["2026-03-29T00:30:00Z", "2026-03-29T01:30:00Z", "2026-03-29T02:30:00Z"]),
        Case(name: "New York: every minute across fall-back, the repeated hour's minutes too",
             zone: "America/New_York", pattern: .init(second: 0), after: "2026-11-01T05:58:30Z",
             expected: ["2026-11-01T05:59:00Z", "2026-11-01T06:00:00Z", "2026-11-01T06:01:00Z"]),
        Case(name: "New York: 02:15 in the spring gap fires at 03:00 EDT",
             zone: "America/New_York", pattern: .init(hour: 2, minute: 15), after: "2026-03-07T12:00:00Z",
             expected: ["2026-03-08T07:00:00Z", "2026-03-09T06:15:00Z"]),
        Case(name: "New York: 01:30 in the fall overlap fires at the EDT one",
             zone: "America/New_York", pattern: .init(hour: 1, minute: 30), after: "2026-10-31T12:00:00Z",
             expected: ["2026-11-01T05:30:00Z", "2026-11-02T06:30:00Z"]),
        Case(name: "Lord Howe: 30-minute spring gap, 02:10 fires at 02:30 (+11:00)",
             zone: "Australia/Lord_Howe", pattern: .init(hour: 2, minute: 10), after: "2026-10-03T00:00:00Z",
             expected: ["2026-10-03T15:30:00Z", "2026-10-04T15:10:00Z"]),
        Case(name: "Lord Howe: 30-minute fall overlap, 01:45 fires once at +11:00",
             zone: "Australia/Lord_Howe", pattern: .init(hour: 1, minute: 45), after: "2026-04-04T00:00:00Z",
             expected: ["2026-04-04T14:45:00Z", "2026-04-05T15:15:00Z"]),
        Case(name: "Kolkata: no DST, +05:30 all year",
             zone: "Asia/Kolkata", pattern: .init(hour: 9), after: "2026-06-01T00:00:00Z",
             expected: ["2026-06-01T03:30:00Z", "2026-06-02T03:30:00Z"]),
        Case(name: "Kolkata: the second Tuesday of the month",
             zone: "Asia/Kolkata", pattern: .init(hour: 9, weekday: 3, weekdayOrdinal: 2), after: "2026-11-01T00:00:00Z",
             expected: ["2026-11-10T03:30:00Z", "2026-12-08T03:30:00Z", "2027-01-12T03:30:00Z"]),
        Case(name: "Apia: 30 December 2011 never happened; 09:00 that day fires when the gap ends",
             zone: "Pacific/Apia", pattern: .init(hour: 9), after: "2011-12-29T12:00:00Z",
             expected: ["2011-12-29T19:00:00Z", "2011-12-30T10:00:00Z", "2011-12-30T19:00:00Z"]),
        Case(name: "UTC: day 31 fires only in months that have it",
             zone: "UTC", pattern: .init(day: 31, hour: 8), after: "2026-04-01T00:00:00Z",
             expected: ["2026-05-31T08:00:00Z", "2026-07-31T08:00:00Z", "2026-08-31T08:00:00Z"]),
        Case(name: "UTC: 29 February fires only in leap years",
             zone: "UTC", pattern: .init(month: 2, day: 29), after: "2026-01-01T00:00:00Z",
             expected: ["2028-02-29T00:00:00Z", "2032-02-29T00:00:00Z"]),
        Case(name: "UTC: the fifth Friday, only in months that have five",
             zone: "UTC", pattern: .init(hour: 12, weekday: 6, weekdayOrdinal: 5), after: "2026-01-01T00:00:00Z",
             expected: ["2026-01-30T12:00:00Z", "2026-05-29T12:00:00Z", "2026-07-31T12:00:00Z"]),
        Case(name: "UTC: a fixed year fires once and then never",
             zone: "UTC", pattern: .init(year: 2027, month: 3, day: 1, hour: 9), after: "2026-01-01T00:00:00Z",
             expected: ["2027-03-01T09:00:00Z"]),
        Case(name: "Paris: Mondays at 09:00 keep the wall time across the spring change",
             zone: "Europe/Paris", pattern: .init(hour: 9, minute: 0, weekday: 2), after: "2026-03-20T00:00:00Z",
             expected: ["2026-03-23T08:00:00Z", "2026-03-30T07:00:00Z"]),
    ]

    @Test("next fire instants", arguments: cases)
    func nextInstants(_ test: Case) throws {
        let matcher = CalendarMatcher(test.pattern, clock: ZoneClock(try #require(TimeZone(identifier: test.zone))))
        var instants: [String] = []
        var after = try #require(Instant(rfc3339: test.after))
        while instants.count < test.expected.count + 1, let next = matcher.next(after: after) {
            instants.append(next.description)
            after = next
        }
        #expect(Array(instants.prefix(test.expected.count)) == test.expected)
        if test.pattern.year != nil { #expect(instants.count == test.expected.count) }
    }

    @Test("counted in bulk, a long stretch counts as stepping through it does, where DST starts at midnight (Santiago) as elsewhere",
          arguments: [("America/Santiago", "2027-09-02T00:00:00Z", "2027-09-08T00:00:00Z"), ("America/Santiago", "2027-03-30T00:00:00Z", "2027-04-06T00:00:00Z"),
                      ("Europe/Paris", "2027-03-25T00:00:00Z", "2027-04-01T00:00:00Z")])
    func bulkCount(zone: String, from: String, to: String) throws {
        let matcher = CalendarMatcher(.init(second: 0), clock: ZoneClock(try #require(TimeZone(identifier: zone))))
        let (start, end) = (try #require(Instant(rfc3339: from)), try #require(Instant(rfc3339: to)))
        let bulk = matcher.count(after: start, through: end, stepped: 100)
        let stepped = matcher.count(after: start, through: end, stepped: .max)
        #expect(bulk.count == stepped.count && bulk.last == stepped.last, "\(bulk.count) against \(stepped.count)")
    }

    @Test("components without seconds fire at :00")
    func secondsAtZero() throws {
        let matcher = CalendarMatcher(.init(hour: 14, minute: 5), clock: ZoneClock(TimeZone(identifier: "UTC")!))
        let scheduledAt = try #require(Instant(rfc3339: "2026-11-21T13:07:42Z"))
        #expect(matcher.next(after: scheduledAt)?.description == "2026-11-21T14:05:00Z")
    }

    @Test("patterns that can never match are refused", arguments: [
        (DateComponentsPattern(month: 2, day: 30), "dateComponents day 30 never occurs in month 2"),
        (DateComponentsPattern(month: 4, day: 31), "dateComponents day 31 never occurs in month 4"),
        (DateComponentsPattern(hour: 24), "dateComponents.hour must be within 0…23, not 24"),
        (DateComponentsPattern(), "dateComponents must give at least one component"),
        (DateComponentsPattern(year: 2027, month: 2, day: 29), "dateComponents 2027-2-29 does not exist"),
    ])
    func refused(pattern: DateComponentsPattern, message: String) {
        #expect(pattern.problem?.message == message)
    }
}
