import Foundation

/// Python's `http.server`, started on 127.0.0.1 with an ephemeral port, serving a
/// temporary folder; stopped when the value goes.
final class StaticHTTPServer {
    let root: URL
    let port: Int
    private let process: Process

    init() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("chime-http-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        process = Process()
        let python = ["/usr/bin/python3", "/usr/local/bin/python3"].first { FileManager.default.isExecutableFile(atPath: $0) } ?? "python3"
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [python, "-u", "-m", "http.server", "0", "--bind", "127.0.0.1", "--directory", root.path]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        // "Serving HTTP on 127.0.0.1 port 40123 (http://127.0.0.1:40123/) ..."
        var seen = ""
        let handle = output.fileHandleForReading
        while !seen.contains("\n") {
            let chunk = handle.availableData
            guard !chunk.isEmpty else { break }
            seen += String(decoding: chunk, as: UTF8.self)
        }
        guard let range = seen.range(of: #"port (\d+)"#, options: .regularExpression),
              let port = Int(seen[range].dropFirst("port ".count)) else {
            kill(process.processIdentifier, SIGKILL)
            throw CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "http.server did not start: \(seen)"])
        }
        self.port = port
    }

    deinit {
        // SIGKILL: a child started by Foundation's Process may not answer SIGTERM.
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        try? FileManager.default.removeItem(at: root)
    }
}
