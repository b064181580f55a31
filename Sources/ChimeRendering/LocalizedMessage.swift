import ChimeCore
import ChimeLocalization
import Foundation

/// What every rendering of a notification starts from, email or chat: its content in the
/// recipient's locale, what of it may show where (the category's placeholder, localized,
/// standing in for what may not), and its fire date in the recipient's zone.
struct LocalizedMessage {
    var content: LocalizedContent
    var surfaces: PreviewSurfaces
    /// The recipient's zone; UTC when its name is unknown.
    var zone: TimeZone
    /// "mardi 24 novembre à 09:00".
    var dateText: String

    init(_ notification: OutgoingNotification, category: NotificationCategory?, localizer: Localizer, threadCount: Int) throws {
        let locale = notification.recipient.locale
        content = try LocalizedContent(notification.request.content, localizer: localizer, locale: locale)
        let placeholder = try Self.placeholder(category?.hiddenPreviewsBodyPlaceholder ?? "Notification", localizer: localizer, locale: locale,
                                               threadCount: threadCount)
        surfaces = PreviewSurfaces(
            title: content.title, subtitle: content.subtitle, body: content.body,
            showPreviews: notification.recipient.showPreviews, options: category?.options ?? [],
            placeholder: placeholder, threadCount: threadCount)
        zone = Self.zone(of: notification.recipient)
        dateText = DateText.dayAndTime(notification.fireDate, locale: locale, zone: zone)
    }

    /// The category's placeholder in a locale, `%u` left for ``PreviewSurfaces`` to fill;
    /// a key of a `.stringsdict` (as iOS takes one: "%u hidden reminders", plural-correct)
    /// formatted here with the count, which was sent as the raw key.
    /// - Throws: ``LocalizedContent/MissingKey`` when the value is a key of some locale
    ///   but of none the recipient's falls back to (`chime check` says so too): a raw key
    ///   is never sent, the reminder is held.
    static func placeholder(_ value: String, localizer: Localizer, locale: String, threadCount: Int) throws -> String {
        guard localizer.plural(value, locale: locale) != nil,
              let formatted = (try? localizer.formatted(value, [.integer(threadCount)], locale: locale)) ?? nil else {
            if let text = localizer.string(value, locale: locale)?.text { return text }
            guard !localizer.isKey(value) else {
                throw LocalizedContent.MissingKey(field: "hiddenPreviewsBodyPlaceholder", key: value, locale: locale,
                                                  lookedIn: localizer.chain(for: locale))
            }
            return value
        }
        // Filled already: a percent sign of its own stays one.
        return formatted.replacingOccurrences(of: "%", with: "%%")
    }

    /// The recipient's zone; UTC when its name is unknown.
    static func zone(of recipient: Recipient) -> TimeZone {
        TimeZone(identifier: recipient.timeZone) ?? TimeZone(identifier: "UTC")!
    }
}
