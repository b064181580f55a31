import Foundation

/// A Maildir written the standard way: each message written and synced under `tmp/`,
/// then renamed into `new/`, so a reader never sees a partial message.
///
/// Several threads may ``add(_:)``, ``stage(_:)`` and ``publish(_:)`` at once (``add(_:name:)``
/// from one thread only): only the counter of names and the list of staged messages are
/// taken under a lock, never a file written under it.
public final class MaildirFolder: @unchecked Sendable { // counter and staged guarded by lock
    public let root: URL
    private let host: String
    private let lock = NSLock()
    /// Held by a ``publish(_:)`` from start to end: one at a time.
    private let publishing = NSLock()
    private var counter = 0
    /// Messages staged (each with its name) and not yet written, synced and moved into `new/`.
    private var staged: [(name: String, message: [UInt8])] = []
    /// The names of the messages in `cur/` (a reader moved them there, adding `:2,` and
    /// flags), listed once, on the first ``add(_:name:)``.
    private lazy var readNames: Set<String> = {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("cur").path)) ?? []
        return Set(names.map { String($0.prefix { $0 != ":" }) })
    }()

    /// Opens the Maildir at `path`, creating `tmp/`, `new/` and `cur/` when missing.
    public init(path: String) throws {
        root = URL(fileURLWithPath: path)
        for folder in ["tmp", "new", "cur"] {
            try FileWriter.makeFolder(root.appendingPathComponent(folder).path)
        }
        host = Self.fileName(ProcessInfo.processInfo.hostName)
    }

    /// `text` fit for a message's file name, as Maildir writes a host name: `/` (no file
    /// name holds one) as `\057`, `:` (which starts the flags a reader adds) as `\072`.
    static func fileName(_ text: String) -> String {
        text.replacingOccurrences(of: "/", with: "\\057").replacingOccurrences(of: ":", with: "\\072")
    }

    /// Adds one message (its bytes as they are).
    public func add(_ message: [UInt8]) throws {
        let name = uniqueName()
        let temporary = root.appendingPathComponent("tmp").appendingPathComponent(name)
        let final = root.appendingPathComponent("new").appendingPathComponent(name)
        try FileWriter.write(message, to: temporary.path)
        guard rename(temporary.path, final.path) == 0 else {
            let error = TransportError.system("rename into \(final.path)")
            unlink(temporary.path)
            throw error
        }
    }

    /// Adds one message under a name of the caller's, once: when a message of that name
    /// is already in `new/` or `cur/` (a run that died after writing it), nothing is
    /// written and false comes back. The name must be unique to what the message is; a
    /// `/` or `:` in it (a channel's id named in it) is written as Maildir escapes them.
    @discardableResult
    public func add(_ message: [UInt8], name: String) throws -> Bool {
        let name = Self.fileName(name)
        if readNames.contains(name) { return false }
        let temporary = root.appendingPathComponent("tmp").appendingPathComponent(name)
        let final = root.appendingPathComponent("new").appendingPathComponent(name)
        // What a run killed while writing left under this name is its own: gone first.
        unlink(temporary.path)
        try FileWriter.write(message, to: temporary.path)
        defer { unlink(temporary.path) }
        // link(2), unlike rename(2), refuses to replace a message already there.
        guard link(temporary.path, final.path) == 0 else {
            if errno == EEXIST { return false }
            throw TransportError.system("link into \(final.path)")
        }
        return true
    }

    /// Keeps one message for ``publish(_:)``, which writes it under `tmp/` with the others
    /// kept, makes them durable at once and moves them into `new/`. For batches, where a
    /// sync per message would cost more than everything else, and where the writing is
    /// better done on another thread than the one making the messages.
    public func stage(_ message: [UInt8]) {
        let name = uniqueName()
        lock.withLock { staged.append((name, message)) }
    }

    /// Messages staged and taken out together, for ``publish(_:)``.
    public struct Staged: @unchecked Sendable { // an array of values, never shared mutably
        fileprivate let messages: [(name: String, message: [UInt8])]

        /// The messages of both, `first`'s first.
        public static func + (first: Staged, then: Staged) -> Staged {
            Staged(messages: first.messages + then.messages)
        }
    }

    /// Takes out the messages staged so far: those staged after wait for the next take.
    public func takeStaged() -> Staged {
        Staged(messages: lock.withLock {
            defer { staged.removeAll() }
            return staged
        })
    }

    /// Writes messages taken out by ``takeStaged()`` under `tmp/`, syncs the file system
    /// (one `syncfs`), then renames each into `new/` and syncs `new/`, so that once it
    /// returns they are there even after a power loss (what the caller does next, such as
    /// moving the replies they answer to `cur/`, cannot outlast them). Those a failure
    /// left unmoved go back to be staged.
    public func publish(_ taken: Staged) throws {
        try publishing.withLock {
            let batch = taken.messages
            guard !batch.isEmpty else { return }
            let tmp = tmpPath
            var begun = 0, moved = 0
            do {
                for (name, message) in batch {
                    begun += 1
                    try FileWriter.write(message, to: tmp + "/" + name, sync: false)
                }
                let descriptor = open(tmp, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
                guard descriptor >= 0 else { throw TransportError.system("open \(tmp)") }
                defer { close(descriptor) }
                if chime_syncfs(descriptor) != 0 { throw TransportError.system("sync \(tmp)") }
                for (name, _) in batch {
                    let final = root.path + "/new/" + name
                    guard rename(tmp + "/" + name, final) == 0 else { throw TransportError.system("rename into \(final)") }
                    moved += 1
                }
                let new = open(root.path + "/new", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
                guard new >= 0 else { throw TransportError.system("open \(root.path)/new") }
                defer { close(new) }
                if fsync(new) != 0 { throw TransportError.system("sync \(root.path)/new") }
            } catch {
                // What is left under tmp/ is written again (its name is created exclusively).
                for (name, _) in batch[moved..<begun] { unlink(tmp + "/" + name) }
                lock.withLock { staged.insert(contentsOf: batch[moved...], at: 0) }
                throw error
            }
        }
    }

    private var tmpPath: String { root.path + "/tmp" }

    /// `seconds.MmicrosecondsPpidQcounter.host`, unique on this host as Maildir asks.
    private func uniqueName() -> String {
        var now = timeval()
        gettimeofday(&now, nil)
        let count = lock.withLock {
            counter += 1
            return counter
        }
        return "\(now.tv_sec).M\(now.tv_usec)P\(getpid())Q\(count).\(host)"
    }
}

/// Linux's `syncfs(2)`: glibc has it, but only under `_GNU_SOURCE`, which Swift's Glibc
/// module does not define; declared here by its C name.
@_silgen_name("syncfs")
private func chime_syncfs(_ descriptor: Int32) -> Int32
