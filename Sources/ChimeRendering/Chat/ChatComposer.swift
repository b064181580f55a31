import ChimeCore
import ChimeLocalization
import Foundation

/// Builds the ``ChatMessage`` of a fired notification: localized content, hidden previews
/// applied, the message text from the `chat.text` template, the category's actions with
/// their links and tokens.
public struct ChatComposer: Sendable {
    public let localizer: Localizer
    public let templates: TemplateSet
    public let links: any LinkMaker

    public init(localizer: Localizer, templates: TemplateSet, links: any LinkMaker = UnsignedLinks()) {
        self.localizer = localizer
        self.templates = templates
        self.links = links
    }

    public func compose(_ notification: OutgoingNotification, category: NotificationCategory?, threadCount: Int = 1) throws -> ChatMessage {
        let locale = notification.recipient.locale
        let message = try LocalizedMessage(notification, category: category, localizer: localizer, threadCount: threadCount)
        let (content, surfaces, dateText) = (message.content, message.surfaces, message.dateText)
        let links = self.links.links(for: notification, medium: .chat)
        let numbers = Dictionary((category?.actions ?? []).enumerated().map { ($1.identifier, $0 + 1) }) { first, _ in first }
        func action(_ action: NotificationAction) throws -> ChatMessage.Action {
            // The token of this action alone, signed once for its link and its button.
            let token = links.actionToken(action.identifier)
            return ChatMessage.Action(
                identifier: action.identifier, number: numbers[action.identifier] ?? 0, title: localizer.localized(action.title, locale: locale), options: action.options,
                url: links.action(action, token: token), opensTarget: links.opensTarget(action),
                // What a platform sends back: the action's signed token and its number in
                // the menu, 57 bytes, within Telegram's 64.
                token: "\(token).\(numbers[action.identifier] ?? 0)",
                placeholder: action.textInput.map { localizer.localized($0.placeholder, locale: locale) },
                textHint: try TextInputHint.chat(action, typedIn: notification.channel.textEntry, localizer: localizer, locale: locale))
        }
        let view = localizer.string("ui.view", locale: locale)?.text ?? "View this reminder"
        // Hidden content never reaches the template: the headline carries the placeholder.
        var text = ""
        if surfaces.bodyShowsContent {
            let (hasSubtitle, hasBody) = (!content.subtitle.isEmpty, !content.body.isEmpty)
            text = templates.render(.chatText, category: category?.identifier, shape: "\(hasSubtitle)\u{0}\(hasBody)",
                                    values: [content.title, content.subtitle, content.body, dateText]) { values in
                ["title": values[0], "subtitle": values[1], "body": values[2], "date": values[3],
                 "hasSubtitle": hasSubtitle, "hasBody": hasBody]
            }
            while text.last?.isNewline == true { text.removeLast() }
        }
        // The minimal context's actions are some of the category's: each composed (and its
        // token signed) once.
        let actions = try (category?.actions ?? []).map(action)
        let minimalActions = (category?.minimalActions ?? []).compactMap { minimal in actions.first { $0.identifier == minimal.identifier } }
        var composed = ChatMessage(
            surfaces: surfaces, title: content.title, subtitle: content.subtitle, body: content.body, text: text, dateText: dateText,
            actions: actions, minimalActions: minimalActions,
            viewURL: links.view, words: words(locale: locale, reminder: surfaces.bodyShowsContent && !content.title.isEmpty ? content.title : surfaces.subject,
                                              view: view, confirming: category?.actions.contains { $0.options.contains(.destructive) } ?? false))
        composed.rightToLeft = LocaleFallback.direction(of: locale) == "rtl"
        if notification.channel.url.kind == .mattermost {
            composed.pressURL = links.callback(.mattermost, channel: notification.channel.id)
        }
        return composed
    }

    /// The words of the message's buttons and of a destructive action's confirmation
    /// dialog, in the recipient's language, the question naming the reminder (its
    /// headline: the placeholder where previews hide the title). The question is
    /// formatted only when an action is `confirming` (destructive): formatting it for
    /// every message was a twentieth of a 10,000-notification run.
    func words(locale: String, reminder: String, view: String, confirming: Bool) -> ChatMessage.Words {
        func text(_ key: String, _ fallback: String) -> String { localizer.string(key, locale: locale)?.text ?? fallback }
        var words = ChatMessage.Words(view: view, confirm: text("ui.confirm", "Confirm"), cancel: text("ui.cancel", "Cancel"))
        if confirming {
            // The reminder named in at most 100 characters, so that the question after it
            // fits Slack's 300 of a dialog's text: cut whole, the question was what went.
            let reminder = TextLimit.fit(reminder, 100, .scalars)
            let question = (try? localizer.formatted("ui.confirm.question", [.string(reminder)], locale: locale)) ?? nil
            words.areYouSure = question ?? "“\(reminder)”: are you sure? This cannot be undone."
        }
        return words
    }
}
