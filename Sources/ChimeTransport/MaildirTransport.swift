import ChimeCore
import Foundation

/// Delivers each notification as an RFC 5322 message into a Maildir.
public final class MaildirTransport: Transport {
    public let folder: MaildirFolder
    private let renderer: any MessageRenderer

    /// Opens the Maildir at `path`, creating `tmp/`, `new/` and `cur/` when missing.
    public init(path: String, renderer: any MessageRenderer) throws {
        self.renderer = renderer
        folder = try MaildirFolder(path: path)
    }

    public func deliver(_ notification: OutgoingNotification) throws {
        try folder.add(Array(try renderer.email(notification).utf8))
    }
}
