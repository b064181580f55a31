import Foundation

/// Each API key's rate (`<key rate>`): a token bucket per key id, refilled at `rate` a
/// second up to `rate`, in this process.
final class APIRateLimiter: @unchecked Sendable { // state behind the lock
    private let lock = NSLock()
    private var buckets: [String: (tokens: Double, at: TimeInterval)] = [:]

    /// Nil when the call may go ahead; else the seconds after which one may.
    func wait(key: String, rate: Int, now: TimeInterval = ProcessInfo.processInfo.systemUptime) -> Int? {
        lock.lock()
        defer { lock.unlock() }
        let capacity = Double(rate)
        var bucket = buckets[key] ?? (capacity, now)
        bucket.tokens = min(capacity, bucket.tokens + (now - bucket.at) * capacity)
        bucket.at = now
        defer { buckets[key] = bucket }
        guard bucket.tokens >= 1 else { return max(1, Int(((1 - bucket.tokens) / capacity).rounded(.up))) }
        bucket.tokens -= 1
        return nil
    }
}
