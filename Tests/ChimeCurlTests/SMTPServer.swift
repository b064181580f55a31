import Foundation

/// The scriptable SMTP server of `Servers/smtp_server.py` (Debian's python3-aiosmtpd) on
/// 127.0.0.1 with an ephemeral port; it stops when this value goes (its stdin closes).
final class SMTPServer {
    let port: Int
    let folder: URL
    private let process: Process
    private let input = Pipe()

    /// A self-signed certificate for 127.0.0.1, made by openssl for one test.
    struct Certificate {
        var cert: String
        var key: String
    }

    static func certificate(in folder: URL) throws -> Certificate {
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

    init(_ arguments: [String] = [], folder: URL? = nil) throws {
        self.folder = folder ?? FileManager.default.temporaryDirectory.appendingPathComponent("chime-smtp-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: self.folder, withIntermediateDirectories: true)
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Servers/smtp_server.py").path
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = ["-u", script, "--log", self.folder.appendingPathComponent("log.jsonl").path] + arguments
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
        guard let text = String(data: line, encoding: .utf8), text.hasPrefix("port "), let port = Int(text.dropFirst(5).trimmingCharacters(in: .whitespacesAndNewlines)) else {
            process.terminate()
            throw CocoaError(.fileReadCorruptFile, userInfo: [NSLocalizedDescriptionKey: "the SMTP server did not start (is python3-aiosmtpd installed?)"])
        }
        self.port = port
    }

    deinit {
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
        try? FileManager.default.removeItem(at: folder)
    }

    /// What the server accepted: one object per message.
    func messages() throws -> [[String: Any]] {
        let path = folder.appendingPathComponent("log.jsonl").path
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return [] }
        return try text.split(separator: "\n").map { try JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any] }
    }
}
