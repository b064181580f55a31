/// What a store keeps of work that is over, and forgetting it (`chime store prune`): the
/// deliveries delivered, with their attempts; the inbound messages and what became of
/// them; the responses; the chat threads remembered; the digests and thread groups sent,
/// with the notifications each held. Each grows by every message sent or answered. What
/// a forgotten row was still used for is kept otherwise, or was over:
/// - the tokens that name these rows (a reply's, a link's, a chat button's or thread's)
///   expire 30 days after their notification fired, and rows are forgotten only past 31
///   days: no answer can find a row missing;
/// - a delivery answered is flagged so on the delivered list before its response goes,
///   so that the count of what is still open does not rise;
/// - the newest row of each table with ids stays, so that forgetting never makes SQLite
///   give a new row the id of one forgotten (a poller of `GET /v1/responses?after=ID`
///   would miss it);
/// - deliveries that failed stay (dead letters, until `chime retry` or by hand), and so
///   do queued ones, pending requests and the delivered list (`chime remove` takes
///   notifications off it);
/// - a digest or thread group not yet sent stays, with what it holds; one sent is only
///   asked whether its slot has had its digest, and a slot is the last day's.
/// A response cut short or awaiting confirmation that long ago is over too: its tokens
/// expired, and `chime respond --retry` of it would find its hook's deliveries gone.
public protocol HistoryStore: Sendable {
    /// Forgets the history from before `cutoff` (a delivery by when it was queued, a
    /// digest or thread group by when it was sent, the rest by when they were recorded or
    /// last taken); with `dryRun`, counts what it would forget and forgets nothing. In
    /// transactions of about ``ForgottenHistory/batch`` rows (fewer of a kind whose rows
    /// take many others with them), each from where the last one ended (SQLite by rowid,
    /// PostgreSQL by a window of the table's pages), so that firing and sending go on
    /// beside it and the whole costs one read of each table.
    func forgetHistory(before cutoff: Instant, dryRun: Bool) throws -> ForgottenHistory
}

/// How many of each kind ``HistoryStore/forgetHistory(before:dryRun:)`` forgot.
public struct ForgottenHistory: Equatable, Sendable, Encodable {
    /// Deliveries delivered, each with its attempts.
    public var deliveries = 0
    /// Inbound messages (replies, bounces, auto-replies) and what became of them.
    public var inbound = 0
    /// Responses, whatever became of them.
    public var responses = 0
    /// Chat threads remembered with the token of the notification they show.
    public var threads = 0
    /// Digests and thread groups sent, each with the notifications it held (a recipient's
    /// daily digest is recorded when its slot comes, sent or found empty).
    public var digests = 0

    public init(deliveries: Int = 0, inbound: Int = 0, responses: Int = 0, threads: Int = 0, digests: Int = 0) {
        (self.deliveries, self.inbound, self.responses, self.threads, self.digests) = (deliveries, inbound, responses, threads, digests)
    }

    /// One kind of row forgotten: its table, what selects the rows (its one argument, the
    /// cutoff's seconds, written `?`), its count, and what goes with each row.
    public struct Kind: Sendable {
        public var table: String
        public var condition: String
        public var count: WritableKeyPath<ForgottenHistory, Int> & Sendable
        /// Whether its rows have ids (`id`, SQLite's rowid) that are shown: then the
        /// table's newest row is kept, so that SQLite gives no forgotten id again.
        public var hasIDs = true
        /// The rows of other tables that name a row of this one, forgotten with it.
        public var dependents: [Dependent] = []
        /// Whether a delivery whose carried-out response is forgotten is first flagged
        /// answered on the delivered list (what `outstanding` would otherwise read from the
        /// response).
        public var flagsAnswered = false
        /// Its rows forgotten in one transaction: fewer than ``ForgottenHistory/batch``
        /// when each takes many dependents with it.
        public var rowsAtATime = ForgottenHistory.batch
    }

    /// Rows of `table` whose `columns` (one, or a row value such as `(a, b)`) hold the
    /// `key` (the same number of columns) of a row forgotten.
    public struct Dependent: Sendable {
        public var table: String
        public var columns: String
        public var key: String

        /// The statement that forgets them, given what selects the rows forgotten
        /// (`rowid IN (…)` on SQLite, a list of `ctid`s on PostgreSQL): by an index of
        /// `table` that starts with `columns`.
        public func forgetting(of kind: Kind, rows: String) -> String {
            "DELETE FROM \(table) WHERE \(columns) IN (SELECT \(key) FROM \(kind.table) WHERE \(rows))"
        }
    }

    /// Every kind, in the order they are forgotten.
    public static var kinds: [Kind] {
        [
            Kind(table: "outbox", condition: "state = '\(DeliveryState.delivered.rawValue)' AND queued_at < ?", count: \.deliveries,
                 dependents: [Dependent(table: "attempt", columns: "outbox_id", key: "id"),
                              Dependent(table: "outbox_body", columns: "outbox_id", key: "id")]),
            Kind(table: "inbound", condition: "at < ?", count: \.inbound),
            Kind(table: "response", condition: "at < ?", count: \.responses, flagsAnswered: true),
            Kind(table: "chat_thread", condition: "at < ?", count: \.threads, hasIDs: false),
            // Sent (an unsent one has no `sent_at`, and `NULL < ?` holds for no row); its
            // notifications are parked under its id, by the index on (recipient, digest):
            // a few, or a hundred for a busy day's digest, so fewer at a time.
            Kind(table: "batch", condition: "sent_at < ?", count: \.digests, hasIDs: false,
                 dependents: [Dependent(table: "parked", columns: "(recipient, digest)", key: "recipient, id")], rowsAtATime: 50),
        ]
    }

    /// The statement that flags answered the deliveries of the carried-out responses
    /// among the `rows` of `response` about to be forgotten (selected as for
    /// ``Dependent/forgetting(of:rows:)``).
    public static func flaggingAnswered(rows: String) -> String {
        """
        UPDATE delivered SET answered = 1 WHERE answered = 0 AND delivery_id IN
            (SELECT delivery_id FROM response WHERE \(rows) AND status = '\(StoredResponse.carriedOut)')
        """
    }

    /// Rows forgotten in one transaction.
    public static let batch = 1_000
}
