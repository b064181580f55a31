import ChimeCore
import ChimeLocalization

/// A request's title, subtitle and body in a locale: `titleLocKey`/`bodyLocKey` with
/// their arguments when given, the literal text otherwise. A key no locale has falls
/// back to the literal text; with none, rendering stops (the reminder is held, saying
/// which key) — a raw key is never sent.
struct LocalizedContent {
    /// A `…LocKey` that no locale of the templates has, and no literal text to use instead.
    struct MissingKey: Error, CustomStringConvertible {
        var field: String
        var key: String
        var description: String { "\(field) \"\(key)\" is in no locale of the templates, and the request has no literal text for it" }
    }

    var title: String
    var subtitle: String
    var body: String

    init(_ content: NotificationContent, localizer: Localizer, locale: String) throws {
        func resolve(_ field: String, _ key: String?, _ args: [String], _ literal: String) throws -> String {
            guard let key else { return literal }
            let values = args.map(FormatArgument.string)
            if let text = try localizer.formatted(key, values, locale: locale) { return text }
            guard !literal.isEmpty else { throw MissingKey(field: field, key: key) }
            return literal
        }
        title = try resolve("titleLocKey", content.titleLocKey, content.titleLocArgs, content.title)
        subtitle = content.subtitle
        body = try resolve("bodyLocKey", content.bodyLocKey, content.bodyLocArgs, content.body)
    }
}
