import Foundation

/// A Maildir written the standard way: each message written and synced under `tmp/`,
/// then renamed into `new/`, so a reader never sees a partial message.
public final class MaildirFolder {
    public let root: URL
    private let host: String
    private var counter = 0

    /// Opens the Maildir at `path`, creating `tmp/`, `new/` and `cur/` when missing.
    public init(path: String) throws {
        root = URL(fileURLWithPath: path)
        for folder in ["tmp", "new", "cur"] {
            try FileManager.default.createDirectory(at: root.appendingPathComponent(folder), withIntermediateDirectories: true)
        }
        host = ProcessInfo.processInfo.hostName.replacingOccurrences(of: "/", with: "\\057").replacingOccurrences(of: ":", with: "\\072")
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

    /// `seconds.MmicrosecondsPpidQcounter.host`, unique on this host as Maildir asks.
    private func uniqueName() -> String {
        var now = timeval()
        gettimeofday(&now, nil)
        counter += 1
        return "\(now.tv_sec).M\(now.tv_usec)P\(getpid())Q\(counter).\(host)"
    }
}
