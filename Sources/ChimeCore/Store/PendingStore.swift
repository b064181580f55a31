/// Requests waiting for their instant, and firing them: claim, mark, settle.
///
/// Firing is claim, deliver, mark, settle: ``claimDue(now:limit:claimer:leaseNow:leaseUntil:limits:)``
/// marks due notifications as taken by one process in one transaction; the caller
/// delivers each and at once records it with ``markSent(_:claimer:)``, a
/// small durable write; ``settle(claimer:)`` then moves a batch of marks into the
/// delivered list and the requests on, in one transaction. A process that died leaves
/// marks (settled by the next run) and claims (released by ``releaseClaims(of:)`` or
/// expired with their lease): what it delivered is never sent again, what it did not is
/// taken up with the same delivery id.
public protocol PendingStore: Sendable {
    /// Adds requests, replacing pending ones with the same identifier; returns the
    /// identifiers that replaced one, found in the same transaction.
    @discardableResult
    func upsert(_ notifications: [PendingNotification]) throws -> [String]

    /// Pending requests by next fire (then identifier), all or one recipient's, marking
    /// those beyond their recipient's limit as set aside: those after `after`, at most
    /// `count` of them (nil: all).
    func pending(recipient: String?, limits: [String: Int], after: ListingKey?, count: Int?) throws -> [PendingNotification]

    /// Pending requests due at `now` within their recipient's limit, soonest first,
    /// without claiming them (a dry run).
    func due(now: Instant, limit: Int, limits: [String: Int]) throws -> [PendingNotification]

    /// One pending request.
    func pending(identifier: String) throws -> PendingNotification?

    /// Removes pending requests; returns the identifiers that were pending.
    func cancel(_ identifiers: [String]) throws -> [String]

    /// Removes every pending request; returns how many.
    func cancelAll() throws -> Int

    /// Delivered notifications, newest first (then by identifier), all or one
    /// recipient's: those after `after`, at most `count` of them (nil: all).
    func delivered(recipient: String?, after: ListingKey?, count: Int?) throws -> [DeliveredNotification]

    /// Removes delivered notifications; returns the identifiers that were there.
    func removeDelivered(_ identifiers: [String]) throws -> [String]

    /// Removes every delivered notification; returns how many.
    func removeAllDelivered() throws -> Int

    /// Claims up to `limit` notifications due at `now` that nobody holds (or whose lease
    /// ended before `leaseNow`), within each recipient's pending limit, soonest first.
    /// Rows whose request cannot be read are claimed too, and handed back apart
    /// (``ClaimedDue/unreadable``): the others fire all the same.
    func claimDueRows(now: Instant, limit: Int, claimer: Claimer, leaseNow: Instant, leaseUntil: Instant,
                      limits: [String: Int]) throws -> ClaimedDue

    /// Records, durably and at once, in one transaction, that claimed notifications were
    /// delivered (to their local destinations) and queued (for the network ones), and
    /// where their requests go next.
    func markSent(_ marks: [SentMark], claimer: Claimer) throws

    /// Moves every delivery a claimer marked into the delivered list and its requests on
    /// (to their next fire, or out when they do not repeat), in one transaction; a request
    /// replaced or taken over meanwhile is left as it is. Returns how many.
    @discardableResult
    func settle(claimer: Claimer) throws -> Int

    /// ``markSent(_:claimer:)`` and then ``settle(claimer:)``, the end of a batch: in one
    /// transaction where the store can (SQLite's settles these marks as it writes them,
    /// without a row in `sent`); PostgreSQL's runs the two.
    func markSentAndSettle(_ marks: [SentMark], claimer: Claimer) throws

    /// The claimers holding notifications or unsettled marks now, each with the end of its
    /// latest lease (nil when it holds only marks).
    func claimers() throws -> [(claimer: Claimer, leaseEnds: Instant?)]

    /// Releases every claim of a claimer (one known to be dead); returns how many.
    func releaseClaims(of claimer: Claimer) throws -> Int

    /// The earliest instant after `now` at which something becomes due: a pending
    /// notification's next fire, the end of its quiet-hours hold, a queued delivery's next
    /// attempt; nil when nothing waits. Cheap (indexed), so a daemon may ask every second
    /// whether another process scheduled something sooner.
    func earliestDue(after now: Instant) throws -> Instant?

    /// Whether a claim at `now` would take a notification: one due and awake, free of
    /// claims (or its claimer's lease over and nothing marked), within its recipient's
    /// pending limit. A daemon asks it beside ``earliestDue(after:)``: a request added
    /// after its last round with an instant already past (another machine's clock behind,
    /// a recipient moved to an earlier zone) falls due at no instant after that round.
    func hasClaimableDue(now: Instant, limits: [String: Int]) throws -> Bool

    /// Gives a claimed notification back (the row of `identifier` and `generation`), not
    /// to be taken up before `until` (quiet hours that wait, a notification held).
    func postpone(identifier: String, generation: String, until: Instant, claimer: Claimer) throws

    /// The zone each recipient's floating triggers were last computed in.
    func recipientZones() throws -> [String: String]

    /// Pending floating requests of a recipient, to compute again in a new zone.
    func floatingPending(recipient: String) throws -> [PendingNotification]

    /// Stores recomputed fire instants and the recipient's new zone, in one transaction.
    func moveRecipient(_ recipient: String, to zone: String, updated: [PendingNotification]) throws
}

extension PendingStore {
    /// Every pending request by next fire, all or one recipient's, those beyond their
    /// recipient's limit marked set aside.
    public func pending(recipient: String?, limits: [String: Int]) throws -> [PendingNotification] {
        try pending(recipient: recipient, limits: limits, after: nil, count: nil)
    }

    /// Every delivered notification, newest first, all or one recipient's.
    public func delivered(recipient: String?) throws -> [DeliveredNotification] {
        try delivered(recipient: recipient, after: nil, count: nil)
    }

    /// ``claimDueRows(now:limit:claimer:leaseNow:leaseUntil:limits:)``'s notifications;
    /// a row whose request cannot be read is its error.
    public func claimDue(now: Instant, limit: Int, claimer: Claimer, leaseNow: Instant, leaseUntil: Instant,
                         limits: [String: Int]) throws -> [PendingNotification] {
        let claimed = try claimDueRows(now: now, limit: limit, claimer: claimer, leaseNow: leaseNow, leaseUntil: leaseUntil, limits: limits)
        if let unreadable = claimed.unreadable.first { throw unreadable }
        return claimed.notifications
    }

    public func postpone(_ notification: PendingNotification, until: Instant, claimer: Claimer) throws {
        try postpone(identifier: notification.request.identifier, generation: notification.generation, until: until, claimer: claimer)
    }

    public func markSentAndSettle(_ marks: [SentMark], claimer: Claimer) throws {
        try markSent(marks, claimer: claimer)
        try settle(claimer: claimer)
    }
}

/// What a claim took: the notifications, soonest first, and the rows it claimed whose
/// request could not be read.
public struct ClaimedDue: Sendable {
    public var notifications: [PendingNotification]
    public var unreadable: [UnreadableStoredRequest]

    public init(notifications: [PendingNotification] = [], unreadable: [UnreadableStoredRequest] = []) {
        self.notifications = notifications
        self.unreadable = unreadable
    }

    /// How many rows were claimed.
    public var count: Int { notifications.count + unreadable.count }

    /// Adds another claim's rows after these.
    public mutating func append(contentsOf other: ClaimedDue) {
        notifications += other.notifications
        unreadable += other.unreadable
    }
}
