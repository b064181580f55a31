import ChimeConfig
import ChimeCore
import ChimeReply
import ChimeLocalization
import ChimeRendering
import ChimePostgres
import ChimeScheduler
import ChimeSQLite
import Crypto
import Foundation

extension Runtime {
    /// Opens the store named by `--store`: `sqlite:PATH` or a bare path, or
    /// `postgres://…` / `postgresql://…`. Fails as ``StoreFailure`` or
    /// ``PostgresStoreFailure`` says when it cannot be opened or created (73 mostly, 75
    /// for a PostgreSQL server that cannot be reached now), 64 for a URL it cannot read or
    /// a kind this version does not have; never with the URL's password.
    /// - Parameter existing: the command only reads or changes what is stored (`pending`,
    ///   `failed`, `cancel`…): a SQLite file that does not exist is not created but
    ///   refused with 66, since a mistyped `--store` would otherwise be an empty new store,
    ///   and "nothing failed" the answer.
    public func openStore(existing: Bool = false) throws -> any NotificationStore {
        let url = storeURL
        if PostgresURL.isMalformedPostgres(url) {
            // Not a path: as one, the URL (and its password) was printed in the error, or a
            // SQLite file made in a folder that happened to exist.
            printError("--store: a PostgreSQL URL begins postgres:// or postgresql://, and this one does not (not shown: it may hold a password)")
            throw RuntimeFailure(64)
        }
        if PostgresURL.isPostgres(url) {
            openedStorePath = (try? PostgresURL(url).description) ?? "the PostgreSQL store"
            do {
                return try PostgresStore(url)
            } catch let failure as PostgresStoreFailure {
                printError(failure.exitCode == 64 ? "--store: \(failure.explanation)" : failure.description)
                throw RuntimeFailure(failure.exitCode)
            }
        }
        guard let path = Self.sqlitePath(of: url) else {
            printError("--store: \"\(url.split(separator: ":").first ?? "")\" stores are not available in this version (use sqlite:PATH or postgres://…)")
            throw RuntimeFailure(64)
        }
        guard !path.isEmpty, path != ":memory:", !path.hasPrefix("file:") else {
            // SQLite would open a temporary database and everything stored would be lost.
            printError("--store: give the path of a SQLite file, as in sqlite:./chime.sqlite")
            throw RuntimeFailure(64)
        }
        openedStorePath = path
        if existing, !FileManager.default.fileExists(atPath: path) {
            printError("--store: no store at \(path) (chime schedule or chime run makes one there; is --store or $CHIME_STORE right?)")
            throw RuntimeFailure(66)
        }
        do {
            return try SQLiteStore(path: path)
        } catch let failure as StoreFailure {
            printError(failure.description)
            throw RuntimeFailure(failure.exitCode)
        }
    }

    /// The SQLite file a store URL names (`sqlite:PATH`, or a bare path), or nil when it
    /// names another kind of store (`postgres://…`, any `SCHEME://`) or is a PostgreSQL
    /// URL missing its `//` (``PostgresURL/isMalformedPostgres(_:)``), never a path.
    public static func sqlitePath(of url: String) -> String? {
        if url.hasPrefix("sqlite:") { return String(url.dropFirst("sqlite:".count)) }
        return url.contains("://") || PostgresURL.isMalformedPostgres(url) ? nil : url
    }

    /// The configuration and the store, ready to schedule and fire, with floating requests
    /// of recipients who moved already following them.
    /// - Parameter existing: as ``openStore(existing:)``'s.
    public func openScheduler(followMoves: Bool = true, existing: Bool = false) throws -> Scheduler {
        // The configuration first: a command run in the wrong folder says so, and leaves
        // no store of its own there.
        let configuration = try loadConfiguration()
        let scheduler = try scheduler(configuration: configuration, store: try openStore(existing: existing))
        if followMoves { try scheduler.followMovedRecipients(now: now ?? Instant(Date())) }
        return scheduler
    }

    /// What `chime run` fires with; nil when a run at `now` has nothing to do, which the
    /// store says in one read before the configuration is loaded: nothing due, claimed,
    /// queued or waiting (``RunOutlook``), and the floating requests following the
    /// recipients' zones of a file with the same bytes. Most cron ticks end there, without
    /// reading and checking the whole configuration; a file that changed is loaded, and
    /// its mistakes reported, at the next tick.
    public func schedulerForRun(now: Instant) throws -> Scheduler? {
        let bytes = try readConfiguration()
        let store = try openStore()
        let fingerprint = Self.fingerprint(of: bytes)
        let outlook = try store.runOutlook(now: now)
        if !outlook.hasWork, outlook.followedConfiguration == fingerprint { return nil }
        let configuration = try loadConfiguration(bytes: bytes)
        var scheduler = try scheduler(configuration: configuration, store: store)
        // Recipients and zones read from the environment or a file may change while the
        // bytes do not.
        if !configuration.recipientsReadIndirectly, outlook.followedConfiguration != fingerprint {
            scheduler.followingConfiguration = fingerprint
        }
        return scheduler
    }

    /// The fingerprint of a configuration file's bytes as this `chime` reads them: a
    /// `chime` installed since (another size or time of its binary) may read the same
    /// bytes otherwise, and loads the file at its first tick.
    static func fingerprint(of bytes: [UInt8]) -> String {
        var hash = SHA256()
        hash.update(data: bytes)
        var binary = stat()
        if stat("/proc/self/exe", &binary) == 0 {
            hash.update(data: Array("\u{0}\(binary.st_size) \(binary.st_mtim.tv_sec).\(binary.st_mtim.tv_nsec)".utf8))
        }
        return "sha256:" + Hex.string(hash.finalize())
    }

    /// A scheduler of a configuration read from its file over a store: what `chime run`,
    /// `chime digest` and each round of `chime serve` fire with.
    public func scheduler(configuration xml: Configuration, store: any NotificationStore) throws -> Scheduler {
        try checkSigningKey()
        // Each recipient as they set themselves on the preferences page, over the XML.
        let configuration = xml.applying(try store.recipientSettings())
        // Read the templates only when a message is rendered: a run with nothing due, or
        // with only JSON-lines channels, does not pay for them.
        var scheduler = Scheduler(configuration: configuration, store: store,
                                  renderer: LazyRenderer { try templateRenderer(configuration: configuration, store: store) })
        // SMTP's envelope sender carries a token for the one address each message goes to
        // (VERP): the key is read only when a message is sent.
        let links = LazyLinks { SignedLinks(key: try signingKey(store), base: configuration.replies.linkBase) }
        scheduler.returnPathToken = { links.made?.bounceToken(deliveryID: $0, recipient: $1, address: $2, now: $3) }
        return scheduler
    }
}

/// The store this process opened: named in what a store failure later says.
nonisolated(unsafe) public var openedStorePath = "the store"

/// Signed links made on first use, once; nil when the key cannot be read (the sending
/// then goes on with the channel's plain envelope sender).
final class LazyLinks: Sendable {
    private let links: Lazily<SignedLinks?>

    init(_ make: @escaping () throws -> SignedLinks) {
        links = Lazily { try? make() }
    }

    var made: SignedLinks? { links.value }
}
