import ChimeCore

/// The due notifications a run fires, claimed a batch at a time under the run's lease,
/// the next batch claimed on a thread of its own while one is fired: the store's work
/// (PostgreSQL's on its server) beside the rendering, not after it.
///
/// A batch claimed ahead is marked a batch later than it was claimed, so its lease must
/// last two batches: it is claimed ahead only while a batch takes less than a quarter of
/// the lease (else another worker, or this run's next claim, could take it back as
/// expired before it is marked), and so not during the first. With pending limits, never:
/// settling a batch lets later requests into a window, so the next claim waits for it.
struct DueBatches {
    private let claim: @Sendable (Int) throws -> ClaimedDue
    private let batchSize: Int
    private let lease: Duration
    private let mayClaimAhead: Bool
    /// How many the run may still claim (`--limit`).
    private var remaining: Int
    private var claimingNext: OnItsOwnThread<ClaimedDue>?
    private var batchStart: ContinuousClock.Instant?
    /// How long the last batch took from its claim to its settling.
    private var lastBatch: Duration?

    init(store: any PendingStore, now: Instant, claimer: Claimer, clock: @escaping @Sendable () -> Instant,
         batchSize: Int, lease: Int64, limits: [String: Int], limit: Int?) {
        claim = { count in
            let leaseStart = clock()
            return try store.claimDueRows(now: now, limit: min(batchSize, count), claimer: claimer, leaseNow: leaseStart,
                                          leaseUntil: leaseStart + lease, limits: limits)
        }
        self.batchSize = batchSize
        self.lease = .seconds(lease)
        mayClaimAhead = limits.isEmpty
        remaining = limit ?? Int.max
    }

    /// The next batch, the one claimed ahead if there is one; empty once nothing more is
    /// due or the run's limit is reached.
    mutating func next() throws -> ClaimedDue {
        guard remaining > 0 else { return ClaimedDue() }
        batchStart = .now
        let ahead = claimingNext
        claimingNext = nil
        let claimed = try ahead?.wait() ?? claim(remaining)
        remaining -= claimed.count
        if mayClaimAhead, claimed.count == batchSize, remaining > 0, let lastBatch, lastBatch * 4 < lease {
            let (claim, count) = (claim, min(batchSize, remaining))
            claimingNext = OnItsOwnThread {
                // In a few transactions rather than one: the firing thread writes its
                // marks in between instead of waiting for the whole batch's claim (SQLite
                // has one writer; with one claim of 500, `perf trace` showed it waiting
                // 2 to 15 ms a batch).
                var claimed = ClaimedDue()
                while claimed.count < count {
                    let asked = min(Self.claimAheadChunk, count - claimed.count)
                    let part = try claim(asked)
                    claimed.append(contentsOf: part)
                    if part.count < asked { break }
                }
                return claimed
            }
        }
        return claimed
    }

    /// How many notifications each transaction of a claim ahead takes.
    static let claimAheadChunk = 100

    /// The batch ``next()`` gave is marked and settled.
    mutating func settled() {
        lastBatch = batchStart.map { .now - $0 }
    }

    /// Waits for a batch still being claimed ahead, so that every claim of the run is in
    /// the store before the run gives its claims back, whatever ends it.
    mutating func finish() {
        _ = try? claimingNext?.wait()
        claimingNext = nil
    }
}
