import ChimeCore
import Dispatch
import Foundation
import Logging
import PostgresNIO

/// The store many Chime workers on many machines share: PostgreSQL through PostgresNIO,
/// with the SQLite store's tables and column names (so `chime store copy` moves a
/// deployment table by table), and every claim safe under READ COMMITTED with any number
/// of writers, where SQLite's are safe because it has one.
///
/// Synchronous, as every store is (why: ``NotificationStore``): each call runs its queries
/// on PostgresNIO's event loops and waits for them on the calling thread. That thread must
/// never be one of those loops (it would wait for itself), nor one of Swift's cooperative
/// threads (there are as many as cores, and a waiting one is lost to every task until the
/// answer comes): the cron commands call from their main thread, `chime serve` from its
/// blocking pool and its Dispatch queues. A `PostgresClient` (the connection pool) runs
/// in a background task for the store's lifetime; each call leases a connection from it.
/// Those tasks run on ``StoreExecutor``'s threads, so a caller that does block a
/// cooperative thread (a test function does) still gets its answer.
public final class PostgresStore: NotificationStore, StoreMigrating {
    /// The migrations opening this store ran (none when it was up to date).
    public let migrationsRun: [String]
    let url: PostgresURL
    let client: PostgresClient
    let logger: Logger
    private let running: Task<Void, Never>
    let listeners = Listeners()

    /// Connects to the server named by `url`, runs the migrations it lacks (once, under an
    /// advisory lock, however many processes start together), and starts the pool.
    /// - Throws: ``PostgresStoreFailure`` saying what is wrong and what to do.
    public init(url: PostgresURL, logger: Logger = Logger(label: "chime.postgres")) throws {
        self.url = url
        // Never below debug: at trace, PostgresNIO logs every message of the wire, the rows
        // read among them, and the signing key with them (`--log-level trace` put it in
        // the journal). Its debug records are the connections' comings and goings.
        let logger = Self.atMostDebug(logger)
        self.logger = logger
        let configuration: PostgresClient.Configuration
        let first: PostgresConnection.Configuration
        do {
            (configuration, first) = try url.configurations()
        } catch {
            throw PostgresStoreFailure(error, url: url)
        }
        // The first connection outside the pool: the pool retries a server it cannot reach
        // for a minute before it fails a call, where a command should say at once that the
        // server is down, or that it refused the password.
        migrationsRun = try Self.wait(url: url) {
            let connection = try await PostgresConnection.connect(configuration: first, id: 0, logger: logger)
            do {
                let ran = try await Self.migrate(connection, logger: logger)
                try await connection.close()
                return ran
            } catch {
                try? await connection.close()
                throw error
            }
        }
        client = PostgresClient(configuration: configuration,
                                backgroundLogger: Logger(label: logger.label) { _ in PoolLog(base: logger.handler) })
        running = Task(executorPreference: StoreExecutor.shared) { [client] in await client.run() }
    }

    private static func atMostDebug(_ logger: Logger) -> Logger {
        var capped = logger
        if capped.logLevel < .debug { capped.logLevel = .debug }
        return capped
    }

    /// Reads `text` as a store URL, then opens it as ``init(url:logger:)`` does.
    /// - Throws: ``PostgresStoreFailure`` (exit code 64 for a URL that cannot be read).
    public convenience init(_ text: String, logger: Logger = Logger(label: "chime.postgres")) throws {
        let url: PostgresURL
        do {
            url = try PostgresURL(text)
        } catch let error as PostgresURL.ParseError {
            throw PostgresStoreFailure(url: "the store URL", exitCode: 64, explanation: error.description, detail: "the URL was not read")
        }
        try self.init(url: url, logger: logger)
    }

    deinit {
        listeners.stop()
        running.cancel()
    }

    // MARK: Waiting on the calling thread

    /// Runs `work` on PostgresNIO's threads and waits for its result on this one, which is
    /// none of theirs (see the type's comment); its errors come out as
    /// ``PostgresStoreFailure`` (but a `StoreCopyError`, a `ResponseInFlight` or an
    /// `UnreadableStoredRequest`, which are no database errors).
    static func wait<T: Sendable>(url: PostgresURL, _ work: @escaping @Sendable () async throws -> T) throws -> T {
        precondition(MultiThreadedEventLoopGroup.currentEventLoop == nil,
                     "PostgresStore called on an event loop thread, which would wait for itself")
        let outcome = Outcome<T>()
        let done = DispatchSemaphore(value: 0)
        let task = Task(executorPreference: StoreExecutor.shared) {
            do {
                outcome.set(.success(try await work()))
            } catch {
                outcome.set(.failure(error))
            }
            done.signal()
        }
        // Never for good: after a restart of the server, a worker's courier once waited
        // for a connection that never came, nothing fired or was sent again, and SIGTERM
        // could not stop it. Past `longestWait` the call is given up (75: try again).
        guard done.wait(timeout: .now() + .seconds(longestWait)) == .success else {
            task.cancel()
            throw PostgresStoreFailure(url: url, exitCode: 75,
                                       explanation: "the server did not answer within \(longestWait) s (restarting, or locked by another client): try again later",
                                       detail: "no answer")
        }
        do {
            return try outcome.get()
        } catch let error as StoreCopyError {
            // Not the database's: the copy says what it means.
            throw error
        } catch let error as ResponseInFlight {
            // Not the database's: an answer to try again later.
            throw error
        } catch let error as UnreadableStoredRequest {
            // Not the database's: a row it holds that Chime cannot read, named.
            throw error
        } catch {
            throw PostgresStoreFailure(error, url: url)
        }
    }

    /// How long one call to the store may take, waiting for a connection and for locks
    /// included: a lock held by another client is given up after 30 s
    /// (``PostgresURL/lockTimeout``), as the SQLite store's busy timeout does.
    static let longestWait = 120

    /// One statement (or several, each on its own) on a leased connection, without a
    /// transaction: for reads that one statement answers.
    func read<T: Sendable>(_ work: @escaping @Sendable (Session) async throws -> T) throws -> T {
        try Self.wait(url: url) { [client, logger] in
            try await client.withConnection { connection in try await work(Session(connection: connection, logger: logger)) }
        }
    }

    /// `work` in one read-only transaction that sees one snapshot: reads that must agree.
    func readSnapshot<T: Sendable>(_ work: @escaping @Sendable (Session) async throws -> T) throws -> T {
        try Self.wait(url: url) { [client, logger] in
            try await client.withConnection { connection in
                try await Session(connection: connection, logger: logger).transaction(snapshot: true, work)
            }
        }
    }

    /// `work` in one READ COMMITTED transaction on a leased connection, committed when it
    /// returns, rolled back when it throws. A deadlock (two transactions taking the same
    /// rows in another order) rolls back one of them: it is run again, up to three times.
    @discardableResult
    func write<T: Sendable>(_ work: @escaping @Sendable (Session) async throws -> T) throws -> T {
        try Self.wait(url: url) { [client, logger] in
            var attempt = 1
            while true {
                do {
                    return try await client.withConnection { connection in
                        try await Session(connection: connection, logger: logger).transaction(work)
                    }
                } catch let error as PSQLError where attempt < 3 && ["40P01", "40001"].contains(error.serverInfo?[.sqlState]) {
                    attempt += 1
                }
            }
        }
    }

}

/// The result of work done on another thread, set once and read after it signalled.
private final class Outcome<T: Sendable>: @unchecked Sendable { // guarded by lock
    private let lock = NSLock()
    private var result: Result<T, any Error>?

    func set(_ result: Result<T, any Error>) {
        lock.withLock { self.result = result }
    }

    func get() throws -> T {
        try lock.withLock { result! }.get()
    }
}

/// PostgresNIO's background log, less its warning that a call came before the pool's
/// `run()`: the pool is started as the store opens, on a task of its own, which a busy
/// machine may start a moment after the first call leases (the call waits for it and is
/// served). The warning went to standard error in 4 runs of `chime pending` in 250, and
/// cron mails what lands there. Written by hand: swift-log filters by level only.
struct PoolLog: LogHandler {
    var base: any LogHandler

    func log(event: LogEvent) {
        if event.level == .warning, event.message.description.hasPrefix("Trying to lease connection from `PostgresClient`, but") { return }
        base.log(event: event)
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { base[metadataKey: key] }
        set { base[metadataKey: key] = newValue }
    }

    var metadata: Logger.Metadata {
        get { base.metadata }
        set { base.metadata = newValue }
    }

    var logLevel: Logger.Level {
        get { base.logLevel }
        set { base.logLevel = newValue }
    }

    var metadataProvider: Logger.MetadataProvider? {
        get { base.metadataProvider }
        set { base.metadataProvider = newValue }
    }
}
