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
    /// The names the environment file set as the process started (not the ones it started with).
    private static let setFromFile = Mutex<Set<String>>([])

    /// Sets each of an environment file's `values` in this process's environment where the
    /// environment does not already name it (what a unit or a shell sets explicitly wins).
    /// Once, as a command starts, before it starts any thread: reading the file again is
    /// ``changes(to:)``.
    public static func setAtStart(_ values: [String: String]) {
        setFromFile.withLock { fromFile in
            for (name, value) in values where getenv(name) == nil || fromFile.contains(name) {
                setenv(name, value, 1)
                fromFile.insert(name)
            }
        }
    }

    /// What the environment file, read again and now naming `values`, changes in the
    /// environment Chime reads, by the rules of ``setAtStart(_:)``: a name the process
    /// started with stays as it started; one the file set at start and no longer names is
    /// taken away (nil); the file's values stand for the others.
    public static func changes(to values: [String: String]) -> [String: String?] {
        changes(to: values, started: ProcessInfo.processInfo.environment, fromFile: setFromFile.withLock { $0 })
    }

    /// The rules of ``changes(to:)``: the file now names `last`; the process `started` with
    /// its environment, of which the file had set the names `fromFile`.
    static func changes(to last: [String: String], started: [String: String], fromFile: Set<String>) -> [String: String?] {
        var changes: [String: String?] = [:]
        for name in fromFile where last[name] == nil { changes[name] = .some(nil) }
        for (name, value) in last where fromFile.contains(name) || started[name] == nil { changes[name] = .some(value) }
        return changes
    }

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
