/// Replies, clicks and chat presses: what each delivery was, the responses recorded and carried out, and the inbound messages that carried them.
public protocol ResponseStore: StoreTransactions {
    /// The request a delivery id belongs to, as it was when delivered (or as it is, when
    /// only its pending row still knows the id's generation; or a recipient's opt-in
    /// request); nil when none knows it.
    func request(ofDelivery deliveryID: String) throws -> NotificationRequest?

    /// Records a response and the inbound message that carried it (none for a chat click
    /// or `chime respond`), in one transaction; returns the response's id, or nil,
    /// recording the message as replayed instead, when the same action was already
    /// recorded for the same delivery. A recorded response whose carrying out `failed`, or
    /// was cut short (still `carrying out` ``StoredResponse/abandonedAfter`` seconds after
    /// it was taken, by this response's time), is taken again instead (its id returned,
    /// its text, channel, responder, time and status this response's), so that answering
    /// again tries again; once one succeeded, answers are replays. So is one `awaiting
    /// confirmation` by a response `carrying out` (an answer that came with its proof: a
    /// link pressed, a reply whose sender is proven), whose text then stands instead of
    /// the one waiting, which anyone who had the reply address could have sent.
    /// - Throws: ``ResponseInFlight``, recording nothing, while the same action's response
    ///   is being carried out.
    func record(_ response: StoredResponse, from inbound: InboundRecord?) throws -> Int64?

    /// The response recorded for a delivery and action, or nil: a text-input action pressed
    /// again is not asked for its text when its answer stands.
    func response(deliveryID: String, action: String) throws -> StoredResponse?

    /// Takes a response whose carrying out failed or was cut short (as in
    /// ``record(_:from:)``, by `now`) to carry it out again (now `carrying out`, taken at
    /// `now`, its result cleared) and returns it; nil when there is no such response, so
    /// that two retries carry it out once.
    func retake(response id: Int64, now: Instant) throws -> StoredResponse?

    /// Takes a response awaiting confirmation as confirmed (now `carrying out`, taken at
    /// `now`) and returns it; nil when none is awaiting for that delivery and action, so
    /// that two confirmations carry it out once.
    func confirm(deliveryID: String, action: String, now: Instant) throws -> StoredResponse?

    /// Sets where a recorded response stands once carried out, and what that gave.
    func finish(response id: Int64, status: String, result: String) throws

    /// How many of a recipient's delivered notifications no carried-out response has
    /// handled yet: the badge.
    func outstanding(recipient: String) throws -> Int

    /// Remembers that a chat message's thread (`thread`, e.g. Slack's `ts`) on `channel`
    /// shows the notification of the signed `token`.
    func rememberThread(channel: String, thread: String, token: String, at: Instant) throws

    /// The signed token a chat thread was remembered with, or nil.
    func threadToken(channel: String, thread: String) throws -> String?

    /// Records an inbound message that led to no response.
    func record(_ inbound: InboundRecord) throws

    /// Marks inbound messages answered, once their answer is queued or written: the same
    /// message delivered again (an MTA's retry, an IMAP message fetched again, a Maildir
    /// message read again after a kill) is then recorded, and not answered a second time.
    /// A message not recorded (yet) is not marked.
    func markAnswered(_ messages: [AnsweredMessage]) throws

    /// Whether an inbound message was marked answered (``markAnswered(_:)``).
    func answered(_ message: AnsweredMessage) throws -> Bool

    /// Responses oldest first: those whose id is above `after`, at most `count` of them
    /// (nil: all).
    func responses(after: Int64, count: Int?) throws -> [StoredResponse]

    /// Every inbound message, oldest first.
    func inbound() throws -> [InboundRecord]
}

extension ResponseStore {
    /// Every response, oldest first.
    public func responses() throws -> [StoredResponse] {
        try responses(after: 0, count: nil)
    }
}
