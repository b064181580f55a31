import ChimeCore
import ChimeLocalization
import ChimeMIME

/// The renderer `chime run` uses: localized templates through ``EmailComposer``, the
/// MIME message through GMime.
public struct TemplateRenderer: MessageRenderer {
    public let composer: EmailComposer
    public let categories: [String: NotificationCategory]

    public init(composer: EmailComposer, configuration: Configuration) {
        self.composer = composer
        self.categories = Dictionary(configuration.categories.map { ($0.identifier, $0) }, uniquingKeysWith: { first, _ in first })
    }

    public func email(_ notification: OutgoingNotification) throws -> String {
        let category = categories[notification.request.content.categoryIdentifier]
        return MIMEComposer.compose(try composer.compose(notification, category: category))
    }
}
