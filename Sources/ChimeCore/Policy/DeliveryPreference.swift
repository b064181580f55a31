/// How one recipient takes one category's notifications, as the phone's per-app switches:
/// "Deliver Prominently" (the default), "Deliver Quietly" (into the digest only) and
/// "Turn Off" (nothing).
public enum DeliveryPreference: String, CaseIterable, Sendable, Codable {
    case prominently, quietly, off
}
