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

    /// A certificate in a temporary folder of its own, which the caller removes.
    public static func temporaryCertificate(_ label: String) throws -> (certificate: Certificate, folder: URL) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("chime-\(label)-cert-\(UUID().uuidString.prefix(8))")
        return (try certificate(in: folder), folder)
    }

    /// Its key is ECDSA on P-256, which every server and client of the tests takes: an
    /// RSA key of 2,048 bits took openssl 0.3–0.7 s of CPU to make, 25 times a run, against
    /// about 10 ms.
    public static func certificate(in folder: URL) throws -> Certificate {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let cert = folder.appendingPathComponent("cert.pem").path, key = folder.appendingPathComponent("key.pem").path
        let openssl = Process()
        openssl.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        openssl.arguments = ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", key, "-out", cert, "-days", "1",
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
        let text = firstLine(of: output)
        guard text.hasPrefix("port "),
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

    /// How many entries the server's log holds, without parsing them.
    public func logCount() -> Int {
        let path = folder.appendingPathComponent("log.jsonl").path
        guard let data = FileManager.default.contents(atPath: path) else { return 0 }
        return data.reduce(0) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
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

    /// The `Message-ID` of every copy accepted, by the message's `Subject`: a message
    /// resent carries the same id.
    public func messageIDsBySubject() throws -> [String: [String]] {
        var copies: [String: [String]] = [:]
        for message in try messages() {
            let data = message["data"] as! String
            let header = { (name: String) in
                data.split(separator: "\r\n").first { $0.hasPrefix("\(name): ") }.map { String($0.dropFirst(name.count + 2)) } ?? ""
            }
            copies[header("Subject"), default: []].append(header("Message-ID"))
        }
        return copies
    }
}

/// The scriptable HTTP(S) server of `Servers/webhook_server.py` (Python's http.server):
/// the path of each request says how to answer (see the script).
public final class WebhookServer: ScriptServer, @unchecked Sendable {
    public init(_ arguments: [String] = [], folder: URL? = nil) throws {
        try super.init(script: "webhook_server.py", arguments, folder: folder, needs: "python3")
    }

    /// Every request received: path, headers, body, status, start, end, peer.
    public func requests() throws -> [[String: Any]] { try log() }

    /// An HTTPS server with a certificate made in `folder`, which a channel trusts by
    /// its `caFile`: the platforms' hosts, stood in for on 127.0.0.1.
    public static func https(in folder: URL) throws -> (server: WebhookServer, certificate: Certificate) {
        let certificate = try ScriptServer.certificate(in: folder)
        return (try WebhookServer(["--cert", certificate.cert, "--key", certificate.key]), certificate)
    }
}

/// The HTTPS server of `Servers/h2_server.py` (Debian's python3-hypercorn): HTTP/2 offered
/// by ALPN, 200 to everything.
public final class HTTP2Server: ScriptServer, @unchecked Sendable {
    public init(certificate: Certificate, folder: URL? = nil) throws {
        try super.init(script: "h2_server.py", ["--cert", certificate.cert, "--key", certificate.key], folder: folder, needs: "python3-hypercorn")
    }

    /// Every request received: path, version (`"2"`, `"1.1"`), peer.
    public func requests() throws -> [[String: Any]] { try log() }
}

/// The reverse proxy of `Servers/prefix_proxy.py` (Python's http.server): `chime serve`
/// at `upstream` served under `prefix`, as behind nginx's `location /prefix/`.
public final class PrefixProxy: ScriptServer, @unchecked Sendable {
    public init(prefix: String, upstream: Int, folder: URL? = nil) throws {
        try super.init(script: "prefix_proxy.py", ["--prefix", prefix, "--upstream", "\(upstream)"], folder: folder, needs: "python3")
    }

    /// Every request received: method, path, upstream (the path forwarded, or null), status.
    public func requests() throws -> [[String: Any]] { try log() }
}

/// What a started process wrote on `pipe` up to its first newline (or its end): the
/// line servers print once they listen (`port N`, `listening on http://HOST:PORT`).
public func firstLine(of pipe: Pipe) -> String {
    var line = Data()
    while !line.contains(0x0A) {
        let chunk = pipe.fileHandleForReading.availableData
        guard !chunk.isEmpty else { break }
        line += chunk
    }
    return String(decoding: line, as: UTF8.self)
}
