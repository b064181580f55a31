import Foundation

/// A person Chime sends reminders to, with their language, zone and preferences.
public struct Recipient: Hashable, Sendable {
    /// Where previews may show, as `UNShowPreviewsSetting`.
    public enum ShowPreviews: String, CaseIterable, Sendable, Codable {
        case always, whenAuthenticated, never
    }

    /// Whether and how this person agreed to receive reminders, as `UNAuthorizationStatus`.
    public enum Authorization: String, CaseIterable, Sendable, Codable {
        case notDetermined, denied, authorized, provisional, ephemeral
    }

    /// One place to reach the person: a channel, and the address on it (empty for a
    /// webhook channel, which reaches one room).
    public struct Address: Hashable, Sendable {
        public var channel: String
        public var value: String

        public init(channel: String, value: String = "") {
            self.channel = channel
            self.value = value
        }
    }

    public var id: String
    /// BCP 47, e.g. `fr-FR`.
    public var locale: String
    /// An IANA zone, e.g. `Europe/Paris`.
    public var timeZone: String
    public var showPreviews: ShowPreviews
    public var authorization: Authorization
    public var addresses: [Address]
    /// At most this many pending requests fire; the later ones wait, set aside. Nil: the
    /// configuration's default (none unless set).
    public var pendingLimit: Int?
    /// When nothing but time-sensitive and critical notifications is sent now.
    public var quietHours: QuietHours?
    /// What becomes of the others inside quiet hours.
    public var quietHoursMode: QuietHoursMode
    /// When the daily digest is due, in minutes after local midnight (07:00 unless set).
    public var digestAt: Int
    /// How long, in seconds, the first notification of a thread waits for others of the
    /// same thread before they go out together as one message (Alertmanager's group
    /// wait); 0 sends each at once.
    public var groupWait: Int64
    /// Deliver Quietly or Turn Off, per category identifier, as the configuration sets
    /// them; what the person changes later (reply, chat, preferences page) is stored and
    /// wins.
    public var preferences: [String: DeliveryPreference]

    /// Inside quiet hours: into the digest, or held until the window ends.
    public enum QuietHoursMode: String, CaseIterable, Sendable, Codable {
        case digest, wait
    }

    public init(
        id: String,
        locale: String = "en",
        timeZone: String = "UTC",
        showPreviews: ShowPreviews = .always,
        authorization: Authorization = .authorized,
        addresses: [Address] = [],
        pendingLimit: Int? = nil,
        quietHours: QuietHours? = nil,
        quietHoursMode: QuietHoursMode = .digest,
        digestAt: Int = 7 * 60,
        groupWait: Int64 = 0,
        preferences: [String: DeliveryPreference] = [:]
    ) {
        self.quietHours = quietHours
        self.quietHoursMode = quietHoursMode
        self.digestAt = digestAt
        self.groupWait = groupWait
        self.preferences = preferences
        self.id = id
        self.locale = locale
        self.timeZone = timeZone
        self.showPreviews = showPreviews
        self.authorization = authorization
        self.addresses = addresses
        self.pendingLimit = pendingLimit
    }
}
