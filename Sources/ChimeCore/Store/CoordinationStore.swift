import Foundation
/// What every process of a deployment must agree on: the signing key, rate-limit turns, idempotent API answers, and the counts an operator watches.
public protocol CoordinationStore: Sendable {
    /// The key that signs reply tokens and action links: the one kept in the store, or
    /// `candidate` kept now when there is none yet (so every process agrees on one).
    func secretKey(keeping candidate: [UInt8]) throws -> [UInt8]

    /// True, and `name`'s turn taken at `at`, unless it was last taken less than `every`
    /// seconds before: a rate limit that holds across processes.
    func takeTurn(_ name: String, at: Instant, every seconds: Int64) throws -> Bool

    /// The next start `name`'s pace allows at or after `earliest`, taken when it is no
    /// later than `latest`: the start after it is then `spacing` later. One later than
    /// `latest` is returned and not taken (the pace does not move for a caller that will
    /// not start then). Times are microseconds of the real clock, so that every process of
    /// the deployment, on any machine, paces one channel together. With a `spacing` of 0,
    /// a pause: no start is given before `earliest` from then on. One transaction: of
    /// processes taking starts together, each gets its own.
    func paceStart(_ name: String, earliest: Int64, spacing: Int64, latest: Int64) throws -> Int64

    /// The first answer given to an HTTP API call with this `Idempotency-Key` (scoped by
    /// `owner`, the API key's id), or nil; ``IdempotentAnswer/isPending`` while the call
    /// that took the key is being answered.
    func idempotentAnswer(owner: String, key: String) throws -> IdempotentAnswer?

    /// Takes `owner`'s `key` for a call about to be answered (its body's `digest`), unless
    /// another call holds it: nil when this call took it, and then answers and keeps its
    /// answer (``keepIdempotentAnswer(_:owner:key:at:)``) or gives the key back
    /// (``releaseIdempotencyKey(owner:key:)``); else what is kept, the first answer or
    /// one ``IdempotentAnswer/isPending`` while the other call is answered. A key taken
    /// at least `abandonedAfter` seconds before `at` and neither kept nor given back (its
    /// process died) is taken again. One statement: of calls arriving together, one takes it.
    func takeIdempotencyKey(owner: String, key: String, digest: String, at: Instant, abandonedAfter: Int64) throws -> IdempotentAnswer?

    /// Keeps `answer` as the one to replay for `owner`'s `key`, in place of the call's hold
    /// on it, unless an answer is already kept; returns the one kept (the first). Answers
    /// kept ``IdempotentAnswer/keptFor`` before `at` are forgotten, and so are holds taken
    /// or renewed that long before: a hold is taken over once abandoned, after far less
    /// than a day, so one that old is a call whose process died and that no one asked for
    /// again (left, such holds would pile up for ever).
    func keepIdempotentAnswer(_ answer: IdempotentAnswer, owner: String, key: String, at: Instant) throws -> IdempotentAnswer

    /// Gives back a key taken by a call that could not be answered, so that its retry
    /// takes it again; a kept answer stays. With `digest`, only while the key is held with
    /// that digest (a hold taken over by another is theirs).
    func releaseIdempotencyKey(owner: String, key: String, digest: String?) throws

    /// Moves the time of a hold on `owner`'s `key`, taken with `digest`, to `at` (its work
    /// goes on); false when it is not held with that digest any more (taken over as
    /// abandoned, or given back).
    func renewIdempotencyKey(owner: String, key: String, digest: String, at: Instant) throws -> Bool

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

extension CoordinationStore {
    /// Holds `name` for this process alone, across every process of the deployment,
    /// unless another holds it: true when this call took it. A hold not given back
    /// (``letGo(_:)``) within `abandonedAfter` seconds of `at` (its process died) is taken
    /// again. Made of the idempotency keys' holds, which one statement takes (of callers
    /// arriving together, one gets it), under an owner no API key can have: XML 1.0, in
    /// which keys are configured, has no U+0001.
    /// - Returns: the hold's own token, which ``renew(_:token:at:)`` and
    ///   ``letGo(_:token:)`` take; nil when another holds it.
    public func hold(_ name: String, at: Instant, abandonedAfter: Int64) throws -> String? {
        let token = UUID().uuidString
        return try takeIdempotencyKey(owner: Self.holdOwner, key: name, digest: token, at: at, abandonedAfter: abandonedAfter) == nil ? token : nil
    }

    /// Keeps a hold ``hold(_:at:abandonedAfter:)`` took from being taken as abandoned,
    /// counting from `at`; false when it is not this one's any more (another process took
    /// it over: its work must stop).
    public func renew(_ name: String, token: String, at: Instant) throws -> Bool {
        try renewIdempotencyKey(owner: Self.holdOwner, key: name, digest: token, at: at)
    }

    /// Gives back a hold ``hold(_:at:abandonedAfter:)`` took, unless another process has
    /// taken it over since.
    public func letGo(_ name: String, token: String) throws {
        try releaseIdempotencyKey(owner: Self.holdOwner, key: name, digest: token)
    }

    private static var holdOwner: String { "\u{1}hold" }
}

/// One step of a channel's shared pace (``CoordinationStore/paceStart(_:earliest:spacing:latest:)``),
/// the same in every store: each reads the value kept (decimal text), locked for its
/// transaction, and writes back ``kept`` when there is one.
public struct PaceStep: Equatable, Sendable {
    /// The start given.
    public let start: Int64
    /// The value to keep, as decimal text; nil when the start is not taken (past `latest`).
    public let kept: String?

    /// `stored`: the value kept, or nil; one that is not a number counts as long ago.
    public init(stored: String?, earliest: Int64, spacing: Int64, latest: Int64) {
        start = max(stored.flatMap { Int64($0) } ?? earliest, earliest)
        guard start <= latest else { kept = nil; return }
        let (next, overflow) = start.addingReportingOverflow(max(spacing, 0))
        kept = String(overflow ? .max : next)
    }
}
