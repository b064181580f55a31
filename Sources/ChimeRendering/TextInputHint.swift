import ChimeCore
import ChimeLocalization

/// How a person answers a text-input action with text (`UNTextInputNotificationAction`),
/// in their language, followed by the action's placeholder: the email's "Reply 2 followed
/// by your text for Add a note (Why was it late?)", a chat message's "Add a note: press
/// it, then reply with your text (Why was it late?)" or "…: press it, then type your text
/// on the page that opens (Why was it late?)".
public enum TextInputHint {
    /// The email's line for an action: its reply keyword, and for a text-input action
    /// how to add the text (also the answer to a reply that names one without it).
    public static func email(_ number: Int, _ action: NotificationAction, localizer: Localizer, locale: String) throws -> String {
        let title = localizer.localized(action.title, locale: locale)
        guard let input = action.textInput else {
            return try localizer.formatted("ui.reply", [.integer(number), .string(title)], locale: locale) ?? "Reply \(number) for \(title)"
        }
        let line = try localizer.formatted("ui.replyText", [.integer(number), .string(title)], locale: locale)
            ?? "Reply \(number) followed by your text for \(title)"
        return withPlaceholder(line, input, localizer: localizer, locale: locale)
    }

    /// A chat message's line for a text-input action, for where its text is typed
    /// (``Channel/textEntry``): "… press it, then reply with your text (…)" where the
    /// platform brings the text back, "… press it, then type your text on the page that
    /// opens (…)" where the button opens its `/a/` page; nil for any other action, or
    /// where text cannot be typed.
    static func chat(_ action: NotificationAction, typedIn entry: Channel.TextEntry, localizer: Localizer, locale: String) throws -> String? {
        guard let input = action.textInput else { return nil }
        let title = localizer.localized(action.title, locale: locale)
        let line: String
        switch entry {
        case .reply:
            line = try localizer.formatted("ui.textReply", [.string(title)], locale: locale) ?? "\(title): press it, then reply with your text"
        case .page:
            line = try localizer.formatted("ui.textPage", [.string(title)], locale: locale)
                ?? "\(title): press it, then type your text on the page that opens"
        case .none:
            return nil
        }
        return withPlaceholder(line, input, localizer: localizer, locale: locale)
    }

    /// The body of a reply keyword's `mailto:` link: the action's number, and for a
    /// text-input action a space after it, where the text goes.
    static func mailtoBody(_ number: Int, _ action: NotificationAction) -> String {
        action.textInput == nil ? String(number) : "\(number)%20"
    }

    private static func withPlaceholder(_ line: String, _ input: NotificationAction.TextInput, localizer: Localizer, locale: String) -> String {
        let placeholder = localizer.localized(input.placeholder, locale: locale)
        return placeholder.isEmpty ? line : "\(line) (\(placeholder))"
    }
}
