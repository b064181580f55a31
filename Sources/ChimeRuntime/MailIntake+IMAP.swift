import ChimeCore
import ChimeCurl
import ChimeDelivery

/// How `chime fetch` and each minute of `chime serve` take replies from an IMAP mailbox.
extension MailIntake {
    /// The keyword a message carries from just before it is fetched until it is handled.
    static let fetchingKeyword = "ChimeFetching"

    /// Handles every unseen message of one mailbox, and those a killed run left marked:
    /// each taken as `chime ingest` takes one, then flagged \Seen (or moved to the
    /// channel's moveTo mailbox); `say` gets the line saying what became of it.
    /// - Throws: ``CurlError`` when the mailbox cannot be reached; `RuntimeFailure(75)` when a
    ///   message could not be recorded now (it is left unseen for the next time).
    public func fetch(from channel: Channel, say: (String) -> Void) throws {
        let client = try IMAPClient(channel.mailServer, mailbox: channel.url.mailbox)
        let keyword = Self.fetchingKeyword
        let limit = reader.configuration.replies.maxMessageSize
        for uid in try client.search("OR UNSEEN KEYWORD \(keyword)") {
            // A server without keywords still gets its messages read, without that guard.
            try? client.mark(uid, [keyword])
            // Over the size limit, it is recorded as too large without being fetched.
            let size = (try? client.size(uid: uid)) ?? nil
            let tooLarge = size.map { $0 > limit } ?? false
            let bytes = tooLarge ? nil : try client.fetch(uid: uid)
            do {
                say(try take(bytes, size: bytes?.count ?? size ?? 0, named: "\(channel.id):\(uid)"))
            } catch {
                // Left unseen, unmarked: the next run tries it again.
                try? client.mark(uid, ["\\Seen", keyword], add: false)
                throw error
            }
            try client.mark(uid, ["\\Seen"])
            try? client.mark(uid, [keyword], add: false)
            if let folder = channel.moveTo { try client.move(uid, to: folder) }
        }
    }
}
