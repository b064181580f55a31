/// The responses every category has: iOS's two (`UNNotificationDefaultActionIdentifier`,
/// `UNNotificationDismissActionIdentifier`), and Chime's snooze and done; with the short
/// names the CLI and replies use for them.
public enum BuiltInAction: String, CaseIterable, Sendable {
    /// The person opened the notification (followed its link, pressed its card).
    case `default` = "com.apple.UNNotificationDefaultActionIdentifier"
    /// The person dismissed it; reported only for categories with `customDismissAction`.
    case dismiss = "com.apple.UNNotificationDismissActionIdentifier"
    /// Fire it again after a while ("snooze 10m"; the configured default without one).
    case snooze = "chime.snooze"
    /// No more of it: the rest of a repeating request is cancelled.
    case done = "chime.done"
    /// Deliver Quietly: the notification's category goes to the recipient's digest from now on.
    case quietly = "chime.quietly"
    /// Turn Off: nothing more of the notification's category for the recipient.
    case off = "chime.off"
    /// Keep, as iOS offers for a provisional notification: the recipient takes reminders
    /// prominently from now on (authorized), this category delivered prominently.
    case keep = "chime.keep"
    /// Confirm, the answer to a double opt-in request (``OptIn``): a `notDetermined`
    /// recipient agrees to take reminders (authorized) from now on.
    case confirm = "chime.confirm"

    /// The built-ins a reply, a chat thread or a link may name, besides the category's own
    /// actions, in the order they are listed.
    public static let answerable: [BuiltInAction] = [.snooze, .done, .quietly, .off, .keep]

    /// The built-ins that answer a request of `category`: an opt-in request takes only
    /// `confirm`, every other request the ``answerable`` ones.
    public static func answerable(in category: String) -> [BuiltInAction] {
        category == OptIn.category ? [.confirm] : answerable
    }

    /// `default` or `dismiss`.
    public var shortName: String {
        switch self {
        case .default: "default"
        case .dismiss: "dismiss"
        case .snooze: "snooze"
        case .done: "done"
        case .quietly: "quietly"
        case .off: "off"
        case .keep: "keep"
        case .confirm: "confirm"
        }
    }

    /// The built-in action an action identifier of a category would clash with: any
    /// built-in's identifier, and Apple's two under their short names too (a category
    /// may have its own `done` or `snooze`, which then wins over Chime's).
    public init?(reserving identifier: String) {
        guard let action = Self.allCases.first(where: {
            $0.rawValue == identifier || ([.default, .dismiss].contains($0) && $0.shortName == identifier)
        }) else { return nil }
        self = action
    }

    /// The built-in action an identifier or short name stands for, if any.
    public init?(identifierOrShortName name: String) {
        guard let action = Self.allCases.first(where: { $0.rawValue == name || $0.shortName == name }) else {
            return nil
        }
        self = action
    }
}
