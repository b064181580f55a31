/// A type of notification and the actions it offers, as `UNNotificationCategory`.
public struct NotificationCategory: Hashable, Sendable {
    /// The behaviours of a category, as `UNNotificationCategoryOptions`.
    public struct Options: OptionSet, Hashable, Sendable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }

        /// Dismissing the notification is reported as a response (the dismiss action).
        public static let customDismissAction = Options(rawValue: 1 << 0)
        /// The title stays visible when previews are hidden.
        public static let hiddenPreviewsShowTitle = Options(rawValue: 1 << 1)
        /// The subtitle stays visible when previews are hidden.
        public static let hiddenPreviewsShowSubtitle = Options(rawValue: 1 << 2)

        /// The options in their documented order, with the names used in XML and JSON.
        public static let named: [(name: String, option: Options)] = [
            ("customDismissAction", .customDismissAction),
            ("hiddenPreviewsShowTitle", .hiddenPreviewsShowTitle),
            ("hiddenPreviewsShowSubtitle", .hiddenPreviewsShowSubtitle),
        ]

        public var names: [String] { Self.named.filter { contains($0.option) }.map(\.name) }
    }

    /// The most actions a full surface (email body, chat card) shows.
    public static let maximumDefaultActions = 4
    /// The most actions a compact surface (subject hint, chat notification text) shows.
    public static let maximumMinimalActions = 2

    public var identifier: String
    /// Every action, in the order they are shown (the default context).
    public var actions: [NotificationAction]
    /// The identifiers named for the minimal context; empty means "the first two actions".
    public var minimalActionIdentifiers: [String]
    /// Shown instead of the body when previews are hidden; literal text or a strings key.
    public var hiddenPreviewsBodyPlaceholder: String?
    /// The summary of a group, e.g. "%u more reminders from %@"; literal text or a strings key.
    public var categorySummaryFormat: String?
    public var options: Options
    /// Destructive actions ask for confirmation by link before they are carried out;
    /// false (`confirmDestructive="false"`) carries them out at once.
    public var confirmsDestructive = true

    public init(
        identifier: String,
        actions: [NotificationAction] = [],
        minimalActionIdentifiers: [String] = [],
        hiddenPreviewsBodyPlaceholder: String? = nil,
        categorySummaryFormat: String? = nil,
        options: Options = []
    ) {
        self.identifier = identifier
        self.actions = actions
        self.minimalActionIdentifiers = minimalActionIdentifiers
        self.hiddenPreviewsBodyPlaceholder = hiddenPreviewsBodyPlaceholder
        self.categorySummaryFormat = categorySummaryFormat
        self.options = options
    }

    /// The actions of the minimal context: those named, else the first two, as iOS does.
    public var minimalActions: [NotificationAction] {
        guard !minimalActionIdentifiers.isEmpty else {
            return Array(actions.prefix(Self.maximumMinimalActions))
        }
        return minimalActionIdentifiers.compactMap { name in actions.first { $0.identifier == name } }
    }

    /// The action with this identifier, if the category has one.
    public func action(_ identifier: String) -> NotificationAction? {
        actions.first { $0.identifier == identifier }
    }
}

extension NotificationCategory: Encodable {
    private enum CodingKeys: String, CodingKey {
        case identifier, actions, minimalActions, hiddenPreviewsBodyPlaceholder, categorySummaryFormat, options
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(identifier, forKey: .identifier)
        try container.encode(actions, forKey: .actions)
        try container.encode(minimalActions.map(\.identifier), forKey: .minimalActions)
        try container.encode(hiddenPreviewsBodyPlaceholder, forKey: .hiddenPreviewsBodyPlaceholder)
        try container.encode(categorySummaryFormat, forKey: .categorySummaryFormat)
        try container.encode(options.names, forKey: .options)
    }
}
