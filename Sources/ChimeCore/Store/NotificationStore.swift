/// Where requests wait and deliveries are recorded: SQLite by default, PostgreSQL later.
///
/// Firing is claim, deliver, complete: ``claimDue(now:limit:claimer:leaseNow:leaseUntil:limits:)`` marks
/// due notifications as taken by one process in one transaction, the caller delivers
/// them, and ``complete(_:claimer:delivered:next:)`` records each delivery and moves its
/// request on. A claim whose process died is released by ``releaseClaims(of:)`` or
/// expires with its lease, and the notification is taken up again with the same
/// delivery id.
public protocol NotificationStore: Sendable {
    /// Adds requests, replacing pending ones with the same identifier.
    func upsert(_ notifications: [PendingNotification]) throws

    /// Pending requests by next fire, all or one recipient's, marking those beyond their
    /// recipient's limit as set aside.
    func pending(recipient: String?, limits: [String: Int]) throws -> [PendingNotification]

    /// Pending requests due at `now` within their recipient's limit, soonest first,
    /// without claiming them (a dry run).
    func due(now: Instant, limit: Int, limits: [String: Int]) throws -> [PendingNotification]

    /// One pending request.
    func pending(identifier: String) throws -> PendingNotification?

    /// Removes pending requests; returns the identifiers that were pending.
    func cancel(_ identifiers: [String]) throws -> [String]

    /// Removes every pending request; returns how many.
    func cancelAll() throws -> Int

    /// Delivered notifications, newest first, all or one recipient's.
    func delivered(recipient: String?) throws -> [DeliveredNotification]

    /// Removes delivered notifications; returns the identifiers that were there.
    func removeDelivered(_ identifiers: [String]) throws -> [String]

    /// Removes every delivered notification; returns how many.
    func removeAllDelivered() throws -> Int

    /// Claims up to `limit` notifications due at `now` that nobody holds (or whose lease
    /// ended before `leaseNow`), within each recipient's pending limit, soonest first.
    func claimDue(now: Instant, limit: Int, claimer: Claimer, leaseNow: Instant, leaseUntil: Instant,
                  limits: [String: Int]) throws -> [PendingNotification]

    /// Records a delivery of a claimed notification and, in the same transaction, moves
    /// its request to `next` or removes it when it does not repeat. Does nothing to a
    /// request replaced meanwhile.
    func complete(_ notification: PendingNotification, claimer: Claimer, delivered: DeliveredNotification, next: Instant?) throws

    /// Gives a claimed notification back, untouched, for a later run.
    func release(_ notification: PendingNotification, claimer: Claimer) throws

    /// The claimers holding notifications now.
    func claimers() throws -> [Claimer]

    /// Releases every claim of a claimer (one known to be dead); returns how many.
    func releaseClaims(of claimer: Claimer) throws -> Int

    /// The zone each recipient's floating triggers were last computed in.
    func recipientZones() throws -> [String: String]

    /// Pending floating requests of a recipient, to compute again in a new zone.
    func floatingPending(recipient: String) throws -> [PendingNotification]

    /// Stores recomputed fire instants and the recipient's new zone, in one transaction.
    func moveRecipient(_ recipient: String, to zone: String, updated: [PendingNotification]) throws
}
