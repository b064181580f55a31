/// What recipients changed and what Chime concluded about them: preferences, settings, opt-in, undeliverable addresses.
public protocol PolicyStore: Sendable {
    /// Deliver Quietly / Turn Off as recipients changed them: recipient → category → preference.
    func preferences() throws -> [String: [String: DeliveryPreference]]

    /// Stores a recipient's preference for a category; it wins over the configuration's.
    func setPreference(recipient: String, category: String, _ preference: DeliveryPreference, at: Instant) throws

    /// The settings recipients changed themselves (the preferences page): recipient → settings.
    func recipientSettings() throws -> [String: RecipientSettings]

    /// Stores what a recipient changed on the preferences page, their own settings and
    /// their categories' preferences, in one transaction.
    func saveSettings(recipient: String, _ settings: RecipientSettings, preferences: [String: DeliveryPreference], at: Instant) throws

    /// The recipients already asked to opt in (``OptIn``).
    func askedToOptIn() throws -> Set<String>

    /// Records that a recipient was asked to opt in by `request` under `deliveryID` (what
    /// its token names) and queues the request's network deliveries, in one transaction.
    /// False, queuing nothing, when the recipient had been asked already.
    func recordOptIn(_ request: NotificationRequest, deliveryID: String, queued: [QueuedDelivery], at: Instant) throws -> Bool

    /// Marks addresses a hard bounce named: nothing is sent to them any more.
    func markUndeliverable(_ addresses: [String], reason: String, at: Instant) throws

    /// Every address marked undeliverable (lower case).
    func undeliverable() throws -> Set<String>

    /// The addresses marked undeliverable, with when and why, by address.
    func undeliverableMarks() throws -> [UndeliverableMark]

    /// Lifts the marks of these addresses (a genuine reply came from one, or an operator
    /// cleared it); returns those that were marked.
    @discardableResult
    func clearUndeliverable(_ addresses: [String]) throws -> [String]
}
