/// What every process of a deployment must agree on: the signing key, rate-limit turns, idempotent API answers, and the counts an operator watches.
public protocol CoordinationStore: Sendable {
    /// The key that signs reply tokens and action links: the one kept in the store, or
    /// `candidate` kept now when there is none yet (so every process agrees on one).
    func secretKey(keeping candidate: [UInt8]) throws -> [UInt8]

    /// True, and `name`'s turn taken at `at`, unless it was last taken less than `every`
    /// seconds before: a rate limit that holds across processes.
    func takeTurn(_ name: String, at: Instant, every seconds: Int64) throws -> Bool

    /// The first answer given to an HTTP API call with this `Idempotency-Key` (scoped by
    /// `owner`, the API key's id), or nil.
    func idempotentAnswer(owner: String, key: String) throws -> IdempotentAnswer?

    /// Keeps `answer` as the one to replay for `owner`'s `key`, unless one is already
    /// kept; returns the one kept (the first).
    func keepIdempotentAnswer(_ answer: IdempotentAnswer, owner: String, key: String, at: Instant) throws -> IdempotentAnswer

    /// Counts of what waits and what failed, as of `now`, read in one transaction.
    func gauges(now: Instant) throws -> StoreGauges

    /// Whether a run at `now` could do anything, and the configuration last followed: one
    /// read, made before the configuration is (``RunOutlook``).
    func runOutlook(now: Instant) throws -> RunOutlook

    /// Keeps `fingerprint` as the configuration whose recipients' zones the floating
    /// requests now follow (written only when it changed), in one transaction with a
    /// check of `zones` (recipient → zone): when another process has moved a recipient
    /// the store knows elsewhere meanwhile (with another configuration), nothing is kept.
    /// Moving a recipient and adding one to the store forget what was kept.
    func keepFollowedConfiguration(_ fingerprint: String, zones: [String: String]) throws
}
