import ChimeCore
import ChimeCurl
import Foundation
import Logging

/// Sends what the outbox holds: claims due deliveries, sends them (emails and webhooks
/// many at once through libcurl's multi interface, within each channel's concurrency and
/// rate, an SMTP connection reused from one message to the next), and records every
/// attempt: delivered only once the server took it, else queued for a retry with backoff,
/// or failed.
public final class Courier {
    /// What one pass over the outbox did.
    public struct Report: Sendable {
        public var delivered = 0
        /// Deliveries that failed for now, each with why and when it is tried again.
        public var retrying: [String] = []
        /// Deliveries that gave up, each with why.
        public var failed: [String] = []
        /// Deliveries left untried because their channel could not be reached this run.
        public var deferred = 0
        /// Deliveries left untried because their channel's server asked to wait longer than
        /// its `maxWait` (a 429's `Retry-After`, a drained rate-limit bucket).
        public var waitingPastRun = 0
        /// Deliveries left untried because their channel's rate, paced across every
        /// process sharing the store, had no start for them within its `maxWait`.
        public var waitingForPace = 0
        /// Deliveries claimed and left untried because the pass was told to stop
        /// (``Courier/keepsSending``: `chime serve` stopping).
        public var stopped = 0
        /// Whether the pass was told to stop: what it did not claim stays queued too.
        public var cutShort = false

        /// Deliveries left untried for a later run, for any of these reasons.
        public var notTried: Int { deferred + waitingPastRun + waitingForPace + stopped }

        public init() {}
    }

    public let configuration: Configuration
    public let store: any OutboxStore
    /// How long a claim holds before another process may take a delivery up.
    public var lease: Int64 = 600
    /// How many deliveries one claim takes.
    public var batchSize = 500
    /// The token of an email's VERP envelope sender (``Channel/returnPathParts``),
    /// from its delivery id, recipient, address and now; nil (or none) sends from the
    /// channel's own address.
    public var returnPathToken: (@Sendable (String, String, String, Instant) -> String?)?
    /// Where each delivery's end is told (info: delivered, to retry, gave up), named by
    /// its request, recipient and channel.
    public var logger = Logger(label: "chime.courier")
    /// The level a delivery given up is logged at: info where a command prints it, error in
    /// the daemon (``Scheduler/logsProblems``).
    public var gaveUpLevel: Logger.Level = .info
    /// Reads the email addresses a hard bounce marked (``Mailbox/key(of:)``): nothing is
    /// sent to them, whatever queued it (a retry, `chime retry`, an answer, an opt-in
    /// request, a digest); each such delivery fails saying why, kept for `chime retry` once
    /// the mark is lifted. Read once a pass, when it first claims an email (``BounceMarks``):
    /// a cron tick with nothing to send asks the store nothing more.
    public var undeliverable: () throws -> Set<String> = { [] }
    /// This pass's marks, read by ``undeliverable`` once needed.
    var marked = BounceMarks { [] }
    /// Where the channels with a `rate` take each start, so that every process sharing the
    /// store (workers, a run beside a digest pass, one cron tick and the next) stays within
    /// it together, and learn of a pause a server asked of one of them; nil: each pass
    /// paces its own requests alone.
    public var sharedPace: (any CoordinationStore)?
    /// Asked before each claim and each time the pass is about to start deliveries: false
    /// stops the pass, what the connections are sending finishing (an email, and the next
    /// each had already taken up, its envelope sent ahead with PIPELINING) and the rest of
    /// its claims left untried (``Report/stopped``; the emails waiting in the pool for a
    /// connection taken back), for the caller to give back. `chime serve` stops so once
    /// SIGTERM has left its sending and digests a while to finish; `chime run` never does.
    public var keepsSending: () -> Bool = { true }

    // The state of one ``deliver(now:claimer:clock:alongside:)``, shared by its parts.
    var random = SystemRandomNumberGenerator()
    /// When the pass began: attempts are recorded at `now` plus the time since.
    var started = ContinuousClock.now
    var now = Instant(seconds: 0)
    var claimer: Claimer?
    var report = Report()
    /// Channels that could not be connected to: their other deliveries wait for a later run.
    var unreachable: Set<String> = []

    public init(configuration: Configuration, store: any OutboxStore) {
        self.configuration = configuration
        self.store = store
    }

    /// Starts ``deliver(now:claimer:clock:alongside:)`` on a thread of its own, so that
    /// sending (mostly waiting for servers) overlaps the firing loop's rendering and
    /// queuing; returns the function that waits for its report.
    public func deliverInBackground(now: Instant, claimer: Claimer, clock: @escaping @Sendable () -> Instant,
                                    alongside progress: FiringProgress) -> () throws -> Report {
        nonisolated(unsafe) let courier = self
        let sending = OnItsOwnThread { try courier.deliver(now: now, claimer: claimer, clock: clock, alongside: progress) }
        return { try sending.wait() }
    }

    /// Sends every delivery due at `now`. What it leaves claimed (deliveries of channels
    /// it could not reach) the caller gives back when its run ends.
    /// - Parameters:
    ///   - now: the run's instant (`--now`, else the clock): retries due by then are sent.
    ///   - clock: the real time, for claims' leases.
    ///   - progress: the firing loop queuing beside it: keep taking up what it queues
    ///     until it is finished; nil when nothing is being fired.
    public func deliver(now: Instant, claimer: Claimer, clock: () -> Instant, alongside progress: FiringProgress? = nil) throws -> Report {
        self.now = now
        self.claimer = claimer
        started = .now
        report = Report()
        unreachable = []
        marked = BounceMarks(read: undeliverable)
        // One multi handle for the whole pass: its connections stay open between batches.
        var pool: HTTPPool?
        // How many to claim: about a second of sending at the pace of the last batch, from
        // 16 to batchSize. Against a slow relay a claim stays small, so other workers
        // take up the rest rather than wait while this one sends a long batch (and a lease
        // need cover only seconds of sending); against a fast one it grows at once.
        var limit = min(64, batchSize)
        while goesOn() {
            // Read before claiming: what was queued before the end is then claimed.
            let firing = !(progress?.isFinished ?? true)
            let leaseStart = clock()
            let claimed = try store.claimOutbox(now: now, limit: limit, claimer: claimer, leaseNow: leaseStart, leaseUntil: leaseStart + lease)
            if claimed.isEmpty {
                guard firing else { break }
                progress?.pause()
                continue
            }
            var network: [OutboxDelivery] = []
            network.reserveCapacity(claimed.count)
            for entry in claimed {
                guard let channel = configuration.channel(entry.channel), !channel.url.kind.isLocal else {
                    let verdict = Verdict(outcome: .temporary, code: 0, message: "channel \"\(entry.channel)\" is not in the configuration")
                    _ = try settle(entry, verdict, policy: DeliveryPolicy())
                    continue
                }
                if try marked.contains(entry.address, on: channel) {
                    let verdict = Verdict(outcome: .permanent, code: 0, message: "not sent: the address is marked undeliverable (a hard bounce); "
                                          + "chime recipients --clear lifts the mark, then chime retry sends it")
                    _ = try settle(entry, verdict, policy: DeliveryPolicy())
                    continue
                }
                network.append(entry)
            }
            let sending = ContinuousClock.now
            if !network.isEmpty {
                let transfers = try pool ?? HTTPPool()
                pool = transfers
                try send(network, pool: transfers)
            }
            if claimed.count < limit && !firing { break }
            let rate = Double(claimed.count) / max(Self.seconds(.now - sending), 0.001)
            limit = min(batchSize, max(16, Int(rate)))
        }
        return report
    }

    /// Whether the pass goes on (``keepsSending``); once it does not, noted in the report
    /// (``Report/cutShort``) and not asked again.
    func goesOn() -> Bool {
        if !report.cutShort, !keepsSending() { report.cutShort = true }
        return !report.cutShort
    }

    /// A duration in seconds.
    public static func seconds(_ duration: Swift.Duration) -> Double {
        let parts = duration.components
        return Double(parts.seconds) + Double(parts.attoseconds) / 1e18
    }
}
