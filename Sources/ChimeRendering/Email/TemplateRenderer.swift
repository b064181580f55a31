import ChimeCore
import ChimeLocalization
import ChimeMIME

/// The renderer `chime run` uses: localized templates through ``EmailComposer``, the
/// MIME message through GMime.
public struct TemplateRenderer: MessageRenderer {
    public let composer: EmailComposer
    public let chat: ChatComposer
    public let categories: [String: NotificationCategory]
    public let digest: DigestComposer

    public init(composer: EmailComposer, configuration: Configuration) {
        self.composer = composer
        self.chat = ChatComposer(localizer: composer.localizer, templates: composer.templates, links: composer.links)
        self.categories = Dictionary(configuration.categories.map { ($0.identifier, $0) }, uniquingKeysWith: { first, _ in first })
        self.digest = DigestComposer(composer: composer, categories: categories)
    }

    public func email(_ notification: OutgoingNotification) throws -> String {
        MIMEComposer.compose(try composer.compose(notification, category: category(of: notification)))
    }

    public func payload(_ notification: OutgoingNotification) throws -> [UInt8] {
        let kind = notification.channel.url.kind == .file ? .json : notification.channel.url.kind
        let message = try chat.compose(notification, category: category(of: notification))
        return ChatPayload.body(for: kind, message).jsonBytes
    }

    public func digestEmail(_ items: [OutgoingNotification], id: String, date: Instant) throws -> String {
        MIMEComposer.compose(try digest.compose(items, digestID: id, date: date))
    }

    private func category(of notification: OutgoingNotification) -> NotificationCategory? {
        categories[notification.request.content.categoryIdentifier]
    }
}
