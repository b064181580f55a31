import ChimeCore
import ChimeLocalization
import ChimeMIME
import ChimeRendering
import ChimeTestSupport
import ChimeTransport
import Foundation
import Testing

@Suite("Local transports")
struct TransportTests {
    private let directory = FileManager.default.temporaryDirectory.appendingPathComponent("chime-transport-\(UUID().uuidString)")

    private func notification(_ channel: Channel) -> OutgoingNotification {
        OutgoingNotification(
            request: NotificationRequest(identifier: "n1", recipient: "alice",
                                         content: NotificationContent(title: "Übung", body: String(repeating: "long line ", count: 12) + "é"),
                                         trigger: .timeInterval(seconds: 60, repeats: false)),
            recipient: Recipient(id: "alice", timeZone: "Europe/Paris"),
            address: .init(channel: channel.id, value: "alice@example.org"), channel: channel,
            fireDate: Instant(seconds: 1_795_251_600), deliveryID: "d1.1795251600", coalesced: 0)
    }

    /// The renderer `chime run` uses, with the project's templates.
    private func renderer(_ channel: Channel) throws -> TemplateRenderer {
        let templates = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("templates").path
        let configuration = Configuration(categories: [], channels: [channel], recipients: [])
        return TemplateRenderer(composer: EmailComposer(localizer: try Localizer(directory: templates), templates: try TemplateSet(directory: templates)),
                                configuration: configuration)
    }

    @Test("Maildir: one message in new/, nothing left in tmp/, the rendered message as it is")
    func maildir() throws {
        let channel = Channel(id: "box", url: try ChannelURL(parsing: "maildir:\(directory.path)"), from: "Rappels <bot@example.org>")
        try MaildirTransport(path: channel.url.path, renderer: try renderer(channel)).deliver(notification(channel))
        let new = try FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent("new").path)
        #expect(new.count == 1)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent("tmp").path).isEmpty)
        let message = try String(contentsOf: directory.appendingPathComponent("new").appendingPathComponent(new[0]), encoding: .utf8)
        #expect(message.hasPrefix("Date: Sat, 21 Nov 2026 10:00:00 +0100\nFrom: Rappels <bot@example.org>\nTo: alice@example.org\n"))
        #expect(message.contains("\nMessage-ID: <d1.1795251600@example.org>\n"))
        let parsed = try #require(ParsedMail(bytes: Array(message.utf8)))
        #expect(parsed.warnings == [])
        #expect(parsed.header("Subject") == "Übung")
        #expect(parsed.part("text/plain")?.text?.contains(String(repeating: "long line ", count: 12) + "é") == true)
        #expect(try strictlyParsed(message)["error"] == nil)
        try FileManager.default.removeItem(at: directory)
    }

    @Test("a Maildir or JSON-lines file under a regular file is refused naming the folder and the system's reason, not Foundation's 'Code=512 (null)'")
    func folderUnderAFile() throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("afile")
        try Data("x".utf8).write(to: file)
        let channel = Channel(id: "box", url: try ChannelURL(parsing: "maildir:\(file.path)/outbox"), from: "bot@example.org")
        do {
            _ = try MaildirTransport(path: channel.url.path, renderer: try renderer(channel))
            Issue.record("a Maildir was made under a file")
        } catch {
            #expect("\(error)" == "create the folder \(file.path)/outbox: Not a directory", "\(error)")
        }
        do {
            _ = try JSONLinesTransport(path: file.path + "/log/sent.jsonl", renderer: try renderer(channel))
            Issue.record("a JSON-lines file was made under a file")
        } catch {
            #expect("\(error)" == "create the folder \(file.path)/log: Not a directory", "\(error)")
        }
    }

    @Test("JSON lines: one object per line, appended")
    func jsonLines() throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = directory.appendingPathComponent("out.jsonl").path
        let channel = Channel(id: "log", url: try ChannelURL(parsing: "file:\(path)"))
        let transport = try JSONLinesTransport(path: path, renderer: try renderer(channel))
        try transport.deliver(notification(channel))
        try transport.deliver(notification(channel))
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 2)
        let object = try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any]
        #expect(object?["deliveryID"] as? String == "d1.1795251600")
        #expect(object?["fireDate"] as? String == "2026-11-21T09:00:00Z")
        // The rendered message, as a json:// webhook receives it.
        let payload = object?["payload"] as? [String: Any]
        #expect(payload?["title"] as? String == "Übung")
        #expect(payload?["date"] as? String == "Saturday, November 21 at 10:00\u{202F}AM")
        try FileManager.default.removeItem(at: directory)
    }

    @Test("a line a killed run cut short is ended by the next writer, so it stands alone and the next line is whole")
    func cutLineEnded() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("chime-cut-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("out.jsonl").path
        try Data(#"{"whole":1}"#.utf8 + [0x0A] + #"{"identifier":"cut sh"#.utf8).write(to: URL(fileURLWithPath: path))
        let channel = Channel(id: "log", url: try ChannelURL(parsing: "file:\(path)"))
        try JSONLinesTransport(path: path, renderer: try renderer(channel)).deliver(notification(channel))
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 4 && lines[3].isEmpty, "three lines, each ended")
        #expect(lines[1] == #"{"identifier":"cut sh"#)
        let object = try JSONSerialization.jsonObject(with: Data(lines[2].utf8)) as? [String: Any]
        #expect(object?["deliveryID"] as? String == "d1.1795251600")
        // A file that ends whole is left as it is.
        try JSONLinesTransport(path: path, renderer: try renderer(channel)).deliver(notification(channel))
        #expect(try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false).count == 5)
    }
}
