import ChimeCore
import ChimeDelivery
import Metrics

extension Scheduler {
    /// `chime_notifications_fired_total{route}`: what became of each due notification.
    public static let firedMetric = "chime_notifications_fired_total"
    /// `chime_fire_delay_seconds`: from a notification's instant to its sending (written
    /// locally, or queued for the network by the same transaction that marks it fired).
    public static let fireDelayMetric = "chime_fire_delay_seconds"

    /// The routes a due notification takes, as `route` label values.
    enum FiredRoute: String {
        /// Sent now to the recipient's addresses.
        case sent
        /// Kept for the recipient's digest.
        case digest
        /// Kept to go with the others of its thread.
        case grouped
        /// Sent nowhere: turned off, denied, or awaiting opt-in.
        case suppressed
        /// Given back for later: quiet hours, or it could not be sent (no address, no
        /// transport, a local delivery failing); counted at each run that holds it.
        case held
    }

    /// Counts one notification's route.
    func count(_ route: FiredRoute) {
        Counter(label: Self.firedMetric, dimensions: [("route", route.rawValue)]).increment()
    }

    /// Records how late a notification due at `instant` was sent: at `now` (the run's
    /// instant, in whole seconds) and `elapsed` after the run began, as the courier
    /// measures its sending. It had been `now` alone: every notification of a run counted
    /// as sent at its start, and a daemon firing on time recorded 0 s, whatever it took.
    func recordDelay(from instant: Instant, to now: Instant, plus elapsed: Duration) {
        let seconds = Double(now.seconds - instant.seconds) + Courier.seconds(elapsed)
        Timer(label: Self.fireDelayMetric, preferredDisplayUnit: .seconds).recordSeconds(max(0, seconds))
    }

    /// Counts a local delivery (Maildir, file) as the courier counts the network's.
    func countLocal(_ channel: Channel, delivered: Bool) {
        Counter(label: Courier.deliveriesMetric,
                dimensions: [("kind", channel.url.kind.rawValue), ("outcome", Courier.label(delivered ? .delivered : .temporary))]).increment()
    }
}
