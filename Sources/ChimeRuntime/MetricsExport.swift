import ChimeCore
import ChimeDelivery
import ChimeReply
import ChimeScheduler
import ChimeServer
import Foundation
import Logging
import Metrics
import Prometheus

/// `chime serve`'s metrics: swift-metrics bootstrapped with swift-prometheus's registry,
/// which the libraries' counters (scheduler, courier, reply desk, presses, HTTP) fill as
/// the work happens; the store's gauges read at each scrape; the whole written in
/// Prometheus's text format for `GET /metrics`. Only the runtime knows the registry.
struct MetricsExport: Sendable {
    let registry: PrometheusCollectorRegistry
    let store: any NotificationStore
    let clock: @Sendable () -> Instant

    /// Bootstraps swift-metrics with a Prometheus registry, once per process (swift-metrics
    /// allows one bootstrap); each later call exports the same registry over its store.
    static func bootstrap(store: any NotificationStore, clock: @escaping @Sendable () -> Instant, channelKinds: [String]) -> MetricsExport {
        let export = MetricsExport(registry: shared, store: store, clock: clock)
        // The counters alerts watch, from zero: a series that first shows at 1 gives
        // `rate()` and `increase()` nothing, and the first delivery given up, or the first
        // forged token, after each start went unseen. Each reply's outcome by email and
        // link; each delivery's outcome for the configuration's kinds of channel.
        for status in InboundRecord.Outcome.allCases.map(\.rawValue) {
            for via in ["email", "link"] { Counter(label: ReplyDesk.repliesMetric, dimensions: [("status", status), ("via", via)]).increment(by: 0) }
        }
        for kind in Set(channelKinds) {
            for outcome in [DeliveryAttempt.Outcome.delivered, .temporary, .permanent, .rateLimited].map(Courier.label) {
                Counter(label: Courier.deliveriesMetric, dimensions: [("kind", kind), ("outcome", outcome)]).increment(by: 0)
            }
        }
        return export
    }

    /// The process's registry, swift-metrics bootstrapped with it on first use.
    private static let shared: PrometheusCollectorRegistry = {
        let registry = PrometheusCollectorRegistry()
        var factory = PrometheusMetricsFactory(registry: registry)
        // Firing is measured in seconds to minutes (a cron tick is a minute), sending in
        // milliseconds to the retries' hours.
        let late: [Duration] = [.milliseconds(500), .seconds(1), .seconds(2), .seconds(5), .seconds(10), .seconds(30), .seconds(60),
                                .seconds(120), .seconds(300), .seconds(900), .seconds(3_600)]
        factory.durationHistogramBuckets = [Scheduler.fireDelayMetric: late, Courier.sendDelayMetric: late]
        MetricsSystem.bootstrap(DescribedMetrics(base: factory))
        // Every route from zero, so that a rate is there before the first notification.
        for route in ["sent", "digest", "grouped", "suppressed", "held"] {
            Counter(label: Scheduler.firedMetric, dimensions: [("route", route)]).increment(by: 0)
        }
        return registry
    }()

    /// What `/metrics` is made of: the store's gauges read at each scrape, and ``text(_:)``.
    var served: ChimeHTTPServer.Metrics {
        ChimeHTTPServer.Metrics(gauges: { [store, clock] in try store.gauges(now: clock()) }, text: text)
    }

    /// The registry in Prometheus's text format, with the store's gauges just read. A
    /// store that could not be read (PostgreSQL down, a broken file) does not fail the
    /// scrape: `chime_store_up` says 0 and its gauges are left out (not their last
    /// values), the counters still there. A scrape that failed made Prometheus's `up` 0,
    /// as if `chime serve` itself were down, and lost every counter until the store came back.
    func text(_ read: Result<StoreGauges, any Error>) -> String {
        let now = clock()
        func gauge(_ name: String, _ help: String) -> Prometheus.Gauge {
            // Each name whole, as the contract gives it (a unit, where there is one,
            // already at its end).
            registry.makeGauge(descriptor: MetricNameDescriptor(metricName: name, unitName: "", helpText: help))
        }
        let up = gauge("chime_store_up", "1 when the store could be read for this scrape, 0 when it could not (the store's gauges are then left out).")
        let storeGauges = [
            gauge("chime_pending", "Requests scheduled and not yet fired."),
            gauge("chime_pending_overdue", "Pending requests whose instant has passed (nothing firing them?)."),
            gauge("chime_pending_oldest_overdue_seconds", "How long the most overdue pending request has been due; 0 when none is."),
            gauge("chime_outbox_queued", "Deliveries over the network waiting to be sent or retried."),
            gauge("chime_outbox_failed", "Deliveries that gave up (chime failed lists them): the dead letters."),
            gauge("chime_outbox_oldest_queued_age_seconds", "Age of the oldest queued delivery; 0 when none is queued."),
        ]
        do {
            let gauges = try read.get()
            let values = [gauges.pending, gauges.overdue, gauges.oldestOverdue.map { max(0, Int(now.seconds - $0.seconds)) } ?? 0,
                          gauges.outboxQueued, gauges.outboxFailed, gauges.oldestQueued.map { max(0, Int(now.seconds - $0.seconds)) } ?? 0]
            for (gauge, value) in zip(storeGauges, values) { gauge.set(Int64(value)) }
            up.set(Int64(1))
        } catch {
            storeGauges.forEach(registry.unregisterGauge)
            up.set(Int64(0))
            Logger(label: "chime.http").error("metrics: the store cannot be read",
                                              metadata: ["error": .string(printableError(error))])
        }
        return registry.emitToString()
    }
}
