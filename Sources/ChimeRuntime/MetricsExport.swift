import ChimeCore
import ChimeDelivery
import ChimeReply
import ChimeScheduler
import ChimeServer
import Foundation
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
    static func bootstrap(store: any NotificationStore, clock: @escaping @Sendable () -> Instant) -> MetricsExport {
        MetricsExport(registry: shared, store: store, clock: clock)
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

    /// The registry in Prometheus's text format, the store's gauges read now.
    /// - Throws: the store's error, when it cannot be read.
    func text() throws -> String {
        let now = clock()
        let gauges = try store.gauges(now: now)
        func set(_ name: String, _ help: String, _ value: Int) {
            // Each name whole, as the contract gives it (a unit, where there is one,
            // already at its end).
            registry.makeGauge(descriptor: MetricNameDescriptor(metricName: name, unitName: "", helpText: help)).set(Int64(value))
        }
        set("chime_pending", "Requests scheduled and not yet fired.", gauges.pending)
        set("chime_pending_overdue", "Pending requests whose instant has passed (nothing firing them?).", gauges.overdue)
        set("chime_pending_oldest_overdue_seconds", "How long the most overdue pending request has been due; 0 when none is.",
            gauges.oldestOverdue.map { max(0, Int(now.seconds - $0.seconds)) } ?? 0)
        set("chime_outbox_queued", "Deliveries over the network waiting to be sent or retried.", gauges.outboxQueued)
        set("chime_outbox_failed", "Deliveries that gave up (chime failed lists them): the dead letters.", gauges.outboxFailed)
        set("chime_outbox_oldest_queued_age_seconds", "Age of the oldest queued delivery; 0 when none is queued.",
            gauges.oldestQueued.map { max(0, Int(now.seconds - $0.seconds)) } ?? 0)
        return registry.emitToString()
    }
}
