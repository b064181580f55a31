import Foundation
/// What every process of a deployment must agree on: the signing key, rate-limit turns, idempotent API answers, and the counts an operator watches.
public protocol CoordinationStore: Sendable {
    /// The key that signs reply tokens and action links: the one kept in the store, or
    /// `candidate` kept now when there is none yet (so every process agrees on one).
    func secretKey(keeping candidate: [UInt8]) throws -> [UInt8]

    /// True, and `name`'s turn taken at `at`, unless it was last taken less than `every`
    /// seconds before: a rate limit that holds across processes.
    func takeTurn(_ name: String, at: Instant, every seconds: Int64) throws -> Bool

    /// Moves `name`'s pace, shared by every process of the deployment, as `ask` says, and
    /// returns what it answers (``PaceAsk``). One transaction: of processes taking starts
    /// together, each gets its own. The step is the same in every store (``PaceState``).
    func pace(_ name: String, _ ask: PaceAsk) throws -> Int64

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

/// What a process asks of a channel's pace (``CoordinationStore/pace(_:_:)``). Times are
/// microseconds of the real clock, so that every process of the deployment, on any
/// machine, paces one channel together.
public enum PaceAsk: Equatable, Sendable {
    /// The next start at or after `earliest`: `spacing` after the last start taken (the
    /// spacing of the rate the asker follows now, so that a rate changed takes effect at
    /// once), and not before a pause ends. Taken (the last start from then on) when no
    /// later than `latest`; one later is returned and not taken, the pace left as it was
    /// for a caller that will not start then.
    case start(earliest: Int64, spacing: Int64, latest: Int64)
    /// No start before `until` (a server asked to wait); a pause never moves back.
    /// Returns the end of the pause kept.
    case pause(until: Int64)
    /// A start given was used only at `at` (the asker was held up): the next is spaced
    /// from then. Never moves the last start back; returns the one kept.
    case startedAt(Int64)
}

/// A channel's pace as a store keeps it, under `pace:<channel>` in `setting`: the last
/// start taken and the end of the last pause, decimal text (`"<last> <pause end>"`, `-`
/// for none). Each store reads it, locked for its transaction, answers with ``answer(_:)``
/// and writes back what that returns.
public struct PaceState: Equatable, Sendable {
    public var lastStart: Int64?
    public var pausedUntil: Int64?

    public init(lastStart: Int64? = nil, pausedUntil: Int64? = nil) {
        self.lastStart = lastStart
        self.pausedUntil = pausedUntil
    }

    /// From the text kept: anything else than the two numbers reads as a pace never
    /// asked, except one number alone, the next start as the first builds kept it, which
    /// holds as a pause until then.
    public init(text: String?) {
        let parts = text?.split(separator: " ", omittingEmptySubsequences: false) ?? []
        switch parts.count {
        case 1: self.init(pausedUntil: Int64(parts[0]))
        case 2: self.init(lastStart: Int64(parts[0]), pausedUntil: Int64(parts[1]))
        default: self.init()
        }
    }

    public var text: String {
        "\(lastStart.map(String.init) ?? "-") \(pausedUntil.map(String.init) ?? "-")"
    }

    /// What `ask` answers, and the state to keep: nil when it is unchanged.
    public func answer(_ ask: PaceAsk) -> (value: Int64, kept: PaceState?) {
        var next = self
        let value: Int64
        switch ask {
        case let .start(earliest, spacing, latest):
            let spaced = lastStart.map { $0.addingReportingOverflow(max(spacing, 0)) }.map { $0.overflow ? Int64.max : $0.partialValue }
            value = max(earliest, spaced ?? earliest, pausedUntil ?? earliest)
            guard value <= latest else { return (value, nil) }
            next.lastStart = value
        case let .pause(until):
            value = max(pausedUntil ?? until, until)
            next.pausedUntil = value
        case let .startedAt(at):
            value = max(lastStart ?? at, at)
            next.lastStart = value
        }
        return (value, next == self ? nil : next)
    }
}
