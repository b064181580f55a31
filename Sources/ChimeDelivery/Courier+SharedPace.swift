import ChimeCore
import Foundation

/// A channel's `rate` kept across every process sharing the store (``Courier/sharedPace``):
/// the start each request takes, a start taken late, a pause a server asked for. The
/// transfer loop (Courier+Transfers.swift) asks these before and after each start.
extension Courier {
    /// The start that the pace shared by every process sharing the store gives `line`'s
    /// next request (microseconds of the real clock), whether it was taken (it is within
    /// the channel's maxWait of asking: the store decides, with the bound it was given),
    /// and the seconds from now to it; nil for a channel without a rate, or without a
    /// shared pace.
    func sharedStart(for line: Line) throws -> (start: Int64, taken: Bool, wait: Double)? {
        guard let sharedPace, let spacing = line.spacing else { return nil }
        let asked = realMicroseconds()
        let latest = asked + Self.microseconds(line.channel.policy.maxWait)
        let start = try sharedPace.pace(line.channel.id, .start(earliest: asked, spacing: spacing, latest: latest))
        // From the clock once the store answered: the time it took is not waited again.
        return (start, start <= latest, Double(start - realMicroseconds()) / 1_000_000)
    }

    /// A request on a channel with a rate starting more than a hundredth of a second after
    /// the start the shared pace gave it (the store slow to answer, the concurrency of all
    /// channels full): the pace takes now as its last start, so that the next, in this
    /// process or another, is still a spacing after this one.
    func catchUpSharedPace(_ line: Line) throws {
        guard let sharedPace, line.spacing != nil, let given = line.pace.heldStart else { return }
        let now = realMicroseconds()
        guard now - given > 10_000 else { return }
        _ = try sharedPace.pace(line.channel.id, .startedAt(now))
    }

    /// A pause a server asked of a channel with a rate, shared: no process sharing the store
    /// starts a request on the channel before it ends.
    func sharePause(_ seconds: Double, of line: Line) throws {
        guard let sharedPace, line.spacing != nil else { return }
        let until = realMicroseconds() + Self.microseconds(seconds)
        _ = try sharedPace.pace(line.channel.id, .pause(until: until))
    }

    /// Microseconds of the real clock, as ``sharedPace`` keeps its starts.
    private func realMicroseconds() -> Int64 {
        Int64((Date().timeIntervalSince1970 * 1_000_000).rounded())
    }

    /// Seconds as microseconds, at most the longest wait a server is heeded for.
    private static func microseconds(_ seconds: Double) -> Int64 {
        Int64((min(max(seconds, 0), Verdict.longestWait) * 1_000_000).rounded())
    }
}
