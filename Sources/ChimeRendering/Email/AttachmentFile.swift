import ChimeCore
import ChimeMIME
import Foundation

/// The files of a request's `attachments`, read for an email. `chime schedule` stores
/// each path absolute, after checking the file; a file gone by the time the reminder
/// fires stops its rendering (the reminder is held, and said so) rather than going out
/// without what it promised.
public enum AttachmentFile {
    /// What one email may carry per attachment.
    public static let maximumBytes = 10 * 1024 * 1024

    /// Why a file cannot be attached.
    public struct Problem: Error, CustomStringConvertible {
        public var identifier: String
        public var path: String
        public var reason: String
        public var description: String { "attachment \"\(identifier)\": \(path): \(reason)" }
    }

    /// Checks that a file can be attached; the reason it cannot otherwise.
    public static func check(_ path: String) -> String? {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return "no such file" }
        guard !isDirectory.boolValue else { return "a directory, not a file" }
        guard FileManager.default.isReadableFile(atPath: path) else { return "not readable" }
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        guard size <= maximumBytes else { return "\(size) bytes, over the \(maximumBytes / 1024 / 1024) MiB an email attachment may have" }
        return nil
    }

    /// The attachment as the email carries it: the file's bytes, its name, its type.
    /// The file is read once; only when that fails, or gives too much, is it looked at
    /// again to say why.
    public static func read(_ attachment: NotificationContent.Attachment) throws -> MailMessage.Attachment {
        // Read no further than the bound: a file that grew past it is not read whole.
        let data: [UInt8]
        do {
            data = try BoundedFile.read(attachment.path, atMost: maximumBytes)
        } catch {
            throw Problem(identifier: attachment.identifier, path: attachment.path, reason: check(attachment.path) ?? error.reason)
        }
        let name = (attachment.path as NSString).lastPathComponent
        var type = contentType(of: name)
        // A text part that names no charset is US-ASCII (RFC 2046): a file of UTF-8 says
        // so, or its accents were read as other characters ("Grüße" as "Gr����e").
        if type.hasPrefix("text/"), data.contains(where: { $0 >= 0x80 }), String(validating: data, as: UTF8.self) != nil {
            type += "; charset=utf-8"
        }
        return MailMessage.Attachment(filename: name, contentType: type, data: data)
    }

    /// The media type of a file name's extension, for the kinds iOS attaches (images,
    /// audio, video) and a few documents; `application/octet-stream` otherwise. A table
    /// written here: neither Foundation on Linux nor a linked library offers one.
    public static func contentType(of name: String) -> String {
        let types = [
            "jpg": "image/jpeg", "jpeg": "image/jpeg", "png": "image/png", "gif": "image/gif", "heic": "image/heic",
            "webp": "image/webp", "svg": "image/svg+xml", "mp3": "audio/mpeg", "m4a": "audio/mp4", "aiff": "audio/aiff",
            "wav": "audio/wav", "mp4": "video/mp4", "m4v": "video/mp4", "mov": "video/quicktime", "pdf": "application/pdf",
            "txt": "text/plain", "csv": "text/csv", "ics": "text/calendar", "json": "application/json", "zip": "application/zip",
        ]
        return types[(name as NSString).pathExtension.lowercased()] ?? "application/octet-stream"
    }
}
