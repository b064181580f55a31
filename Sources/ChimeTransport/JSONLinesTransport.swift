import ChimeCore
import Foundation

/// Appends one JSON object per notification to a file (`file:PATH`): for scripts, logs,
/// and a cheap local sink. Each line is one `write` on a file opened for appending, so
/// lines from two processes never interleave. A run killed inside that `write` can leave
/// its line cut short (the kernel checks for the kill between pages); the next writer to
/// open the file ends such a line first, so the cut line stands alone instead of spoiling
/// the next (the notification itself is written again whole by the next run).
///
/// A line holds `channel`, `address`, `coalesced`, `deliveryID`, `fireDate`,
/// `identifier`, `payload` (the rendered generic JSON message, as a `json://` webhook
/// receives it), `recipient` and `request` (the request as scheduled), keys sorted.
public final class JSONLinesTransport: Transport {
    private let descriptor: Int32
    private let encoder: JSONEncoder
    private let renderer: any MessageRenderer

    /// How a request the store does not hold as JSON is written: keys sorted.
    private static func requestEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    public init(path: String, renderer: any MessageRenderer) throws {
        self.renderer = renderer
        encoder = Self.requestEncoder()
        let directory = (path as NSString).deletingLastPathComponent
        if !directory.isEmpty {
            try FileWriter.makeFolder(directory)
        }
        descriptor = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw TransportError.system("open \(path)") }
        try endCutLine(path: path)
    }

    /// Ends a last line a killed writer left without its newline. (A line another live
    /// writer is appending at this moment gets an empty line after it, which readers of
    /// JSON lines skip.)
    private func endCutLine(path: String) throws {
        // Only a regular file has a last line to look at (a FIFO's reader has taken it).
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG, status.st_size > 0 else { return }
        let reader = open(path, O_RDONLY | O_CLOEXEC)
        guard reader >= 0 else { return }
        defer { close(reader) }
        var last: UInt8 = 0
        guard pread(reader, &last, 1, status.st_size - 1) == 1, last != UInt8(ascii: "\n") else { return }
        try FileWriter.writeAll([UInt8(ascii: "\n")], to: descriptor, path: path)
    }

    deinit {
        close(descriptor)
    }

    public func deliver(_ notification: OutgoingNotification) throws {
        try FileWriter.writeAll(try Self.line(for: notification, renderer: renderer, encoder: encoder), to: descriptor,
                                path: "the file of channel \(notification.channel.id)")
    }

    /// The line written for a notification, its newline included (what `chime preview`
    /// shows for a `file:` channel).
    public static func line(for notification: OutgoingNotification, renderer: any MessageRenderer) throws -> [UInt8] {
        try line(for: notification, renderer: renderer, encoder: requestEncoder())
    }

    private static func line(for notification: OutgoingNotification, renderer: any MessageRenderer, encoder: JSONEncoder) throws -> [UInt8] {
        // Built by hand around the request's JSON, which the store already holds: encoding
        // the whole notification again was most of the cost of a run.
        let request = try notification.encodedRequest ?? String(decoding: encoder.encode(notification.request), as: UTF8.self)
        // As bytes throughout: the rendered payload arrives as bytes and goes out as them.
        var line: [UInt8] = []
        line.reserveCapacity(4_096)
        line += "{\"address\":".utf8
        JSONValue.writeString(notification.address.value, to: &line)
        line += ",\"channel\":".utf8
        JSONValue.writeString(notification.channel.id, to: &line)
        line += ",\"coalesced\":\(notification.coalesced)".utf8
        line += ",\"deliveryID\":".utf8
        JSONValue.writeString(notification.deliveryID, to: &line)
        line += ",\"fireDate\":\"\(notification.fireDate)\"".utf8
        line += ",\"identifier\":".utf8
        JSONValue.writeString(notification.request.identifier, to: &line)
        line += ",\"payload\":".utf8
        line += try renderer.payload(notification)
        line += ",\"recipient\":".utf8
        JSONValue.writeString(notification.recipient.id, to: &line)
        line += ",\"request\":".utf8
        line += request.utf8
        line += "}\n".utf8
        return line
    }
}
