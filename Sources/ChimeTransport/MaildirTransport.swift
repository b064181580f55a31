import ChimeCore
import Foundation

/// Delivers each notification as an RFC 5322 message into a Maildir, the standard way:
/// written and synced under `tmp/`, then renamed into `new/`, so a reader never sees a
/// partial message.
public final class MaildirTransport: Transport {
    public let root: URL
    private let host: String
    private var counter = 0
    private let renderer: any MessageRenderer

    /// Opens the Maildir at `path`, creating `tmp/`, `new/` and `cur/` when missing.
    public init(path: String, renderer: any MessageRenderer) throws {
        self.renderer = renderer
        root = URL(fileURLWithPath: path)
        for folder in ["tmp", "new", "cur"] {
            try FileManager.default.createDirectory(at: root.appendingPathComponent(folder), withIntermediateDirectories: true)
        }
        host = ProcessInfo.processInfo.hostName.replacingOccurrences(of: "/", with: "\\057").replacingOccurrences(of: ":", with: "\\072")
    }

    public func deliver(_ notification: OutgoingNotification) throws {
        let name = uniqueName()
        let temporary = root.appendingPathComponent("tmp").appendingPathComponent(name)
        let final = root.appendingPathComponent("new").appendingPathComponent(name)
        try FileWriter.write(Array(try renderer.email(notification).utf8), to: temporary.path)
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
