import ChimeCore
import ChimeLocalization
import ChimeMIME

/// The renderer `chime run` uses: localized templates through ``EmailComposer``, the
/// MIME message through GMime.
public struct TemplateRenderer: MessageRenderer {
    public let composer: EmailComposer
    public let chat: ChatComposer
    public let categories: [String: NotificationCategory]
    public let group: GroupComposer

    public init(composer: EmailComposer, configuration: Configuration) {
        self.composer = composer
        self.chat = ChatComposer(localizer: composer.localizer, templates: composer.templates, links: composer.links)
        self.categories = Dictionary(configuration.categories.map { ($0.identifier, $0) }, uniquingKeysWith: { first, _ in first })
        self.group = GroupComposer(composer: composer, categories: categories)
    }

    public func email(_ notification: OutgoingNotification) throws -> String {
        MIMEComposer.compose(try composer.compose(notification, category: category(of: notification)))
    }

    public func payload(_ notification: OutgoingNotification) throws -> [UInt8] {
        Self.body(try chat.compose(notification, category: category(of: notification)), for: notification)
    }

    public func groupEmail(_ items: [OutgoingNotification], id: String, date: Instant, kind: GroupKind) throws -> String {
        MIMEComposer.compose(try group.email(items, id: id, date: date, kind: kind))
    }

    public func groupPayload(_ items: [OutgoingNotification], kind: GroupKind) throws -> [UInt8] {
        let message = try group.chat(items, kind: kind)
        return Self.body(message, for: items[0])
    }

    public func optInEmail(_ notification: OutgoingNotification) throws -> String {
        MIMEComposer.compose(try OptInComposer(composer: composer).email(notification))
    }

    private static func body(_ message: ChatMessage, for notification: OutgoingNotification) -> [UInt8] {
        let kind = notification.channel.url.kind == .file ? .json : notification.channel.url.kind
        return ChatPayload.bytes(for: kind, message, interactive: notification.channel.takesPresses)
    }

    private func category(of notification: OutgoingNotification) -> NotificationCategory? {
        categories[notification.request.content.categoryIdentifier]
    }
}
