import Foundation
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
    ///
    /// One process at a time reads a mailbox: the ChimeFetching mark guards against a
    /// run killed midway, not against another reading the same messages (every worker of
    /// `chime serve` fetches on the minute, and cron may too), which answered each reply
    /// twice. The mailbox is held in the store (``CoordinationStore/hold(_:at:abandonedAfter:)``);
    /// a run that finds it held leaves it to the holder. A message handled but not moved
    /// (a `moveTo` the server refuses) is said on standard error and the others are still
    /// taken; the run then fails.
    /// - Returns: false when another process holds the mailbox (nothing was done).
    /// - Throws: ``CurlError`` when the mailbox cannot be reached, or a message could not be
    ///   fetched (the others are still taken) or moved; `RuntimeFailure(75)` when a message could not be recorded now (it is left
    ///   unseen for the next time).
    @discardableResult
    public func fetch(from channel: Channel, say: (String) -> Void) throws -> Bool {
        let store = actions.store
        let hold = "fetch " + channel.id
        guard let token = try store.hold(hold, at: Instant(Date()), abandonedAfter: Self.fetchAbandonedAfter) else {
            Self.logger.info("left to the process reading it", metadata: ["channel.id": .string(channel.id)])
            return false
        }
        // Given back only while it is this run's: one taken over (this run took longer than
        // fetchAbandonedAfter) is the other run's.
        defer { try? store.letGo(hold, token: token) }
        let client = try IMAPClient(channel.mailServer, mailbox: channel.url.mailbox)
        let keyword = Self.fetchingKeyword
        let limit = reader.configuration.replies.maxMessageSize
        var notMoved: (any Error)?, notFetched: (any Error)?, failingInARow = 0, deferred = false
        for uid in try client.search("OR UNSEEN KEYWORD \(keyword)") {
            // Renewed at each message, so that a long fetch is not taken for abandoned; if
            // another run took it over all the same, the rest is left to that run.
            let renewed: Bool
            do {
                renewed = try store.renew(hold, token: token, at: Instant(Date()))
            } catch {
                printError("\(channel.id): the mailbox's hold could not be renewed (the store failed), the rest is left for the next run: \(printableError(error))")
                throw RuntimeFailure(75)
            }
            guard renewed else {
                printError("\(channel.id): taken over by another process (this fetch ran past \(Self.fetchAbandonedAfter) s): the rest is left to it")
                break
            }
            // A server without keywords still gets its messages read, without that guard.
            try? client.mark(uid, [keyword])
            // Over the size limit, it is recorded as too large without being fetched, or
            // from the bytes fetched once they pass it.
            let size = (try? client.size(uid: uid)) ?? nil
            let tooLarge = size.map { $0 > limit } ?? false
            let bytes: [UInt8]?
            do {
                bytes = tooLarge ? nil : try client.fetch(uid: uid, limit: limit)
                failingInARow = 0
            } catch {
                // One message the server fails to send (unreadable on its disk, too slow
                // for the timeout) is left for the next run, unread, and the others are
                // still taken: it came first in every run, and held every reply after it.
                // Three failing in a row are the server's trouble, not a message's.
                printError("\(channel.id):\(uid): could not be fetched, left unseen for the next run: \(reader.configuration.redact("\(error)"))")
                try? client.mark(uid, ["\\Seen"], add: false)
                notFetched = notFetched ?? error
                failingInARow += 1
                if failingInARow == 3 { break }
                continue
            }
            do {
                say(try takeOrDefer(bytes, size: bytes?.count ?? max(size ?? 0, limit + 1), named: "\(channel.id):\(uid)"))
            } catch is InFlight {
                // Left unseen for the next run; the others still taken.
                try? client.mark(uid, ["\\Seen", keyword], add: false)
                deferred = true
                continue
            } catch {
                // Left unseen, unmarked: the next run tries it again.
                try? client.mark(uid, ["\\Seen", keyword], add: false)
                throw error
            }
            try client.mark(uid, ["\\Seen"])
            try? client.mark(uid, [keyword], add: false)
            if let folder = channel.moveTo {
                do {
                    try client.move(uid, to: folder)
                } catch {
                    printError("\(channel.id):\(uid): handled, but not moved to \(folder): \(reader.configuration.redact("\(error)"))")
                    notMoved = notMoved ?? error
                }
            }
        }
        if let error = notFetched ?? notMoved { throw error }
        if deferred { throw RuntimeFailure(75) }
        return true
    }

    /// Seconds after which a mailbox held by a process that died is read by another.
    public static let fetchAbandonedAfter: Int64 = 600
}
