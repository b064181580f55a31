import ChimeCore
import Foundation

/// This process as a ``Claimer``, and whether another claimer is still alive.
enum ProcessIdentity {
    static let current = Claimer(host: hostName, processID: getpid(), processStart: startTime(of: getpid()) ?? "?")

    private static let hostName: String = {
        var buffer = [CChar](repeating: 0, count: 256)
        gethostname(&buffer, buffer.count)
        return String(cString: buffer).replacingOccurrences(of: ":", with: "_")
    }()

    /// Whether a claimer on this host is known to be dead: its process is gone, or its
    /// process id now belongs to a process started at another time. Claimers on other
    /// hosts are never judged here; their lease ends them.
    static func isDead(_ claimer: Claimer) -> Bool {
        guard claimer.host == hostName else { return false }
        if kill(claimer.processID, 0) != 0 && errno == ESRCH { return true }
        // A zombie (killed, not yet reaped by its parent) is dead too.
        guard let fields = statFields(of: claimer.processID), fields.count > 19, fields[0] != "Z" else { return true }
        return fields[19] != claimer.processStart
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
