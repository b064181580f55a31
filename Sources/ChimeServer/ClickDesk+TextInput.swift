import ChimeCore
import ChimeLocalization
import Foundation

/// A text-input action's text: asked for in the recipient's language, with its
/// placeholder, after a chat press or on a link's page, and refused there when empty.
extension ClickDesk {
    /// What to ask for a text-input action's text, in the recipient's language.
    public struct TextPrompt: Sendable {
        /// The action's title.
        public var title: String
        /// Its `textInputPlaceholder` ("Milk, eggs…"); empty when it has none.
        public var placeholder: String
        /// Its `textInputButtonTitle`, the button that sends the text ("Add"); its title
        /// when it has none.
        public var button: String
        /// The action's number in the menu.
        public var number: Int
        /// Whom it is asked of.
        public var addressee: Addressee
    }

    /// How a press on a text-input action comes by its text.
    public enum TextSource: Sendable {
        /// It does not: the action is recorded without text.
        case none
        /// The platform brings it back (a Slack or Mattermost thread, Telegram's
        /// ForceReply): nothing is recorded yet, the text is asked for
        /// (``Outcome/wantsText``).
        case asked
        /// Typed on the link's page (its `text` field): a new response needs it, not
        /// empty and at most ``maximumTextBytes``.
        case typed(String)
        /// Sent from the link's page, more than a page may send.
        case tooLong
    }

    /// The most a text typed on a link's page may be, in bytes of UTF-8.
    public static let maximumTextBytes = NotificationAction.TextInput.maximumBytes

    /// Where a text-input action's text is asked for.
    public enum Asking: Sendable {
        /// In answer to the press, where no thread is known.
        case reply
        /// In the thread of the message pressed (Slack, Mattermost).
        case thread
        /// Telegram's ForceReply prompt.
        case forceReply
        /// A link's page, above its text field (which shows the placeholder itself).
        case page
    }

    /// The question for a text-input action's text, in the recipient's language, followed
    /// by its placeholder in parentheses (but on a page, whose field shows it): "Répondez
    /// dans le fil de ce message avec votre texte pour « Ajouter » (Lait, œufs…)".
    /// - Parameter title: what stands for the action's title in it, when not its plain
    ///   title (Telegram's link, put in after the text is escaped).
    public func ask(_ prompt: TextPrompt, _ asking: Asking, title: String? = nil) -> String {
        let title = title ?? prompt.title
        let (key, fallback) = switch asking {
        case .reply: ("prompt.text", "Reply with your text for “\(title)”")
        case .thread: ("prompt.thread", "Reply in this message’s thread with your text for “\(title)”")
        case .forceReply: ("prompt.forceReply", "\(title): reply to this message with your text")
        case .page: ("page.text.ask", "Your text for “\(title)”:")
        }
        let line = say(key, [title], to: prompt.addressee, fallback: fallback)
        return asking == .page || prompt.placeholder.isEmpty ? line : "\(line) (\(prompt.placeholder))"
    }

    /// The prompt of `action` when it is a text-input action of the request's category.
    func textPrompt(_ action: String, in request: NotificationRequest) -> TextPrompt? {
        let actions = configuration.category(request.content.categoryIdentifier)?.actions ?? []
        guard let index = actions.firstIndex(where: { $0.identifier == action }), let input = actions[index].textInput else { return nil }
        let to = addressee(request), title = self.actions.title(of: action, in: request)
        func localized(_ text: String) -> String { self.actions.localizer?.localized(text, locale: to.locale) ?? text }
        let button = localized(input.buttonTitle)
        return TextPrompt(title: title, placeholder: localized(input.placeholder), button: button.isEmpty ? title : button,
                          number: index + 1, addressee: to)
    }

    /// A text typed on a link's page, trimmed, and the answer instead of recording it when
    /// it is empty or too long (the page again, with its field).
    func typed(_ source: TextSource, for prompt: TextPrompt) -> (text: String?, refusal: Outcome?) {
        let text: String
        switch source {
        case .none, .asked: return (nil, nil)
        case .tooLong: return (nil, unanswered(prompt, tooLong: true))
        case .typed(let typed): text = typed.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        if text.isEmpty { return (nil, unanswered(prompt, tooLong: false)) }
        return text.utf8.count > Self.maximumTextBytes ? (nil, unanswered(prompt, tooLong: true)) : (text, nil)
    }

    /// Why a page's text was not taken (empty: 400, too long: 413), its field shown again.
    private func unanswered(_ prompt: TextPrompt, tooLong: Bool) -> Outcome {
        let (title, reminder) = (prompt.title, prompt.addressee.reminder ?? "")
        let message = tooLong
            ? say("page.text.tooLong", [title, reminder], to: prompt.addressee, fallback: "\(reminder): your text for “\(title)” is too long.")
            : say("page.text.empty", [title, reminder], to: prompt.addressee, fallback: "\(reminder): type your text for “\(title)” first.")
        return Outcome(verdict: tooLong ? .tooLong : .malformed, message: message, wantsText: prompt, addressee: prompt.addressee)
    }
}
