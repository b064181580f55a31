import ChimeCore
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

    @Test("Maildir: one message in new/, nothing left in tmp/, headers and quoted-printable body")
    func maildir() throws {
        let channel = Channel(id: "box", url: try ChannelURL(parsing: "maildir:\(directory.path)"), from: "Rappels <bot@example.org>")
        try MaildirTransport(path: channel.url.path).deliver(notification(channel))
        let new = try FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent("new").path)
        #expect(new.count == 1)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent("tmp").path).isEmpty)
        let message = try String(contentsOf: directory.appendingPathComponent("new").appendingPathComponent(new[0]), encoding: .utf8)
        #expect(message.hasPrefix("Date: Sat, 21 Nov 2026 10:00:00 +0100\nFrom: Rappels <bot@example.org>\nTo: alice@example.org\nSubject: =?UTF-8?B?w5xidW5n?=\nMessage-ID: <d1.1795251600@example.org>\n"))
        #expect(message.contains("Content-Transfer-Encoding: quoted-printable\n"))
        // Soft line breaks keep lines within 76 characters; é is =C3=A9.
        #expect(message.hasSuffix("\n\nlong line long line long line long line long line long line long line long =\nline long line long line long line long line =C3=A9\n"))
        try FileManager.default.removeItem(at: directory)
    }

    @Test("JSON lines: one object per line, appended")
    func jsonLines() throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = directory.appendingPathComponent("out.jsonl").path
        let channel = Channel(id: "log", url: try ChannelURL(parsing: "file:\(path)"))
        let transport = try JSONLinesTransport(path: path)
        try transport.deliver(notification(channel))
        try transport.deliver(notification(channel))
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 2)
        let object = try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any]
        #expect(object?["deliveryID"] as? String == "d1.1795251600")
        #expect(object?["fireDate"] as? String == "2026-11-21T09:00:00Z")
        try FileManager.default.removeItem(at: directory)
    }
}
