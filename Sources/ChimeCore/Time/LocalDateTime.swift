/// A wall-clock date and time with no zone, in the proleptic Gregorian calendar, such as
/// a trigger's `fireDate` or `--at 2026-11-21T14:00`.
///
/// Civil-date arithmetic is written by hand (the days-from-civil algorithm): Foundation's
/// Calendar answers the same questions, but a thousand times slower per call, and the
/// scheduler asks them for every repeating request it fires.
public struct LocalDateTime: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var year: Int
    public var month: Int
    public var day: Int
    public var hour: Int
    public var minute: Int
    public var second: Int
    /// Whether the text it was parsed from gave seconds (instants must; local times need not).
    public var hasSeconds = true

    public init(year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0) {
        self.year = year
        self.month = month
        self.day = day
        self.hour = hour
        self.minute = minute
        self.second = second
    }

    /// The wall time `seconds` after 1970-01-01T00:00:00 (as if in UTC).
    public init(secondsSinceEpoch seconds: Int64) {
        let days = seconds.floorDivided(by: 86_400)
        let rest = Int(seconds - days * 86_400)
        let date = CivilCalendar.civil(fromDays: days)
        self.init(year: date.year, month: date.month, day: date.day, hour: rest / 3600, minute: rest / 60 % 60, second: rest % 60)
    }

    /// Parses `YYYY-MM-DDTHH:MM[:SS]` (a space may stand for `T`). Without seconds, the
    /// time is at :00 — never at the seconds of the moment it was scheduled.
    public init?(parsing text: String) {
        guard let fields = Self.fields(of: text), Self.impossibility(of: fields) == nil else { return nil }
        self.init(year: fields.year, month: fields.month, day: fields.day, hour: fields.hour, minute: fields.minute, second: fields.second)
        hasSeconds = fields.hasSeconds
    }

    /// Why `text`, shaped as a wall time, names none that exists ("2027-02-29 does not
    /// exist"); nil when it is not so shaped, or exists.
    public static func impossibility(in text: String) -> String? {
        fields(of: text).flatMap(impossibility(of:))
    }

    private typealias Fields = (year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int, hasSeconds: Bool)

    /// The numbers of `YYYY-MM-DDTHH:MM[:SS]`, in ASCII digits only, whatever their ranges.
    private static func fields(of text: String) -> Fields? {
        let parts = text.split(whereSeparator: { $0 == "T" || $0 == "t" || $0 == " " })
        guard parts.count == 2 else { return nil }
        let date = parts[0].split(separator: "-", omittingEmptySubsequences: false)
        let time = parts[1].split(separator: ":", omittingEmptySubsequences: false)
        guard date.count == 3, date[0].count == 4, date[1].count == 2, date[2].count == 2,
              time.count == 2 || time.count == 3, time.allSatisfy({ $0.count == 2 }),
              let year = DecimalDigits.value(of: date[0]), let month = DecimalDigits.value(of: date[1]),
              let day = DecimalDigits.value(of: date[2]), let hour = DecimalDigits.value(of: time[0]),
              let minute = DecimalDigits.value(of: time[1]), let second = time.count == 3 ? DecimalDigits.value(of: time[2]) : 0 else { return nil }
        return (year, month, day, hour, minute, second, time.count == 3)
    }

    private static func impossibility(of f: Fields) -> String? {
        guard f.year >= 1 else { return "there is no year 0000: years start at 0001" }
        guard (1...12).contains(f.month) else { return "there is no month \(f.month)" }
        let days = CivilCalendar.daysIn(year: f.year, month: f.month)
        guard (1...days).contains(f.day) else {
            return "\(pad(f.year, 4))-\(pad(f.month, 2))-\(pad(f.day, 2)) does not exist (that month has \(days) days)"
        }
        guard (0...23).contains(f.hour), (0...59).contains(f.minute), (0...59).contains(f.second) else {
            return "\(pad(f.hour, 2)):\(pad(f.minute, 2)):\(pad(f.second, 2)) is not a time of day"
        }
        return nil
    }

    /// Seconds from 1970-01-01T00:00:00 to this wall time, as if both were in UTC.
    public var secondsSinceEpoch: Int64 {
        CivilCalendar.days(year: year, month: month, day: day) * 86_400 + Int64(hour * 3600 + minute * 60 + second)
    }

    /// `2026-11-21T14:00:00`.
    public var description: String { text(suffix: nil) }

    /// ``description`` followed by `suffix` (`Z` for an instant in UTC), written in one
    /// go: every line of a `file:` channel and every stored instant has one, and building it
    /// from seven padded strings was a fiftieth of firing a notification.
    func text(suffix: UInt8?) -> String {
        guard (0...9999).contains(year), (0...99).contains(month), (0...99).contains(day), (0...99).contains(hour),
              (0...99).contains(minute), (0...99).contains(second) else {
            let date = "\(Self.pad(year, 4))-\(Self.pad(month, 2))-\(Self.pad(day, 2))"
            return "\(date)T\(Self.pad(hour, 2)):\(Self.pad(minute, 2)):\(Self.pad(second, 2))" + (suffix.map { String(UnicodeScalar($0)) } ?? "")
        }
        return String(unsafeUninitializedCapacity: 20) { buffer in
            func digits(_ value: Int, _ width: Int, at start: Int) { DecimalDigits.write(value, width: width, into: buffer, at: start) }
            digits(year, 4, at: 0)
            buffer[4] = UInt8(ascii: "-")
            digits(month, 2, at: 5)
            buffer[7] = UInt8(ascii: "-")
            digits(day, 2, at: 8)
            buffer[10] = UInt8(ascii: "T")
            digits(hour, 2, at: 11)
            buffer[13] = UInt8(ascii: ":")
            digits(minute, 2, at: 14)
            buffer[16] = UInt8(ascii: ":")
            digits(second, 2, at: 17)
            guard let suffix else { return 19 }
            buffer[19] = suffix
            return 20
        }
    }

    public static func < (lhs: LocalDateTime, rhs: LocalDateTime) -> Bool {
        lhs.secondsSinceEpoch < rhs.secondsSinceEpoch
    }

    static func pad(_ value: Int, _ width: Int) -> String {
        let text = String(value)
        return String(repeating: "0", count: max(0, width - text.count)) + text
    }
}

/// Gregorian calendar arithmetic on day numbers (days since 1970-01-01).
public enum CivilCalendar {
    /// Days since 1970-01-01 of a civil date (Howard Hinnant's days_from_civil).
    public static func days(year: Int, month: Int, day: Int) -> Int64 {
        let y = Int64(month <= 2 ? year - 1 : year)
        let era = y.floorDivided(by: 400)
        let yearOfEra = y - era * 400
        let m = Int64(month)
        let dayOfYear = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + Int64(day) - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The civil date of a day number (Howard Hinnant's civil_from_days).
    public static func civil(fromDays days: Int64) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = z.floorDivided(by: 146_097)
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return (Int(year), Int(month), Int(day))
    }

    /// 1 = Sunday … 7 = Saturday, as Foundation numbers weekdays.
    public static func weekday(ofDays days: Int64) -> Int {
        // 1970-01-01 was a Thursday (5).
        Int((days + 4).floorModulo(7)) + 1
    }

    public static func isLeap(_ year: Int) -> Bool {
        year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
    }

    public static func daysIn(year: Int, month: Int) -> Int {
        switch month {
        case 2: isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}

extension Int64 {
    func floorDivided(by divisor: Int64) -> Int64 {
        let quotient = self / divisor
        return (self % divisor != 0 && (self < 0) != (divisor < 0)) ? quotient - 1 : quotient
    }

    func floorModulo(_ divisor: Int64) -> Int64 {
        self - floorDivided(by: divisor) * divisor
    }
}
