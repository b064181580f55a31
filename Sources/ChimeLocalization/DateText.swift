import ChimeCore
import Foundation

/// Dates and times in a recipient's language and zone, through Foundation's formatters
/// (ICU's patterns): "mardi 24 novembre à 09:00", "Tuesday, November 24 at 09:00".
public enum DateText {
    /// The weekday, day, month and time of an instant, in a locale and zone.
    public static func dayAndTime(_ instant: Instant, locale: String, zone: TimeZone) -> String {
        formatters.string(instant.date, locale: locale, zone: zone)
    }

    /// Building a formatter from a template asks ICU for its pattern generator, which costs
    /// far more than formatting: one formatter per locale and zone, kept.
    private static let formatters = FormatterCache()

    private final class FormatterCache: @unchecked Sendable {
        private let lock = NSLock()
        private var formatters: [String: DateFormatter] = [:]

        func string(_ date: Date, locale: String, zone: TimeZone) -> String {
            lock.withLock {
                let key = locale + "|" + zone.identifier
                let formatter = formatters[key] ?? {
                    let made = DateFormatter()
                    made.locale = Locale(identifier: locale.replacingOccurrences(of: "-", with: "_"))
                    made.timeZone = zone
                    made.setLocalizedDateFormatFromTemplate("EEEEdMMMMHHmm")
                    formatters[key] = made
                    return made
                }()
                return formatter.string(from: date)
            }
        }
    }
}
