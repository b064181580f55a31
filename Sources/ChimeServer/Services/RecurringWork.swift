import ChimeCore
import Foundation
import ServiceLifecycle

/// Blocking work that `chime serve` does again and again (firing what is due, digests,
/// fetching mail), as a service: each round runs on a Dispatch queue of its own, so store
/// calls and libcurl transfers never hold Swift's shared threads; the next round starts
/// at the instant the round asked for, at the latest `longest` seconds after it started,
/// or sooner when `sooner` (asked every `recheck` seconds while waiting) finds something
/// due before then. On graceful shutdown (SIGTERM) the round in flight finishes (told by
/// `stopping`, it may cut its work short) and no other starts.
public struct RecurringWork: Service {
    /// What the work is called: its queue's label, `chime.NAME`.
    public let name: String
    private let clock: @Sendable () -> Date
    private let longest: TimeInterval
    private let recheck: TimeInterval
    private let round: @Sendable (Instant) -> Instant?
    private let sooner: (@Sendable (Instant) -> Instant?)?
    private let wakeup: Wakeup?
    private let lastRound: (@Sendable () -> Bool)?
    private let stopping: (@Sendable () -> Void)?

    /// - Parameters:
    ///   - name: what the work is called.
    ///   - clock: the time (`chime serve --now` runs on from another instant).
    ///   - longest: the most seconds between the starts of two rounds.
    ///   - recheck: how often `sooner` is asked while waiting, in seconds.
    ///   - round: one round, given the instant it started; returns when the next is
    ///     wanted (an instant already past: at once; nil: after `longest`). It handles
    ///     its own errors.
    ///   - sooner: given the instant the last round started, the earliest instant
    ///     something is due now; cheap, as it is asked every `recheck` seconds.
    ///   - wakeup: when signalled, `sooner` is asked at once instead of at the next recheck.
    ///   - lastRound: asked once the work is told to stop gracefully; true: one more round
    ///     first (work handed to it by services stopped before it).
    ///   - stopping: called when the work is told to stop (gracefully, or cancelled), from
    ///     another thread than the round's, which may be running.
    public init(name: String, clock: @escaping @Sendable () -> Date = { Date() }, longest: TimeInterval = 60, recheck: TimeInterval = 1,
                round: @escaping @Sendable (Instant) -> Instant?, sooner: (@Sendable (Instant) -> Instant?)? = nil, wakeup: Wakeup? = nil,
                lastRound: (@Sendable () -> Bool)? = nil, stopping: (@Sendable () -> Void)? = nil) {
        self.name = name
        self.clock = clock
        self.longest = longest
        self.recheck = recheck
        self.round = round
        self.sooner = sooner
        self.wakeup = wakeup
        self.lastRound = lastRound
        self.stopping = stopping
    }

    public func run() async throws {
        let queue = DispatchQueue(label: "chime.\(name)")
        await withTaskCancellationOrGracefulShutdownHandler {
            await rounds(on: queue)
        } onCancelOrGracefulShutdown: { [stopping] in
            stopping?()
        }
        if !Task.isCancelled, lastRound?() == true {
            let instant = Instant(clock())
            _ = await Self.on(queue) { round(instant) }
        }
    }

    /// Rounds until the work is told to stop.
    private func rounds(on queue: DispatchQueue) async {
        while !Task.isShuttingDownGracefully, !Task.isCancelled {
            let started = clock()
            let instant = Instant(started)
            let asked = await Self.on(queue) { round(instant) }
            var next = min(asked?.date ?? .distantFuture, started.addingTimeInterval(longest))
            // The wait is bounded on the monotonic clock too: a wall clock stepped back (an
            // NTP correction, a virtual machine restored) had the next round wait for as
            // long as the step, an hour's step an hour without digests or IMAP fetching.
            // A clock gone back past the round's start starts the next round at once, as
            // the instants it asked for may be anything now.
            let deadline = ContinuousClock.now + .seconds(longest)
            while next > clock(), clock() >= started, ContinuousClock.now < deadline {
                let nap = min(next.timeIntervalSince(clock()), recheck)
                do {
                    try await cancelWhenGracefulShutdown {
                        if let wakeup { await wakeup.wait(upTo: nap) } else { try await Task.sleep(for: .seconds(nap)) }
                    }
                } catch {
                    return
                }
                if Task.isShuttingDownGracefully || Task.isCancelled { return }
                if let sooner, next > clock(), let due = await Self.on(queue, { sooner(instant) })?.date, due < next {
                    next = due
                }
            }
        }
    }

    /// Runs `work` on `queue` and waits for it without holding a shared thread.
    private static func on<T: Sendable>(_ queue: DispatchQueue, _ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            queue.async { continuation.resume(returning: work()) }
        }
    }
}
