import ChimeCore
import ChimeLocalization

/// A request's title, subtitle and body in a locale: `titleLocKey`/`bodyLocKey` with
/// their arguments when given, the literal text otherwise. A key no locale has falls
/// back to the literal text; with none, rendering stops (the reminder is held, saying
/// which key) — a raw key is never sent. `chime serve`'s view page shows it whole.
public struct LocalizedContent: Sendable {
    /// An error of one of the content's fields (`titleLocKey`, `bodyLocArgs`…), which a
    /// request's checks point at as `content.FIELD`.
    public protocol FieldError: Error {
        var field: String { get }
    }

    /// A `…LocKey` that no locale of the templates has, and no literal text to use instead.
    public struct MissingKey: FieldError, CustomStringConvertible {
        public var field: String
        public var key: String
        /// The recipient's locale, and the locales of the templates looked in for it.
        public var locale: String
        public var lookedIn: [String]
        public var description: String {
            "\(field) \"\(key)\" is in no strings read for the recipient's locale \(locale) (looked in: \(lookedIn.joined(separator: ", "))); give a literal text to fall back on, or add the key"
        }
    }

    /// A `…LocKey`'s string whose format its `…LocArgs` do not fit (`%d` given a word).
    public struct ArgumentsMismatch: FieldError, CustomStringConvertible {
        /// The key's field, `bodyLocKey`.
        public var keyField: String
        public var key: String
        public var reason: String
        /// The arguments' field, `bodyLocArgs`.
        public var field: String { keyField.replacingOccurrences(of: "Key", with: "Args") }
        public var description: String { "\(field) do not fit \(keyField) \"\(key)\": \(reason)" }
    }

    public var title: String
    public var subtitle: String
    public var body: String

    /// The content in `locale`.
    /// - Throws: ``MissingKey`` when a `…LocKey` is in no locale and has no literal text.
    public init(_ content: NotificationContent, localizer: Localizer, locale: String) throws {
        func resolve(_ field: String, _ key: String?, _ args: [String], _ literal: String) throws -> String {
            guard let key else { return literal }
            let values = args.map(FormatArgument.string)
            let formatted: String?
            do {
                formatted = try localizer.formatted(key, values, locale: locale)
            } catch {
                throw ArgumentsMismatch(keyField: field, key: key, reason: "\(error)")
            }
            if let text = formatted { return text }
            guard !literal.isEmpty else { throw MissingKey(field: field, key: key, locale: locale, lookedIn: localizer.chain(for: locale)) }
            return literal
        }
        // A title or subtitle of spaces alone is none, as the request's check takes it: a
        // blank headline (Slack's header, Discord's embed title) stood where the body's
        // first line should.
        func words(_ text: String) -> String { text.allSatisfy(\.isWhitespace) ? "" : text }
        title = words(try resolve("titleLocKey", content.titleLocKey, content.titleLocArgs, content.title))
        subtitle = words(try resolve("subtitleLocKey", content.subtitleLocKey, content.subtitleLocArgs, content.subtitle))
        body = try resolve("bodyLocKey", content.bodyLocKey, content.bodyLocArgs, content.body)
    }
}
