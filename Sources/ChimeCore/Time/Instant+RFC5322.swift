import Foundation

extension Instant {
    /// RFC 5322 date text in a zone: `Sat, 21 Nov 2026 14:00:00 +0100`.
    ///
    /// Written straight into the string's buffer (``DecimalDigits``): as string
    /// interpolations of padded numbers it was 8,000 instructions an email's `Date` header
    /// (callgrind).
    public func rfc5322(in zone: TimeZone) -> String {
        let offset = zone.secondsFromGMT(for: self.date)
        let local = LocalDateTime(secondsSinceEpoch: seconds + Int64(offset))
        let days = CivilCalendar.days(year: local.year, month: local.month, day: local.day)
        let minutes = abs(offset) / 60
        // The longest: "Www, DD Mmm " (12), a signed year of up to 19 digits, " HH:MM:SS +HHMM" (15).
        return String(unsafeUninitializedCapacity: 12 + 20 + 15) { buffer in
            var at = 0
            func byte(_ value: UInt8) {
                buffer[at] = value
                at += 1
            }
            // The day and the year as they are, the rest two digits each.
            func number(_ value: Int, width: Int? = nil) {
                let width = width ?? DecimalDigits.count(value)
                DecimalDigits.write(value, width: width, into: buffer, at: at)
                at += width
            }
            Self.weekdayNames[CivilCalendar.weekday(ofDays: days) - 1].forEach(byte)
            byte(UInt8(ascii: ","))
            byte(UInt8(ascii: " "))
            number(local.day)
            byte(UInt8(ascii: " "))
            Self.monthNames[local.month - 1].forEach(byte)
            byte(UInt8(ascii: " "))
            if local.year < 0 { byte(UInt8(ascii: "-")) }
            number(abs(local.year))
            byte(UInt8(ascii: " "))
            number(local.hour, width: 2)
            byte(UInt8(ascii: ":"))
            number(local.minute, width: 2)
            byte(UInt8(ascii: ":"))
            number(local.second, width: 2)
            byte(UInt8(ascii: " "))
            byte(offset < 0 ? UInt8(ascii: "-") : UInt8(ascii: "+"))
            number(minutes / 60, width: 2)
            number(minutes % 60, width: 2)
            return at
        }
    }

    private static let weekdayNames = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"].map { Array($0.utf8) }
    private static let monthNames = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"].map { Array($0.utf8) }
}
