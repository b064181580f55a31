import Foundation

/// Postfix's `smtp-sink` on 127.0.0.1, keeping each message as a file in `folder`: a fast
/// real SMTP server for volume. Stopped when this value goes.
public final class SMTPSink: @unchecked Sendable { // immutable after init
    public let port: Int
    public let folder: URL
    private let process: Process

    /// - Parameter keep: write each message into `folder` (off for benchmarks).
    public init(keep: Bool = true) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("chime-sink-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        // smtp-sink drops its privileges to nobody when started as root: let it write.
        try FileManager.default.setAttributes([.posixPermissions: 0o777], ofItemAtPath: folder.path)
        var lastError: Error?
        for _ in 0..<5 {
            let port = LocalPort.free()
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/sbin/smtp-sink")
            process.arguments = (getuid() == 0 ? ["-u", "nobody"] : []) + (keep ? ["-d", folder.path + "/m."] : []) + ["127.0.0.1:\(port)", "256"]
            process.standardError = FileHandle.nullDevice
            do {
                try process.run()
            } catch {
                throw CocoaError(.fileNoSuchFile, userInfo: [NSLocalizedDescriptionKey: "smtp-sink did not start (is postfix installed?): \(error)"])
            }
            if LocalPort.listening(port) {
                self.port = port
                self.process = process
                return
            }
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            lastError = CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "smtp-sink did not listen on \(port)"])
        }
        throw lastError!
    }

    deinit {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        try? FileManager.default.removeItem(at: folder)
    }

    /// The messages received, each as smtp-sink dumped it (envelope lines, then the data).
    public func messages() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix("m.") }.sorted()
            .map { try String(contentsOfFile: folder.appendingPathComponent($0).path, encoding: .utf8) }
    }
}

/// Ports on 127.0.0.1.
public enum LocalPort {
    /// A port free on 127.0.0.1 a moment ago, for servers that cannot pick their own.
    public static func free() -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) } }
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// Whether something accepts connections on 127.0.0.1:`port`, waiting up to 5 s.
    public static func listening(_ port: Int) -> Bool {
        for _ in 0..<250 {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            close(fd)
            if connected == 0 { return true }
            usleep(20_000)
        }
        return false
    }
}
