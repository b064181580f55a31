import Foundation

extension Instant {
    /// RFC 5322 date text in a zone: `Sat, 21 Nov 2026 14:00:00 +0100`.
    public func rfc5322(in zone: TimeZone) -> String {
        let offset = zone.secondsFromGMT(for: self.date)
        let local = LocalDateTime(secondsSinceEpoch: seconds + Int64(offset))
        let days = CivilCalendar.days(year: local.year, month: local.month, day: local.day)
        let weekday = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"][CivilCalendar.weekday(ofDays: days) - 1]
        let month = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"][local.month - 1]
        let sign = offset < 0 ? "-" : "+"
        let minutes = abs(offset) / 60
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : String(value) }
        let time = "\(two(local.hour)):\(two(local.minute)):\(two(local.second))"
        return "\(weekday), \(local.day) \(month) \(local.year) \(time) \(sign)\(two(minutes / 60))\(two(minutes % 60))"
    }
}
