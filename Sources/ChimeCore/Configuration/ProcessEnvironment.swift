import Foundation
import Synchronization

/// The environment as Chime's own code reads it: the process's, as it started (with the
/// environment file applied before any thread ran), and on top of it what reading the
/// file again changed (`chime serve` on SIGHUP, after a secret was rotated).
///
/// A reload changes nothing in the process's own environment: glibc's `setenv` and
/// `unsetenv` are not safe while other threads read it, and they do (libcurl reads its
/// proxy variables for each transfer; a hook's command is started with the environment),
/// so a name added on a reload could move the array a reader was going through. Libraries
/// keep reading what the process started with; the secrets that `${NAME}` in chime.xml,
/// `CHIME_SECRET_KEY` and hook commands take come from here.
public enum ProcessEnvironment {
    /// Names set (a value) or taken away (nil) since the process started.
    private static let changes = Mutex<[String: String?]>([:])

    /// The environment in force.
    public static var current: [String: String] { current(with: changes.withLock { $0 }) }

    /// The environment `changes` would put in force, without putting it in force.
    public static func current(with changes: [String: String?]) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        for (name, value) in changes { environment[name] = value }
        return environment
    }

    /// Puts `new` in force over the process's own environment, in place of the changes
    /// before.
    public static func replaceChanges(_ new: [String: String?]) {
        changes.withLock { $0 = new }
    }
}
