import ChimeCore
import Foundation

/// Dates and times in a recipient's language and zone, through Foundation's formatters
/// (ICU's patterns): "mardi 24 novembre à 09:00", "Tuesday, November 24 at 9:00 AM".
public enum DateText {
    /// The weekday, day, month and time of an instant, in a locale and zone; the year too
    /// when it is not that of `other` in the zone ("Saturday, November 20, 2027 at 9:00
    /// AM": a snooze into next year).
    public static func dayAndTime(_ instant: Instant, locale: String, zone: TimeZone, yearUnlike other: Instant? = nil) -> String {
        // Rendering passes no `other`: a message's date pays for no calendar.
        let withYear = other.map { other in
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = zone
            return calendar.component(.year, from: other.date) != calendar.component(.year, from: instant.date)
        } ?? false
        return formatters.string(instant.date, locale: locale, zone: zone, template: withYear ? "yEEEEdMMMMjmm" : "EEEEdMMMMjmm")
    }

    /// Building a formatter from a template asks ICU for its pattern generator, which costs
    /// far more than formatting: one formatter per locale and zone, kept.
    private static let formatters = FormatterCache()

    private final class FormatterCache: @unchecked Sendable {
        private let lock = NSLock()
        private var formatters: [String: DateFormatter] = [:]
        /// The last minute formatted with each formatter: a run fires many reminders in
        /// the same minute. (Minutes hold since 1973: no zone has had an offset in
        /// seconds since Monrovia's in 1972.)
        private var lastMinute: [String: (minute: Int64, text: String)] = [:]

        func string(_ date: Date, locale: String, zone: TimeZone, template: String) -> String {
            lock.withLock {
                let key = locale + "|" + zone.identifier + "|" + template
                let seconds = Int64(date.timeIntervalSince1970.rounded(.down))
                let minute = seconds >= 94_694_400 ? seconds / 60 : -1
                if minute >= 0, let last = lastMinute[key], last.minute == minute { return last.text }
                let formatter = formatters[key] ?? {
                    let made = DateFormatter()
                    made.locale = Locale(identifier: locale.replacingOccurrences(of: "-", with: "_"))
                    made.timeZone = zone
                    // `j`: the hour as the locale writes it, 12-hour with AM/PM in the
                    // United States, Australia and Arabic, 24-hour in France or Britain,
                    // as an iPhone set to the language shows it (`HH` wrote 15:05 for all).
                    made.setLocalizedDateFormatFromTemplate(template)
                    formatters[key] = made
                    return made
                }()
                let text = formatter.string(from: date)
                if minute >= 0 { lastMinute[key] = (minute, text) }
                return text
            }
        }
    }
}
