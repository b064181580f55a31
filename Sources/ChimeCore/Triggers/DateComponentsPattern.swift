/// The `dateComponents` of a calendar trigger, as `DateComponents` in
/// `UNCalendarNotificationTrigger`: the components given must all match; of those not
/// given, the ones finer than the finest given are at their minimum (`{"hour": 9}` is
/// 09:00:00, `{"month": 5}` is May 1st at 00:00) and the coarser ones match anything
/// (every day, every year).
public struct DateComponentsPattern: Hashable, Sendable, Codable {
    public var year: Int?
    public var month: Int?
    public var day: Int?
    public var hour: Int?
    public var minute: Int?
    public var second: Int?
    /// 1 = Sunday … 7 = Saturday.
    public var weekday: Int?
    /// The n-th such weekday of the month (1…5): with weekday 3, 2 is "the second Tuesday".
    public var weekdayOrdinal: Int?

    public init(year: Int? = nil, month: Int? = nil, day: Int? = nil, hour: Int? = nil, minute: Int? = nil,
                second: Int? = nil, weekday: Int? = nil, weekdayOrdinal: Int? = nil) {
        self.year = year
        self.month = month
        self.day = day
        self.hour = hour
        self.minute = minute
        self.second = second
        self.weekday = weekday
        self.weekdayOrdinal = weekdayOrdinal
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case year, month, day, hour, minute, second, weekday, weekdayOrdinal
    }

    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(Set(CodingKeys.allCases.map(\.stringValue)))
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            year: try c.decodeWholeNumberIfPresent(forKey: .year), month: try c.decodeWholeNumberIfPresent(forKey: .month),
            day: try c.decodeWholeNumberIfPresent(forKey: .day), hour: try c.decodeWholeNumberIfPresent(forKey: .hour),
            minute: try c.decodeWholeNumberIfPresent(forKey: .minute), second: try c.decodeWholeNumberIfPresent(forKey: .second),
            weekday: try c.decodeWholeNumberIfPresent(forKey: .weekday),
            weekdayOrdinal: try c.decodeWholeNumberIfPresent(forKey: .weekdayOrdinal))
    }

    /// Why the pattern can never match, with the component at fault
    /// (`dateComponents.weekday`), or nil when it is sound.
    public var problem: RequestProblem? {
        let ranges: [(String, Int?, ClosedRange<Int>)] = [
            ("month", month, 1...12), ("day", day, 1...31), ("hour", hour, 0...23), ("minute", minute, 0...59),
            ("second", second, 0...59), ("weekday", weekday, 1...7), ("weekdayOrdinal", weekdayOrdinal, 1...5),
            ("year", year, 1...9999),
        ]
        for (name, value, range) in ranges {
            if let value, !range.contains(value) {
                return .init("dateComponents.\(name) must be within \(range.lowerBound)…\(range.upperBound), not \(value)", at: "dateComponents.\(name)")
            }
        }
        if [year, month, day, hour, minute, second, weekday, weekdayOrdinal].allSatisfy({ $0 == nil }) {
            return .init("dateComponents must give at least one component", at: "dateComponents")
        }
        if let month, let day, day > (month == 2 ? 29 : CivilCalendar.daysIn(year: 2000, month: month)) {
            return .init("dateComponents day \(day) never occurs in month \(month)", at: "dateComponents.day")
        }
        if let year, let month, let day, day > CivilCalendar.daysIn(year: year, month: month) {
            return .init("dateComponents \(year)-\(month)-\(day) does not exist", at: "dateComponents.day")
        }
        return nil
    }

    // MARK: Matching

    /// Whether a day (days since 1970-01-01) matches the date components.
    func matches(day days: Int64) -> Bool {
        let date = CivilCalendar.civil(fromDays: days)
        if let year, year != date.year { return false }
        if let month, month != date.month { return false }
        if let day, day != date.day { return false }
        // Finer than the finest given is at its minimum, days and months too: "every May"
        // is May 1st, "2027" its January 1st (as Foundation's nextDate reads them). A time
        // of day is finer than days: "December at 9" is every day of December at 09:00.
        if day == nil, weekday == nil, weekdayOrdinal == nil, hour == nil, minute == nil, second == nil {
            if month != nil || year != nil, date.day != 1 { return false }
            if month == nil, year != nil, date.month != 1 { return false }
        }
        if let weekday, weekday != CivilCalendar.weekday(ofDays: days) { return false }
        if let weekdayOrdinal, weekdayOrdinal != (date.day - 1) / 7 + 1 { return false }
        return true
    }

    /// The seconds into a day at which the pattern matches, ascending.
    func times() -> [Int] {
        let finest: Int // 0 second, 1 minute, 2 hour, 3 a day-level component
        if second != nil { finest = 0 } else if minute != nil { finest = 1 } else if hour != nil { finest = 2 } else { finest = 3 }
        func values(_ given: Int?, level: Int, all: Range<Int>) -> [Int] {
            if let given { return [given] }
            return level < finest ? [0] : Array(all)
        }
        var result: [Int] = []
        for h in values(hour, level: 2, all: 0..<24) {
            for m in values(minute, level: 1, all: 0..<60) {
                for s in values(second, level: 0, all: 0..<60) {
                    result.append(h * 3600 + m * 60 + s)
                }
            }
        }
        return result
    }
}
