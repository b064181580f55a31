import ChimeCore
import Foundation
import Logging

/// This process as a ``Claimer``, and whether another claimer is still alive.
///
/// Two settings from the environment make several workers on one machine behave as
/// workers on several machines (and let an operator name them):
/// - `CHIME_WORKER_ID` names this worker in its claims instead of the host name. A
///   worker judges by their process only the claims of its own name, so a claimer of
///   another name (another machine, or another worker id here) is taken back only once
///   its lease ends. Give each worker its own id; never the same id to workers on two
///   machines (each would take the other's process ids for its own).
/// - `CHIME_LEASE` is how many seconds a claim holds (600 unless set): how soon a dead
///   worker's claims on another machine come back. It must be longer than one batch
///   (500 notifications, or 500 deliveries through the relay) takes, or a live worker's
///   claims are taken up by another and sent twice (with the same Message-ID).
enum ProcessIdentity {
    static let current = Claimer(host: hostName, processID: getpid(), processStart: startTime(of: getpid()) ?? "?")

    /// The lease in seconds: `$CHIME_LEASE` when it is a whole number of seconds from 1 to
    /// a week, else 600 (an unreadable value is said on standard error once). Past any
    /// bound, a claim's end (its start plus the lease) overflowed and `chime run` trapped.
    static let lease: Int64 = {
        let standard: Int64 = 600
        guard let given = ProcessInfo.processInfo.environment["CHIME_LEASE"], !given.isEmpty else { return standard }
        guard let seconds = Int64(given), (1...longestLease).contains(seconds) else {
            // A log record: read at the first firing round, while `chime serve` may be
            // writing JSON records, among which a bare line was none.
            Logger(label: "chime.scheduler").warning("CHIME_LEASE=\(given) is not a whole number of seconds from 1 to \(longestLease); the lease stays \(standard) s")
            return standard
        }
        return seconds
    }()

    /// A week: longer than any batch takes, and a dead worker's claims still come back.
    static let longestLease: Int64 = 7 * 86_400

    /// `$CHIME_WORKER_ID` when set, else the host name; `:` (which separates a claimer's
    /// parts) becomes `_`.
    private static let hostName: String = {
        if let worker = ProcessInfo.processInfo.environment["CHIME_WORKER_ID"], !worker.isEmpty {
            return worker.replacingOccurrences(of: ":", with: "_")
        }
        var buffer = [CChar](repeating: 0, count: 256)
        gethostname(&buffer, buffer.count - 1) // the last byte stays 0: a name cut short still ends
        return buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }.replacingOccurrences(of: ":", with: "_")
    }()

    /// Whether a claimer of this worker's name (its host, or `$CHIME_WORKER_ID`) is known
    /// to be dead: its process is gone, or its process id now belongs to a process started
    /// at another time. Claimers of other names are never judged here; their lease ends
    /// them.
    static func isDead(_ claimer: Claimer) -> Bool {
        guard claimer.host == hostName else { return false }
        if kill(claimer.processID, 0) != 0 && errno == ESRCH { return true }
        // A zombie (killed, not yet reaped by its parent) is dead too.
        guard let fields = statFields(of: claimer.processID), fields.count > 19, fields[0] != "Z" else { return true }
        return fields[19] != claimer.processStartTime
    }

    /// Field 22 of `/proc/PID/stat`: the start time in clock ticks since boot.
    private static func startTime(of pid: Int32) -> String? {
        guard let fields = statFields(of: pid), fields.count > 19 else { return nil }
        return fields[19]
    }

    /// The fields of `/proc/PID/stat` after the command name (which may hold spaces),
    /// from field 3, the state.
    private static func statFields(of pid: Int32) -> [String]? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return nil }
        return stat[stat.index(after: close)...].split(separator: " ").map(String.init)
    }
}
