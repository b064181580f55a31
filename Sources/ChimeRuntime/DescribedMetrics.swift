import ChimeDelivery
import ChimeReply
import ChimeScheduler
import ChimeServer
import CoreMetrics
import Hummingbird
import Prometheus

/// swift-prometheus's factory for swift-metrics, with a `# HELP` line for each of Chime's
/// counters and histograms: its own factory registers them with none (Prometheus's and
/// Grafana's metric browsers showed no description), and a registry refuses one name with
/// two help texts, so each is made here, the first time, with its text. Written by hand:
/// the factory takes no help texts.
struct DescribedMetrics: MetricsFactory {
    let base: PrometheusMetricsFactory

    /// What each metric counts, as the README's table says it.
    static let help: [String: String] = [
        Scheduler.firedMetric: "Due notifications, by what became of them (route).",
        Scheduler.fireDelayMetric: "From a notification's instant to its sending, in seconds.",
        Courier.deliveriesMetric: "Delivery attempts, by channel kind and outcome.",
        Courier.sendDelayMetric: "From a network delivery's queuing to the server taking it, in seconds.",
        ReplyDesk.repliesMetric: "Replies and presses, by what they became (status) and how they came (via).",
        AccessRecorder<BasicRequestContext>.requestsMetric: "HTTP requests, by route template, method and status.",
        AccessRecorder<BasicRequestContext>.durationMetric: "How long each HTTP request took to answer, in seconds, by route template.",
    ]

    private func descriptor(_ label: String) -> MetricNameDescriptor? {
        Self.help[label].map { MetricNameDescriptor(metricName: label, unitName: "", helpText: $0) }
    }

    func makeCounter(label: String, dimensions: [(String, String)]) -> any CounterHandler {
        guard let descriptor = descriptor(label) else { return base.makeCounter(label: label, dimensions: dimensions) }
        return base.registry.makeCounter(descriptor: descriptor, labels: dimensions)
    }

    func makeTimer(label: String, dimensions: [(String, String)]) -> any TimerHandler {
        guard let descriptor = descriptor(label) else { return base.makeTimer(label: label, dimensions: dimensions) }
        let buckets = base.durationHistogramBuckets[label] ?? base.defaultDurationHistogramBuckets
        return base.registry.makeDurationHistogram(descriptor: descriptor, labels: dimensions, buckets: buckets)
    }

    func makeFloatingPointCounter(label: String, dimensions: [(String, String)]) -> any FloatingPointCounterHandler {
        base.makeFloatingPointCounter(label: label, dimensions: dimensions)
    }

    func makeRecorder(label: String, dimensions: [(String, String)], aggregate: Bool) -> any RecorderHandler {
        base.makeRecorder(label: label, dimensions: dimensions, aggregate: aggregate)
    }

    func makeMeter(label: String, dimensions: [(String, String)]) -> any MeterHandler {
        base.makeMeter(label: label, dimensions: dimensions)
    }

    func destroyCounter(_ handler: any CounterHandler) { base.destroyCounter(handler) }
    func destroyFloatingPointCounter(_ handler: any FloatingPointCounterHandler) { base.destroyFloatingPointCounter(handler) }
    func destroyRecorder(_ handler: any RecorderHandler) { base.destroyRecorder(handler) }
    func destroyMeter(_ handler: any MeterHandler) { base.destroyMeter(handler) }
    func destroyTimer(_ handler: any TimerHandler) { base.destroyTimer(handler) }
}
