/// How fast one channel may go: no request starts before ``notBefore``, set by the
/// channel's rate after each start, by a start the deployment's shared pace gave it, or
/// by a pause a server asked for.
struct Pace {
    private(set) var notBefore: ContinuousClock.Instant?
    /// A start (microseconds of the real clock) the shared pace (``Courier/sharedPace``)
    /// gave this channel and no request has used yet: the next request goes then, without
    /// asking for another.
    private(set) var heldStart: Int64?

    /// A request started now: the next waits `1 / rate` seconds (nil: no rate).
    mutating func started(rate: Double?) {
        heldStart = nil
        guard let rate else { return }
        let now = ContinuousClock.now
        notBefore = max(notBefore ?? now, now) + .seconds(1 / rate)
    }

    /// The shared pace gave this channel the start `start`, `seconds` from now (none
    /// when not positive: at once).
    mutating func given(_ start: Int64, in seconds: Double) {
        heldStart = start
        if seconds > 0 { hold(until: .now + .seconds(seconds)) }
    }

    /// The server asked to wait this many seconds before the next request. A start the
    /// shared pace gave is given up (the pause, shared too, moved the pace past it): the
    /// next request asks for another.
    mutating func pause(_ seconds: Double) {
        heldStart = nil
        hold(until: .now + .seconds(seconds))
    }

    private mutating func hold(until resume: ContinuousClock.Instant) {
        notBefore = max(notBefore ?? resume, resume)
    }
}
