import ChimeCore
import ChimeCurl
import ChimeDelivery
import ChimeScheduler
import ChimeServer
import Foundation
import Logging
import ServiceLifecycle
import Synchronization

/// The cron work of `chime run`, `chime digest` and `chime fetch`, done by `chime serve`
/// itself as services of its group, through the same scheduler and intake those commands
/// use.
///
/// Firing wakes at the next instant something is due (the store's earliest pending fire,
/// quiet-hours hold, retry or group wait) and at least every minute; while it waits it
/// asks the store every second for its earliest due instant (an indexed `MIN`) and
/// whether a claim would take something now, so a request scheduled sooner by another
/// process (`chime schedule`), even one already due by this process's clock, is fired
/// at its instant too. Digests are looked at every minute on the minute (each recipient's goes
/// once its `digestAt` has come in their zone), IMAP mailboxes fetched every minute.
/// Each process claims what it fires, so any number of `serve` and `run` processes share
/// one store without sending anything twice.
struct Daemon: Sendable {
    let runtime: Runtime
    let store: any NotificationStore
    /// The configuration in force: read again on SIGHUP.
    let configuration: @Sendable () -> Configuration
    /// The time (with `--now`, running on from there).
    let clock: @Sendable () -> Date

    /// How many notifications one firing round takes at most: SIGTERM waits for the
    /// round in flight, and leaves the rest to the next process.
    static let roundSize = 100

    private var logger: Logger { Logger(label: "chime.serve") }

    /// Signalled by a firing round that queued something to send.
    let queued = Wakeup()
    /// Set with ``queued``'s signal, taken by the next sending round: what a firing round
    /// queued is due at its own start, which may be before the sending round's.
    let handedOver = Flag()

    /// Wakes ``firing`` for sooner work: the store's signal, or a reload.
    let firingWakeup = Wakeup()
    /// Set by ``configurationReloaded()``, taken by the firing wait, which then starts a
    /// round at once.
    let reloaded = Flag()

    /// A SIGHUP put a new configuration in force: firing starts a round at once, which
    /// moves the floating requests of recipients whose zone changed (a reminder that moved
    /// earlier waited for the next minute's round) and fires what became due.
    func configurationReloaded() {
        reloaded.set()
        firingWakeup.signal()
    }

    /// When ``sending`` and ``digests`` were told to stop (SIGTERM; sending once firing
    /// has stopped).
    let sendingStop = StopRequest(), digestsStop = StopRequest()

    /// How long sending goes on once the stop reaches it, its last round included (for
    /// what firing's last round queued, unless older retries due take that time): what was
    /// handed to the connections by then goes; what was not stays queued, its claims given
    /// back at once, for the next process. A backlog of retries to a slow relay held up the
    /// stop until all of it was sent (at ten a second, 5,000 took more than systemd's 150 s
    /// and ended in SIGKILL). A digest round's sending stops as long after the stop reaches
    /// it.
    static let sendingAfterStop: Duration = .seconds(10)

    /// Sending first: a group stops its services last to first, so it stops after firing,
    /// and sends what firing's last round queued (for ``sendingAfterStop`` at most).
    var services: [any Service] { [sending, firing, digests, mail] }

    /// Hands what was queued to ``sending`` at once.
    private func handOver() {
        handedOver.set()
        queued.signal()
    }

    /// Fires what is due, as `chime run` does, leaving what it queues for the network to
    /// ``sending``: a round waiting for emails to a slow relay held up every reminder due
    /// meanwhile, to a Maildir or chat as well. A
    /// store that hears of sooner work at once (PostgreSQL's NOTIFY from any process)
    /// wakes it without waiting for the next second's check.
    ///
    /// While it waits it also asks whether a claim would take something now: a request
    /// added after the round with an instant already past (`chime schedule` on a machine
    /// whose clock is behind, a recipient moved to an earlier zone) is due at no instant
    /// after the round, and would otherwise wait for the next minute. After a round that
    /// failed it does not, so a failing store or file is tried again a minute on rather
    /// than every second.
    var firing: RecurringWork {
        let wakeup = firingWakeup
        (store as? any SoonerDueSignalling)?.onSoonerDue { wakeup.signal() }
        // Whether the last round failed, set by the round and read by the waits.
        let lastRoundFailed = Flag()
        return RecurringWork(name: "firing", clock: clock, round: { now in
            do {
                var scheduler = try makeScheduler()
                // Held ones wait a minute, as from cron, rather than fill every round.
                scheduler.heldRetry = 60
                let report = try scheduler.run(now: now, clock: { Instant(clock()) }, limit: Self.roundSize, sending: false)
                lastRoundFailed.set(false)
                if report.fired > 0 || !report.groupsSent.isEmpty { handOver() }
                // A full round may have left more due: the next one starts at once. Thread
                // groups held (no address takes them) are tried each round whatever its
                // size, and do not make it full: they would have it start again at once.
                if report.fired + report.postponed + report.held.count - report.groupsHeld >= Self.roundSize { return now }
                return try scheduler.nextWakeUp(after: now)
            } catch {
                lastRoundFailed.set(true)
                logger.error("firing failed, tried again within a minute: \(configuration().redact("\(error)"))")
                return nil
            }
        }, sooner: { [reloaded] last in
            let now = Instant(clock())
            if reloaded.take() { return now }
            if !lastRoundFailed.isSet, (try? store.hasClaimableDue(now: now, limits: configuration().pendingLimits)) == true { return now }
            return try? store.earliestDue(after: last)
        }, wakeup: wakeup)
    }

    /// Sends the outbox and its retries, as `chime run` does after firing: at once when a
    /// firing round or a fetch queued something, else when the store's earliest due
    /// instant (a retry, or anything queued meanwhile by another process, a press or a
    /// reply: in the second the last round started, too) has come, asked every second,
    /// and at least every minute. Deliveries it left untried (their server could not be
    /// reached) wait for that minute.
    var sending: RecurringWork {
        RecurringWork(name: "sending", clock: clock, round: { now in
            // What was handed over until now, this round sends.
            _ = handedOver.take()
            do {
                let scheduler = try makeScheduler()
                let report = try scheduler.send(now: now, clock: { Instant(clock()) }, keepsSending: { [sendingStop] in sendingStop.allows })
                if report.cutShort { logger.notice(Self.cutShort("sending", report)) }
            } catch {
                logger.error("sending failed, tried again within a minute: \(configuration().redact("\(error)"))")
            }
            return nil
        }, sooner: { last in
            // Looked at, not taken: the round takes it, or the last round once told to
            // stop. Taken here, a hand-over just before the stop (firing's last round
            // queued an email) started no round, and the email waited for the next process.
            if handedOver.isSet { return Instant(clock()) }
            return try? store.earliestDue(after: Instant(seconds: last.seconds - 1))
        }, wakeup: queued, lastRound: { handedOver.take() }, stopping: { [sendingStop] in sendingStop.ask() })
    }

    /// What is logged when a pass's sending was stopped (``sendingAfterStop``).
    static func cutShort(_ what: String, _ report: Courier.Report) -> Logger.Message {
        "\(what) stopped: what is not sent yet stays queued for the next process (\(report.stopped) claimed and given back)"
    }

    /// When a work was told to stop, for its rounds to end their sending
    /// ``sendingAfterStop`` later.
    final class StopRequest: Sendable {
        private let asked = Mutex<ContinuousClock.Instant?>(nil)

        /// Notes the request, once.
        func ask() { asked.withLock { $0 = $0 ?? .now } }

        /// Whether sending goes on: always until the request, then for ``sendingAfterStop``.
        var allows: Bool {
            guard let asked = asked.withLock({ $0 }) else { return true }
            return .now - asked < Daemon.sendingAfterStop
        }
    }

    /// A mark one round or service sets and another reads or takes.
    final class Flag: Sendable {
        private let state = Mutex(false)
        func set(_ value: Bool = true) { state.withLock { $0 = value } }
        var isSet: Bool { state.withLock { $0 } }
        /// Whether it was set, clearing it.
        func take() -> Bool { state.withLock { was in defer { was = false }; return was } }
    }

    /// A scheduler of the configuration in force, which logs what it cannot send (no one
    /// reads the daemon's reports: ``Scheduler/logsProblems``).
    func makeScheduler() throws -> Scheduler {
        var scheduler = try runtime.scheduler(configuration: configuration(), store: store)
        scheduler.logsProblems = true
        return scheduler
    }

    /// Sends each recipient's digest once its time has come, as `chime digest` does.
    var digests: RecurringWork {
        RecurringWork(name: "digest", clock: clock, round: { now in
            do {
                let scheduler = try makeScheduler()
                let report = try scheduler.digest(now: now, clock: { Instant(clock()) }, keepsSending: { [digestsStop] in digestsStop.allows })
                if report.delivery.cutShort { logger.notice(Self.cutShort("the digests' sending", report.delivery)) }
                for (recipient, count) in report.sent {
                    logger.info("digest sent", metadata: ["recipient.id": .string(recipient), "digest.count": .stringConvertible(count)])
                }
            } catch {
                logger.error("digests not sent, tried again in a minute: \(configuration().redact("\(error)"))")
            }
            return Instant(seconds: (now.seconds / 60 + 1) * 60)
        }, stopping: { [digestsStop] in digestsStop.ask() })
    }

    /// Takes the replies waiting in each IMAP mailbox, as `chime fetch` does.
    var mail: RecurringWork {
        RecurringWork(name: "fetch", clock: clock, round: { now in
            let configuration = configuration()
            let channels = configuration.channels.filter { $0.url.kind.isInbound }
            guard !channels.isEmpty, let intake = try? MailIntake(runtime, configuration: configuration, store: store) else { return nil }
            for channel in channels {
                do {
                    // Each reply taken is logged by the intake.
                    try intake.fetch(from: channel) { _ in }
                } catch let error as CurlError {
                    logger.warning("\(channel.id): \(configuration.redact(error.description))", metadata: ["channel.id": .string(channel.id)])
                } catch {
                    // Said by the intake; the message is left unseen for the next minute.
                }
            }
            // Answers to the replies taken go at once.
            handOver()
            return now + 60
        })
    }
}
