import ChimeCore
import ChimeLocalization

/// A request's title, subtitle and body in a locale: `titleLocKey`/`bodyLocKey` with
/// their arguments when given, the literal text otherwise.
struct LocalizedContent {
    var title: String
    var subtitle: String
    var body: String

    init(_ content: NotificationContent, localizer: Localizer, locale: String) throws {
        func resolve(_ key: String?, _ args: [String], _ literal: String) throws -> String {
            guard let key else { return literal }
            let values = args.map(FormatArgument.string)
            if let plural = localizer.plural(key, locale: locale) { return try plural.entry.format(values, rules: plural.rules) }
            if let text = localizer.string(key, locale: locale)?.text { return try StringFormat.format(text, values) }
            return literal.isEmpty ? key : literal
        }
        title = try resolve(content.titleLocKey, content.titleLocArgs, content.title)
        subtitle = content.subtitle
        body = try resolve(content.bodyLocKey, content.bodyLocArgs, content.body)
    }

    /// A notification's content in its recipient's locale, and what of it may show where
    /// (the category's placeholder, localized, standing in for what may not).
    static func withSurfaces(_ notification: OutgoingNotification, category: NotificationCategory?, localizer: Localizer,
                             threadCount: Int) throws -> (LocalizedContent, PreviewSurfaces) {
        let locale = notification.recipient.locale
        let content = try LocalizedContent(notification.request.content, localizer: localizer, locale: locale)
        let placeholder = localizer.localized(category?.hiddenPreviewsBodyPlaceholder ?? "Notification", locale: locale)
        let surfaces = PreviewSurfaces(
            title: content.title, subtitle: content.subtitle, body: content.body,
            showPreviews: notification.recipient.showPreviews, options: category?.options ?? [],
            placeholder: placeholder, threadCount: threadCount)
        return (content, surfaces)
    }
}
