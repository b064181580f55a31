import ChimeCore
import ChimeLocalization
import ChimeRendering
import ChimeReply
import Foundation

/// `/v/TOKEN`: the reminder whole, for whoever holds its message's view link (what a
/// hidden preview offers instead of the content: the "authenticated" view of
/// `whenAuthenticated`), in its recipient's language.
extension ClickDesk {
    /// What the view page shows.
    public struct ReminderView: Sendable {
        /// Whom it speaks to: the page is in their language.
        public var addressee: Addressee
        /// The content in their language (`titleLocKey`, `bodyLocKey` resolved).
        public var title: String
        public var subtitle: String
        public var body: String
        /// The attached files' names.
        public var attachments: [String]
        /// What heads the attachments' list ("Attached files").
        public var attachmentsLabel: String
        /// The category's actions, in its order.
        public var actions: [ViewAction]
    }

    /// One action of the view page: a form POSTing to its `/a/` link, or, for a
    /// foreground action with a target, a link to the target.
    public struct ViewAction: Sendable {
        /// Its title in the recipient's language.
        public var title: String
        /// Its `/a/TOKEN/ACTION` link, as the message carries it (on `linkBase`), or the
        /// target a foreground action opens.
        public var url: String
        /// A foreground action's target: followed, not posted to.
        public var opensTarget: Bool
        /// "cannot be undone", for a destructive action.
        public var warning: String?
        /// A text-input action's field.
        public var prompt: TextPrompt?
    }

    /// What a view link leads to.
    public enum ViewPage: Sendable {
        case shown(ReminderView)
        /// 403 forged, 410 expired or gone, with its text.
        case refused(Outcome)
    }

    /// The view page of a view token (``TokenPurpose/view``), recording nothing.
    public func view(token: String, now: Instant) throws -> ViewPage {
        let signed: ReplyToken, request: NotificationRequest
        switch try checkLink(token, now: now, accepting: { _ in [.view] }) {
        case .good(let foundRequest, _, let found): (signed, request) = (found, foundRequest)
        case .refused(let outcome): return .refused(outcome)
        }
        let to = addressee(request)
        let content = reminderContent(request.content, locale: to.locale)
        let category = configuration.category(request.content.categoryIdentifier)
        let base = configuration.replies.linkBase
        let target = request.content.targetContentIdentifier.flatMap { TargetURL.isAbsolute($0) ? $0 : nil }
        let buttons = (category?.actions ?? []).map { action in
            let opensTarget = action.options.contains(.foreground) && target != nil
            // The token of the message's own link for this action: the same delivery and expiry.
            let actionToken = tokens.issue(.action(action.identifier), like: signed, recipient: request.recipient, expires: signed.expires)
            return ViewAction(
                title: actions.title(of: action.identifier, in: request),
                url: opensTarget ? target ?? "" : MessageLinks.actionURL(base: base, token: actionToken, identifier: action.identifier),
                opensTarget: opensTarget,
                warning: destructiveWarning(action, to: to),
                prompt: opensTarget ? nil : textPrompt(action.identifier, in: request))
        }
        return .shown(ReminderView(
            addressee: to, title: content.title, subtitle: content.subtitle, body: content.body,
            attachments: request.content.attachments.map { ($0.path as NSString).lastPathComponent },
            attachmentsLabel: say("page.view.attachments", [], to: to, fallback: "Attached files"),
            actions: buttons))
    }

    /// The content in `locale`; its literal text when a key is in no locale.
    private func reminderContent(_ content: NotificationContent, locale: String) -> (title: String, subtitle: String, body: String) {
        if let localizer = actions.localizer, let localized = try? LocalizedContent(content, localizer: localizer, locale: locale) {
            return (localized.title, localized.subtitle, localized.body)
        }
        return (content.title, content.subtitle, content.body)
    }
}
