/// Double opt-in, for recipients whose `authorization` is `notDetermined` (the phone's
/// permission prompt, by email): the first notification that fires for such a recipient
/// sends, instead of itself, a request to confirm, with a signed link and a reply
/// keyword; nothing is sent to them until they confirm, and they are asked once.
///
/// The request is a notification of its own, of the reserved category ``category``,
/// whose only answer is the built-in `confirm`; its delivery id is the recipient's for
/// that round of asking (``deliveryID(recipient:after:)``), so that a run repeating it
/// after a crash, or two runs at once, write the same message rather than two, while a
/// recipient asked again after a reset gets a new id, and the old links confirm nothing.
public enum OptIn {
    /// The category of opt-in requests; no configured category may take it.
    public static let category = "chime.optIn"

    /// The request behind an opt-in's token.
    public static func request(for recipient: String) -> NotificationRequest {
        NotificationRequest(identifier: category, recipient: recipient, content: NotificationContent(categoryIdentifier: category),
                            trigger: .timeInterval(seconds: 60, repeats: false))
    }

    /// The delivery id of a recipient's opt-in request: a generation shaped as a UUID (so
    /// that its token stays as short as a reminder's, within an address's 64 characters),
    /// made from the recipient id, and in place of a fire instant the round of asking: 0
    /// the first time, one more than `previous` (the id of the round a reset ended) after.
    public static func deliveryID(recipient: String, after previous: String? = nil) -> String {
        let padded = { (hash: String) in String(repeating: "0", count: 16 - hash.count) + hash }
        let hex = Array(padded(stableHash("opt-in\u{0}" + recipient)) + padded(stableHash(recipient)))
        let groups = [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(hex[$0]) }
        let round = previous.map { PendingNotification.parts(ofDelivery: $0).fire + 1 } ?? 0
        return groups.joined(separator: "-") + ".\(round)"
    }

    /// `asked_at` of a recipient whose opt-in was reset: to be asked again, under the
    /// next round's delivery id (the row keeps the last one to count from).
    public static let resetMark: Int64 = -1
}
