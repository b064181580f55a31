import ChimeCore
import ChimeLocalization
import Foundation

/// Builds the ``ChatMessage`` of a fired notification: localized content, hidden previews
/// applied, the category's actions with their links and tokens.
public struct ChatComposer: Sendable {
    public let localizer: Localizer
    public let links: any LinkMaker

    public init(localizer: Localizer, links: any LinkMaker = UnsignedLinks()) {
        self.localizer = localizer
        self.links = links
    }

    public func compose(_ notification: OutgoingNotification, category: NotificationCategory?, threadCount: Int = 1) throws -> ChatMessage {
        let locale = notification.recipient.locale
        let (content, surfaces) = try LocalizedContent.withSurfaces(notification, category: category, localizer: localizer, threadCount: threadCount)
        func action(_ action: NotificationAction) -> ChatMessage.Action {
            ChatMessage.Action(
                identifier: action.identifier, title: localizer.localized(action.title, locale: locale), options: action.options,
                url: links.action(action, for: notification),
                // The token a platform sends back; short enough for Telegram's 64 bytes.
                token: "\(notification.deliveryID.prefix(40)):\(action.identifier.prefix(20))")
        }
        let zone = TimeZone(identifier: notification.recipient.timeZone) ?? TimeZone(identifier: "UTC")!
        let view = localizer.string("ui.view", locale: locale)?.text ?? "View this reminder"
        return ChatMessage(
            surfaces: surfaces, title: content.title, subtitle: content.subtitle, body: content.body,
            dateText: DateText.dayAndTime(notification.fireDate, locale: locale, zone: zone),
            actions: (category?.actions ?? []).map(action), minimalActions: (category?.minimalActions ?? []).map(action),
            viewURL: links.view(notification), words: ChatMessage.Words(view: view))
    }
}
