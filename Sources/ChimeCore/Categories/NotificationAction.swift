/// A task a person can perform in answer to a notification, as `UNNotificationAction`
/// (and, with ``textInput``, `UNTextInputNotificationAction`).
///
/// In email an action is a numbered reply keyword and a signed link; in chat, a button.
public struct NotificationAction: Hashable, Sendable {
    /// The behaviours of an action, as `UNNotificationActionOptions`.
    public struct Options: OptionSet, Hashable, Sendable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }

        /// Opens the application's link instead of acting silently.
        public static let foreground = Options(rawValue: 1 << 0)
        /// Changes or deletes data; asks for confirmation.
        public static let destructive = Options(rawValue: 1 << 1)
        /// Only a proven sender may perform it.
        public static let authenticationRequired = Options(rawValue: 1 << 2)

        /// The options in their documented order, with the names used in XML and JSON.
        public static let named: [(name: String, option: Options)] = [
            ("foreground", .foreground),
            ("destructive", .destructive),
            ("authenticationRequired", .authenticationRequired),
        ]

        /// The names of the options set, in documented order.
        public var names: [String] { Self.named.filter { contains($0.option) }.map(\.name) }
    }

    /// What a text-input action adds, as `UNTextInputNotificationAction`.
    public struct TextInput: Hashable, Sendable {
        /// The title of the button that sends the text.
        public var buttonTitle: String
        /// The hint shown where the text is typed.
        public var placeholder: String

        public init(buttonTitle: String, placeholder: String) {
            self.buttonTitle = buttonTitle
            self.placeholder = placeholder
        }

        /// The most text a response takes, in bytes of UTF-8, whichever way it comes (a
        /// link's page, a chat thread, an email reply): what hooks, webhooks and the API
        /// are given.
        public static let maximumBytes = 4096
    }

    /// Unique across the whole configuration; what a response reports.
    public var identifier: String
    /// The button title, or a key of `Localizable.strings`.
    public var title: String
    public var options: Options
    /// Present for a text-input action: the reply text becomes the response's `userText`.
    public var textInput: TextInput?
    /// What the person is told once it is carried out ("List deleted"): literal text or a
    /// strings key; nil says only that it was done.
    public var answer: String?
    /// More words a reply may use for it, besides its number, identifier and titles.
    public var aliases: [String]
    /// What carrying it out runs, in order.
    public var hooks: [ActionHook]

    public init(identifier: String, title: String, options: Options = [], textInput: TextInput? = nil,
                answer: String? = nil, aliases: [String] = [], hooks: [ActionHook] = []) {
        self.identifier = identifier
        self.title = title
        self.options = options
        self.textInput = textInput
        self.answer = answer
        self.aliases = aliases
        self.hooks = hooks
    }
}

extension NotificationAction: Encodable {
    private enum CodingKeys: String, CodingKey {
        case identifier, title, options, textInputButtonTitle, textInputPlaceholder
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(identifier, forKey: .identifier)
        try container.encode(title, forKey: .title)
        try container.encode(options.names, forKey: .options)
        if let textInput {
            try container.encode(textInput.buttonTitle, forKey: .textInputButtonTitle)
            try container.encode(textInput.placeholder, forKey: .textInputPlaceholder)
        }
    }
}
