import Foundation

/// A temporary folder with a `chime.xml`, where `chime` runs as a user would run it.
final class Workspace: @unchecked Sendable { // immutable after init
    let url: URL

    init(configuration: String = Workspace.defaultConfiguration) throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("chime-ws-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        try write("chime.xml", configuration)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    func write(_ name: String, _ text: String) throws {
        try text.write(to: url.appendingPathComponent(name), atomically: true, encoding: .utf8)
    }

    /// An empty Maildir here (its `new`, `cur` and `tmp`), as a mail server delivers to.
    @discardableResult
    func maildir(_ name: String) throws -> URL {
        let box = url.appendingPathComponent(name)
        for folder in ["new", "cur", "tmp"] {
            try FileManager.default.createDirectory(at: box.appendingPathComponent(folder), withIntermediateDirectories: true)
        }
        return box
    }

    func read(_ name: String) throws -> String {
        try String(contentsOf: url.appendingPathComponent(name), encoding: .utf8)
    }

    func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    /// Runs `chime` here, with `--now` when given and `input` (a file of this folder) as
    /// standard input.
    @discardableResult
    func chime(_ arguments: [String], now: String? = nil, input: String? = nil, environment: [String: String] = [:],
               timeout: TimeInterval = 120) throws -> ChimeProcess.Result {
        try ChimeProcess.run(arguments + (now.map { ["--now", $0] } ?? []), in: url, environment: environment,
                             input: input.map { url.appendingPathComponent($0) }, timeout: timeout)
    }

    /// The JSON lines the `file:` channel wrote, decoded.
    func lines(_ name: String = "sent.jsonl") throws -> [[String: Any]] {
        let (lines, cut) = try linesAndCut(name)
        guard cut == 0 else { throw CocoaError(.fileReadCorruptFile) }
        return lines
    }

    /// The file's JSON lines, and how many lines were not JSON (cut short by a kill).
    func linesAndCut(_ name: String = "sent.jsonl") throws -> (lines: [[String: Any]], cut: Int) {
        guard FileManager.default.fileExists(atPath: path(name)) else { return ([], 0) }
        var lines: [[String: Any]] = [], cut = 0
        for line in try read(name).split(separator: "\n") {
            if let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] { lines.append(object) } else { cut += 1 }
        }
        return (lines, cut)
    }

    /// alice in Paris on a JSON-lines channel; bob in New York with a pending limit of 2;
    /// carol on a Maildir.
    static let defaultConfiguration = """
        <chime version="1">
          <categories>
            <category identifier="reminder">
              <action identifier="done" title="Done"/>
            </category>
          </categories>
          <channels>
            <channel id="log" url="file:./sent.jsonl"/>
            <channel id="box" url="maildir:./outbox"/>
          </channels>
          <recipients>
            <recipient id="alice" timeZone="Europe/Paris"><address channel="log"/></recipient>
            <recipient id="bob" timeZone="America/New_York" pendingLimit="2"><address channel="log"/></recipient>
            <recipient id="carol" timeZone="UTC"><address channel="box">carol@example.org</address></recipient>
          </recipients>
        </chime>
        """
}
