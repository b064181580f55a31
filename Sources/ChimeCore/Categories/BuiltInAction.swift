/// The two responses every category has, as `UNNotificationDefaultActionIdentifier` and
/// `UNNotificationDismissActionIdentifier`, and the short names the CLI accepts for them.
public enum BuiltInAction: String, CaseIterable, Sendable {
    /// The person opened the notification (followed its link, pressed its card).
    case `default` = "com.apple.UNNotificationDefaultActionIdentifier"
    /// The person dismissed it; reported only for categories with `customDismissAction`.
    case dismiss = "com.apple.UNNotificationDismissActionIdentifier"

    /// `default` or `dismiss`.
    public var shortName: String {
        switch self {
        case .default: "default"
        case .dismiss: "dismiss"
        }
    }

    /// The built-in action an identifier or short name stands for, if any.
    public init?(identifierOrShortName name: String) {
        guard let action = Self.allCases.first(where: { $0.rawValue == name || $0.shortName == name }) else {
            return nil
        }
        self = action
    }
}
