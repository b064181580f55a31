import Foundation

/// A test server from `Servers/` run with Debian's python3 on 127.0.0.1 with an ephemeral
/// port; it stops when this value goes (its stdin closes).
public class ScriptServer: @unchecked Sendable { // immutable after init
    public let port: Int
    public let folder: URL
    private let process: Process
    private let input = Pipe()

    /// A self-signed certificate for 127.0.0.1, made by openssl for one test.
    public struct Certificate: Sendable {
        public var cert: String
        public var key: String
    }

    public static func certificate(in folder: URL) throws -> Certificate {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let cert = folder.appendingPathComponent("cert.pem").path, key = folder.appendingPathComponent("key.pem").path
        let openssl = Process()
        openssl.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        openssl.arguments = ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", cert, "-days", "1",
                             "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"]
        openssl.standardOutput = FileHandle.nullDevice
        openssl.standardError = FileHandle.nullDevice
        try openssl.run()
        openssl.waitUntilExit()
        return Certificate(cert: cert, key: key)
    }

    /// Starts `Servers/<script>` with `--log <folder>/log.jsonl` and `arguments`.
    init(script: String, _ arguments: [String], folder: URL?, needs package: String) throws {
        self.folder = folder ?? FileManager.default.temporaryDirectory.appendingPathComponent("chime-server-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: self.folder, withIntermediateDirectories: true)
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Servers/\(script)").path
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = ["-u", path, "--log", self.folder.appendingPathComponent("log.jsonl").path] + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardInput = input
        try process.run()
        var line = Data()
        while !line.contains(0x0A) {
            let chunk = output.fileHandleForReading.availableData
            guard !chunk.isEmpty else { break }
            line += chunk
        }
        guard let text = String(data: line, encoding: .utf8), text.hasPrefix("port "),
              let port = Int(text.dropFirst(5).trimmingCharacters(in: .whitespacesAndNewlines)) else {
            process.terminate()
            throw CocoaError(.fileReadCorruptFile, userInfo: [NSLocalizedDescriptionKey: "\(script) did not start (is \(package) installed?)"])
        }
        self.port = port
    }

    deinit {
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
        try? FileManager.default.removeItem(at: folder)
    }

    /// The server's log: one object per line.
    public func log() throws -> [[String: Any]] {
        let path = folder.appendingPathComponent("log.jsonl").path
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return [] }
        return try text.split(separator: "\n").map { try JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any] }
    }
}

/// The scriptable SMTP server of `Servers/smtp_server.py` (Debian's python3-aiosmtpd):
/// AUTH, STARTTLS, and flaky modes (see the script).
public final class SMTPServer: ScriptServer, @unchecked Sendable {
    public init(_ arguments: [String] = [], folder: URL? = nil) throws {
        try super.init(script: "smtp_server.py", arguments, folder: folder, needs: "python3-aiosmtpd")
    }

    /// What the server accepted: one object per message (from, to, data, tls, user).
    public func messages() throws -> [[String: Any]] { try log() }
}

/// The scriptable HTTP(S) server of `Servers/webhook_server.py` (Python's http.server):
/// the path of each request says how to answer (see the script).
public final class WebhookServer: ScriptServer, @unchecked Sendable {
    public init(_ arguments: [String] = [], folder: URL? = nil) throws {
        try super.init(script: "webhook_server.py", arguments, folder: folder, needs: "python3")
    }

    /// Every request received: path, headers, body, status, start, end.
    public func requests() throws -> [[String: Any]] { try log() }
}

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
