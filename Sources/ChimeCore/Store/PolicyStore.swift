/// What recipients changed and what Chime concluded about them: preferences, settings, opt-in, undeliverable addresses.
public protocol PolicyStore: Sendable {
    /// Deliver Quietly / Turn Off as recipients changed them: recipient → category → preference.
    func preferences() throws -> [String: [String: DeliveryPreference]]

    /// Stores a recipient's preference for a category; it wins over the configuration's.
    func setPreference(recipient: String, category: String, _ preference: DeliveryPreference, at: Instant) throws

    /// The settings recipients changed themselves (the preferences page): recipient → settings.
    func recipientSettings() throws -> [String: RecipientSettings]

    /// Stores what a recipient changed (on the preferences page, by Keep or a confirmed
    /// opt-in), their own settings and their categories' preferences, in one transaction.
    /// Each field of `settings` that is set replaces the stored one; each nil leaves it as
    /// it is. So nothing is read first, and a Keep and a page saved at the same moment
    /// both hold: neither writes back what it read before the other's save.
    func saveSettings(recipient: String, _ settings: RecipientSettings, preferences: [String: DeliveryPreference], at: Instant) throws

    /// The recipients already asked to opt in (``OptIn``).
    func askedToOptIn() throws -> Set<String>

    /// The delivery id of the recipient's last opt-in request (``OptIn/deliveryID(recipient:after:)``
    /// counts the next round from it), and whether it was reset since; nil when they were
    /// never asked.
    func lastOptIn(recipient: String) throws -> (deliveryID: String, reset: Bool)?

    /// Records that a recipient was asked to opt in by `request` under `deliveryID` (what
    /// its token names) and queues the request's network deliveries, in one transaction.
    /// False, queuing nothing, when the recipient had been asked already (since their
    /// last reset).
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

    /// One recipient's stored policy, read in one transaction (a consistent snapshot):
    /// - `settings`, `settingsChangedAt`: their row of saved settings (locale,
    ///   show-previews, quiet hours, authorization, as ``recipientSettings()`` gives it)
    ///   and when it was saved; both nil when they have none.
    /// - `preferences`: each category preference stored for them (as ``preferences()``
    ///   gives them, with the instant of the ``setPreference(recipient:category:_:at:)`` or
    ///   ``saveSettings(recipient:_:preferences:at:)`` that stored it).
    /// - `askedToOptInAt`: the `at` of the ``recordOptIn(_:deliveryID:queued:at:)`` that
    ///   recorded asking them; nil when none is recorded.
    /// - `undeliverable`: the marks (``undeliverableMarks()``) of those of `addresses`
    ///   that are marked, ordered by address; marks of other addresses are not read.
    /// - Parameters:
    ///   - recipient: the recipient's id; one with nothing stored gives an empty policy.
    ///   - addresses: the recipient's email addresses, lower case, as marks are stored.
    func recipientPolicy(_ recipient: String, addresses: [String]) throws -> RecipientPolicy

    /// Forgets what `parts` names of one recipient's stored policy, in one transaction,
    /// so that from the next fire the configuration's values hold again; then reads the
    /// policy as ``recipientPolicy(_:addresses:)`` does, in the same transaction.
    /// - `.settings`: the saved locale, show-previews and quiet hours become nil; the
    ///   stored authorization stays (it is `.optIn`'s). A settings row left with nothing
    ///   in it is removed, so that `settings` reads nil again.
    /// - `.preferences`: every category preference stored for the recipient (reply,
    ///   chat, the preferences page, one-click unsubscribe) is removed.
    /// - `.undeliverable`: the marks of `addresses` are removed (as
    ///   ``clearUndeliverable(_:)``); other addresses' marks stay.
    /// - `.optIn`: the stored authorization becomes nil (Keep, a confirmed opt-in: the
    ///   configuration's authorization holds again); the record that the recipient was
    ///   asked to opt in is marked reset (``OptIn/resetMark``: a `notDetermined`
    ///   recipient is asked again at the next fire, under the next round's delivery id,
    ///   and the old request's links and reply token name nothing, then or ever); and the
    ///   outbox deliveries of the old request, sent or still queued (whose links would
    ///   confirm nothing), are removed with their bodies and attempts, as are the
    ///   responses recorded for it (a Confirm).
    ///
    /// Nothing else changes: pending, delivered and other responses stay. A part with nothing
    /// stored is no error.
    /// - Parameters:
    ///   - recipient: the recipient's id.
    ///   - parts: what to forget; empty forgets nothing and only reads.
    ///   - addresses: the recipient's email addresses, lower case, as marks are stored.
    /// - Returns: the recipient's policy after the reset.
    @discardableResult
    func resetRecipientPolicy(_ recipient: String, _ parts: RecipientPolicy.Parts, addresses: [String]) throws -> RecipientPolicy
}
