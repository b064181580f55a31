/// Where requests wait and deliveries are recorded: SQLite by default, PostgreSQL later.
///
/// Firing is claim, deliver, mark, settle: ``claimDue(now:limit:claimer:leaseNow:leaseUntil:limits:)``
/// marks due notifications as taken by one process in one transaction; the caller
/// delivers each and at once records it with ``markSent(_:claimer:)``, a
/// small durable write; ``settle(claimer:)`` then moves a batch of marks into the
/// delivered list and the requests on, in one transaction. A process that died leaves
/// marks (settled by the next run) and claims (released by ``releaseClaims(of:)`` or
/// expired with their lease): what it delivered is never sent again, what it did not is
/// taken up with the same delivery id.
public protocol NotificationStore: Sendable {
    /// Adds requests, replacing pending ones with the same identifier; returns the
    /// identifiers that replaced one, found in the same transaction.
    @discardableResult
    func upsert(_ notifications: [PendingNotification]) throws -> [String]

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

    /// Records, durably and at once, in one transaction, that claimed notifications were
    /// delivered (to their local destinations) and queued (for the network ones), and
    /// where their requests go next.
    func markSent(_ marks: [SentMark], claimer: Claimer) throws

    /// Moves every delivery a claimer marked into the delivered list and its requests on
    /// (to their next fire, or out when they do not repeat), in one transaction; a request
    /// replaced or taken over meanwhile is left as it is. Returns how many.
    @discardableResult
    func settle(claimer: Claimer) throws -> Int

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

    // MARK: The outbox

    /// Claims up to `limit` queued deliveries whose next attempt is due at `now`, that
    /// nobody holds (or whose lease ended before `leaseNow`), oldest first.
    func claimOutbox(now: Instant, limit: Int, claimer: Claimer, leaseNow: Instant, leaseUntil: Instant) throws -> [OutboxDelivery]

    /// Records attempts at claimed deliveries and where each stands now, all in one
    /// transaction. A delivery whose claim is no longer this claimer's is left as it is.
    func record(_ records: [AttemptRecord], claimer: Claimer) throws

    /// Deliveries in a state (all when nil), oldest first, each with its attempts.
    func deliveries(state: DeliveryState?) throws -> [OutboxDelivery]

    /// Queues failed deliveries again, due at `now` with a fresh retry budget (the
    /// attempts so far stay in their history): those with the given ids, or all when
    /// `ids` is nil. All or none: when some id is not a failed delivery, nothing is
    /// queued and those ids come back in `notFailed`.
    func retry(_ ids: [Int64]?, now: Instant) throws -> (queued: [Int64], notFailed: [Int64])

    // MARK: Replies

    /// The key that signs reply tokens and action links: the one kept in the store, or
    /// `candidate` kept now when there is none yet (so every process agrees on one).
    func secretKey(keeping candidate: [UInt8]) throws -> [UInt8]

    /// The request a delivery id belongs to, as it was when delivered (or as it is, when
    /// only its pending row still knows the id's generation; or a recipient's opt-in
    /// request); nil when none knows it.
    func request(ofDelivery deliveryID: String) throws -> NotificationRequest?

    /// Records a response and the inbound message that carried it (none for a chat click
    /// or `chime respond`), in one transaction; returns the response's id, or nil,
    /// recording the message as replayed instead, when the same action was already
    /// recorded for the same delivery. A recorded response whose carrying out `failed` is
    /// taken again instead (its id returned, its text, channel, responder, time and
    /// status this response's), so that answering again tries again; once one succeeded,
    /// answers are replays.
    func record(_ response: StoredResponse, from inbound: InboundRecord?) throws -> Int64?

    /// Takes a response whose carrying out failed to carry it out again (now `carried
    /// out`, its result cleared) and returns it; nil when there is no such response or it
    /// did not fail, so that two retries carry it out once.
    func retake(response id: Int64) throws -> StoredResponse?

    /// Takes a response awaiting confirmation as confirmed (now `carried out`) and returns
    /// it; nil when none is awaiting for that delivery and action, so that two
    /// confirmations carry it out once.
    func confirm(deliveryID: String, action: String) throws -> StoredResponse?

    /// Sets where a recorded response stands once carried out, and what that gave.
    func finish(response id: Int64, status: String, result: String) throws

    /// Queues messages that answer a response (an answer in the thread, a hook's POST)
    /// under their own delivery id, sent by the next run like any delivery.
    func enqueue(_ queued: [QueuedDelivery], deliveryID: String, identifier: String, recipient: String, at: Instant) throws

    /// How many of a recipient's delivered notifications no carried-out response has
    /// handled yet: the badge.
    func outstanding(recipient: String) throws -> Int

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

    /// True, and `name`'s turn taken at `at`, unless it was last taken less than `every`
    /// seconds before: a rate limit that holds across processes.
    func takeTurn(_ name: String, at: Instant, every seconds: Int64) throws -> Bool

    /// Remembers that a chat message's thread (`thread`, e.g. Slack's `ts`) on `channel`
    /// shows the notification of the signed `token`.
    func rememberThread(channel: String, thread: String, token: String, at: Instant) throws

    /// The signed token a chat thread was remembered with, or nil.
    func threadToken(channel: String, thread: String) throws -> String?

    /// Records an inbound message that led to no response.
    func record(_ inbound: InboundRecord) throws

    /// The first answer given to an HTTP API call with this `Idempotency-Key` (scoped by
    /// `owner`, the API key's id), or nil.
    func idempotentAnswer(owner: String, key: String) throws -> IdempotentAnswer?

    /// Keeps `answer` as the one to replay for `owner`'s `key`, unless one is already
    /// kept; returns the one kept (the first).
    func keepIdempotentAnswer(_ answer: IdempotentAnswer, owner: String, key: String, at: Instant) throws -> IdempotentAnswer

    /// Every response, oldest first.
    func responses() throws -> [StoredResponse]

    /// Every inbound message, oldest first.
    func inbound() throws -> [InboundRecord]

    /// The zone each recipient's floating triggers were last computed in.
    func recipientZones() throws -> [String: String]

    /// Pending floating requests of a recipient, to compute again in a new zone.
    func floatingPending(recipient: String) throws -> [PendingNotification]

    /// Stores recomputed fire instants and the recipient's new zone, in one transaction.
    func moveRecipient(_ recipient: String, to zone: String, updated: [PendingNotification]) throws

    // MARK: Delivery policy and digests

    /// Deliver Quietly / Turn Off as recipients changed them: recipient → category → preference.
    func preferences() throws -> [String: [String: DeliveryPreference]]

    /// Stores a recipient's preference for a category; it wins over the configuration's.
    func setPreference(recipient: String, category: String, _ preference: DeliveryPreference, at: Instant) throws

    /// The settings recipients changed themselves (the preferences page): recipient → settings.
    func recipientSettings() throws -> [String: RecipientSettings]

    /// The recipients already asked to opt in (``OptIn``).
    func askedToOptIn() throws -> Set<String>

    /// Records that a recipient was asked to opt in by `request` under `deliveryID` (what
    /// its token names) and queues the request's network deliveries, in one transaction.
    /// False, queuing nothing, when the recipient had been asked already.
    func recordOptIn(_ request: NotificationRequest, deliveryID: String, queued: [QueuedDelivery], at: Instant) throws -> Bool

    /// Stores what a recipient changed on the preferences page, their own settings and
    /// their categories' preferences, in one transaction.
    func saveSettings(recipient: String, _ settings: RecipientSettings, preferences: [String: DeliveryPreference], at: Instant) throws

    /// Gives a claimed notification back, not to be taken up before `until` (quiet hours
    /// that wait).
    func postpone(_ notification: PendingNotification, until: Instant, claimer: Claimer) throws

    /// Notifications kept for a recipient's digest and not yet in one.
    func parked(recipient: String) throws -> [ParkedNotification]

    /// Starts the recipient's digest for `slot` (`thread` nil), or the message grouping a
    /// thread: records the batch `id` and takes every notification parked for it and not
    /// in a batch yet, in one transaction. Nil when this slot already has its batch
    /// (sent, or being sent by another run).
    func claimBatch(id: String, recipient: String, thread: String?, slot: Instant, claimer: Claimer, at: Instant) throws -> MessageBatch?

    /// Threads with notifications waiting to go out together, the earliest first.
    func waitingGroups() throws -> [WaitingGroup]

    /// Digests (`digests`), or else thread groups, started and not finished (a run that
    /// died, or one still going), without their items: ``takeOver(_:claimer:)`` reads
    /// those for the run that takes one.
    func unfinishedBatches(digests: Bool) throws -> [MessageBatch]

    /// Takes over an unfinished batch from its claimer (one that died) and returns it
    /// with its items; nil when another run took it first.
    func takeOver(_ batch: MessageBatch, claimer: Claimer) throws -> MessageBatch?

    /// Marks a batch sent and queues its network deliveries, in one transaction.
    func finishBatch(_ batch: MessageBatch, queued: [QueuedDelivery], at: Instant) throws

    /// Counts of what waits and what failed, as of `now`, read in one transaction.
    func gauges(now: Instant) throws -> StoreGauges
}

/// An address marked undeliverable: nothing is sent to it until the mark is cleared.
public struct UndeliverableMark: Hashable, Sendable, Encodable {
    /// Lower case.
    public var address: String
    public var at: Instant
    public var reason: String

    public init(address: String, at: Instant, reason: String) {
        self.address = address
        self.at = at
        self.reason = reason
    }
}
