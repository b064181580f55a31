/// How fast one channel may go: no request starts before ``notBefore``, set by the
/// channel's rate after each start, or by a pause a server asked for.
struct Pace {
    private(set) var notBefore: ContinuousClock.Instant?

    /// A request started now: the next waits `1 / rate` seconds (nil: no rate).
    mutating func started(rate: Double?) {
        guard let rate else { return }
        let now = ContinuousClock.now
        notBefore = max(notBefore ?? now, now) + .seconds(1 / rate)
    }

    /// The server asked to wait this many seconds before the next request.
    mutating func pause(_ seconds: Double) {
        let resume = ContinuousClock.now + .seconds(seconds)
        notBefore = max(notBefore ?? resume, resume)
    }
}
