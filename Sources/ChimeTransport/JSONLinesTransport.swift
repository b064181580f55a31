import ChimeCore
import Foundation

/// Appends one JSON object per notification to a file (`file:PATH`): for scripts, logs,
/// and a cheap local sink. Each line is one `write` on a file opened for appending, so
/// lines from two processes never interleave.
public final class JSONLinesTransport: Transport {
    /// One line, in a documented shape.
    struct Line: Encodable {
        var deliveryID: String
        var identifier: String
        var recipient: String
        var channel: String
        var address: String
        var fireDate: Instant
        var coalesced: Int
        var content: NotificationContent
    }

    private let descriptor: Int32
    private let encoder: JSONEncoder

    public init(path: String) throws {
        let directory = (path as NSString).deletingLastPathComponent
        if !directory.isEmpty {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        }
        descriptor = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw TransportError.system("open \(path)") }
        encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    }

    deinit {
        close(descriptor)
    }

    public func deliver(_ notification: OutgoingNotification) throws {
        let line = Line(
            deliveryID: notification.deliveryID, identifier: notification.request.identifier,
            recipient: notification.recipient.id, channel: notification.channel.id, address: notification.address.value,
            fireDate: notification.fireDate, coalesced: notification.coalesced, content: notification.request.content)
        var bytes = Array(try encoder.encode(line))
        bytes.append(0x0A)
        try FileWriter.writeAll(bytes, to: descriptor, path: "the file of channel \(notification.channel.id)")
    }
}
