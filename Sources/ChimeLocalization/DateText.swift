import ChimeCore
import Foundation

/// Dates and times in a recipient's language and zone, through Foundation's formatters
/// (ICU's patterns): "mardi 24 novembre à 09:00", "Tuesday, November 24 at 09:00".
public enum DateText {
    /// The weekday, day, month and time of an instant, in a locale and zone.
    public static func dayAndTime(_ instant: Instant, locale: String, zone: TimeZone) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: locale.replacingOccurrences(of: "-", with: "_"))
        formatter.timeZone = zone
        formatter.setLocalizedDateFormatFromTemplate("EEEEdMMMMHHmm")
        return formatter.string(from: instant.date)
    }
}
