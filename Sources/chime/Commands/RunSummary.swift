import ChimeCore
import ChimeScheduler

/// `chime run --json`: what one run did, as one JSON object for scripts (cron's wrapper,
/// a textfile collector). The exit code says the same as without `--json`.
struct RunSummary: Encodable {
    /// Notifications fired: sent now, kept for the digest or thread, turned off.
    var fired: Int
    /// Deliveries over SMTP and webhooks the servers took this run.
    var delivered: Int
    /// Due notifications by route, as `chime_notifications_fired_total` counts them:
    /// `sent`, `digest`, `grouped`, `suppressed` (those four make `fired`) and `held`,
    /// given back (quiet hours, or it could not be sent) for a later run.
    var routes: [String: Int]
    /// Of `suppressed`: sent nowhere until their recipient opts in.
    var awaitingOptIn: Int
    /// Of `held`: given back until their recipient's quiet hours end.
    var postponed: Int
    /// Each notification held (not for quiet hours), with why.
    var held: [String]
    /// Notifications sent to some of their recipient's addresses and not to others.
    var partial: [String]
    /// Deliveries that failed for now, each with why and when it is tried again.
    var retrying: [String]
    /// Deliveries that gave up this run (`chime failed` lists them all).
    var failed: [String]
    /// Deliveries left untried for a later run: their server unreachable, or asking to
    /// wait longer than the channel's `maxWait`.
    var deferred: Int
    var coalesced: Int
    var recovered: Int
    var moved: Int
    var optInsAsked: Int
    /// Threads sent as one message each: how many notifications each held.
    var groupsSent: [Int]

    init(_ report: Scheduler.RunReport) {
        let delivery = report.delivery
        let kept = report.digested + report.suppressed + report.awaitingOptIn + report.grouped
        fired = report.fired
        delivered = delivery.delivered
        routes = ["sent": report.fired - kept, "digest": report.digested, "grouped": report.grouped,
                  "suppressed": report.suppressed + report.awaitingOptIn, "held": report.held.count + report.postponed]
        awaitingOptIn = report.awaitingOptIn
        postponed = report.postponed
        held = report.held
        partial = report.partial
        retrying = delivery.retrying
        failed = delivery.failed
        deferred = delivery.notTried
        coalesced = report.coalesced
        recovered = report.recovered
        moved = report.moved
        optInsAsked = report.optInsAsked
        groupsSent = report.groupsSent
    }
}

/// `chime run --dry-run --json`: what is due.
struct DueSummary: Encodable {
    struct Item: Encodable {
        var identifier: String
        var recipient: String
        var nextTriggerDate: String
    }

    var due: [Item]

    init(_ due: [PendingNotification]) {
        // In the trigger's own offset, as chime pending --json and the text of --dry-run write it.
        self.due = due.map { Item(identifier: $0.request.identifier, recipient: $0.request.recipient, nextTriggerDate: localInstant($0.nextFire, zone: $0.zone)) }
    }
}

/// `chime digest --json`: the digests sent, or due with `--dry-run`.
struct DigestSummary: Encodable {
    struct Digest: Encodable {
        var recipient: String
        /// How many notifications it held.
        var notifications: Int
        /// Their identifiers (dry runs).
        var identifiers: [String]?
    }

    var digests: [Digest]
    /// Digests of an interrupted run finished by this one.
    var recovered: Int
    /// Digests that could not go, each with why: kept for the next run.
    var held: [String]
    /// Deliveries of digests that failed for now, each with why and when it is tried again.
    var retrying: [String] = []
    /// Deliveries of digests that gave up this run.
    var failed: [String] = []
    /// Deliveries of digests left untried for a later run (their server unreachable).
    var deferred = 0
}
