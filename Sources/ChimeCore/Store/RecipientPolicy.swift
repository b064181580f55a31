/// What the store holds about one recipient's delivery: what they changed themselves
/// (their settings, their categories' preferences) and what Chime concluded (addresses
/// marked undeliverable, whether they were asked to opt in). Read with
/// ``PolicyStore/recipientPolicy(_:addresses:)``; forgotten part by part with
/// ``PolicyStore/resetRecipientPolicy(_:_:addresses:)``.
public struct RecipientPolicy: Hashable, Sendable {
    /// What the recipient saved on the preferences page (and the authorization Keep or a
    /// confirmed opt-in stored); nil when nothing is stored.
    public var settings: RecipientSettings?
    /// When ``settings`` were last saved; nil when nothing is stored.
    public var settingsChangedAt: Instant?
    /// Category identifier → the preference the recipient chose (reply, chat, the
    /// preferences page, one-click unsubscribe) and when.
    public var preferences: [String: ChosenPreference]
    /// When the recipient was asked to opt in (``OptIn``); nil when never, or since a reset.
    public var askedToOptInAt: Instant?
    /// The marks of the addresses asked about, by address.
    public var undeliverable: [UndeliverableMark]

    /// A category's preference as the recipient chose it.
    public struct ChosenPreference: Hashable, Sendable {
        public var deliver: DeliveryPreference
        public var at: Instant

        public init(deliver: DeliveryPreference, at: Instant) {
            self.deliver = deliver
            self.at = at
        }
    }

    /// The parts of a recipient's policy a reset forgets.
    public struct Parts: OptionSet, Hashable, Sendable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }

        /// Locale, show-previews and quiet hours saved on the preferences page.
        public static let settings = Parts(rawValue: 1 << 0)
        /// Every category preference the recipient chose.
        public static let preferences = Parts(rawValue: 1 << 1)
        /// The undeliverable marks of the recipient's addresses.
        public static let undeliverable = Parts(rawValue: 1 << 2)
        /// The stored authorization and the record of the opt-in request.
        public static let optIn = Parts(rawValue: 1 << 3)
        public static let all: Parts = [.settings, .preferences, .undeliverable, .optIn]
    }

    public init(settings: RecipientSettings? = nil, settingsChangedAt: Instant? = nil, preferences: [String: ChosenPreference] = [:],
                askedToOptInAt: Instant? = nil, undeliverable: [UndeliverableMark] = []) {
        self.settings = settings
        self.settingsChangedAt = settingsChangedAt
        self.preferences = preferences
        self.askedToOptInAt = askedToOptInAt
        self.undeliverable = undeliverable
    }
}
