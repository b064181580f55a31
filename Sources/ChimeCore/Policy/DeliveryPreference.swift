/// How one recipient takes one category's notifications, as the phone's per-app switches:
/// "Deliver Prominently" (the default), "Deliver Quietly" (into the digest only) and
/// "Turn Off" (nothing).
public enum DeliveryPreference: String, CaseIterable, Sendable, Codable {
    case prominently, quietly, off
}

extension Recipient {
    /// How the recipient takes a category: what they chose (`stored`: reply, chat, the
    /// preferences page, one-click unsubscribe), else the configuration's, else
    /// prominently.
    public func preference(for category: String, stored: [String: DeliveryPreference]?) -> DeliveryPreference {
        stored?[category] ?? preferences[category] ?? .prominently
    }
}
