import Foundation

/// A real PostgreSQL (Debian's `postgresql` package, 15), started once per test process on
/// 127.0.0.1 and an ephemeral port, in a temporary folder, and stopped when the process
/// exits; each test takes a database of its own with ``makeDatabase()``.
///
/// PostgreSQL refuses to run as root: as root, the folder is given to the `postgres` user
/// and `initdb` and `pg_ctl` run as that user (`runuser`). Trust authentication on
/// loopback for the user `chime`, `fsync=off` (a test's data need not survive a crash of
/// the machine; ``durable()`` keeps it on, for a benchmark). When PostgreSQL is not
/// installed, ``shared()`` throws: the tests that need it fail, saying to run
/// `script/setup --test`, rather than being skipped.
public final class PostgresServer: @unchecked Sendable { // immutable after init
    public let port: Int
    public let folder: URL
    /// The superuser the tests connect as.
    public let user = "chime"
    /// What the server is started with beside its port and folder.
    private let options: String

    /// Debian's PostgreSQL 15 binaries.
    public static let binaries = URL(fileURLWithPath: "/usr/lib/postgresql/15/bin")

    private static let lock = NSLock()
    nonisolated(unsafe) private static var started: Result<PostgresServer, any Error>? // guarded by lock
    nonisolated(unsafe) private static var counter = 0 // guarded by lock

    /// The server of this test process, started by the first caller.
    /// - Throws: when PostgreSQL is missing or does not start.
    public static func shared() throws -> PostgresServer {
        try lock.withLock {
            if let started { return try started.get() }
            let result = Result { try PostgresServer() }
            started = result
            if case .success = result { atexit { PostgresServer.stopShared() } }
            return try result.get()
        }
    }

    nonisolated(unsafe) private static var ownServers: [PostgresServer] = [] // guarded by lock

    /// A server of its own that writes as PostgreSQL does by default (`fsync` on), for
    /// figures worth quoting (the benchmark); stopped by ``stop()`` or when the process
    /// exits.
    /// - Throws: when PostgreSQL is missing or does not start.
    public static func durable() throws -> PostgresServer {
        try stoppedAtExit(PostgresServer(fsync: true))
    }

    /// A server of its own that takes TLS connections (and plain ones) with `certificate`,
    /// as a managed PostgreSQL does; stopped by ``stop()`` or when the process exits.
    /// - Throws: when PostgreSQL is missing or does not start.
    public static func withTLS(_ certificate: ScriptServer.Certificate) throws -> PostgresServer {
        try stoppedAtExit(PostgresServer(tls: certificate))
    }

    /// A server of its own, stopped by ``stop()`` or when the process exits: for a test that
    /// takes it down (``shutDown()``) and brings it back (``startAgain()``), an outage.
    /// - Throws: when PostgreSQL is missing or does not start.
    public static func ofItsOwn() throws -> PostgresServer {
        try stoppedAtExit(PostgresServer())
    }

    /// A server of its own, stopped when the process exits unless ``stop()`` was called.
    private static func stoppedAtExit(_ server: PostgresServer) -> PostgresServer {
        lock.withLock {
            if ownServers.isEmpty { atexit { PostgresServer.lock.withLock { PostgresServer.ownServers }.forEach { $0.stop() } } }
            ownServers.append(server)
        }
        return server
    }

    private init(fsync: Bool = false, tls: ScriptServer.Certificate? = nil) throws {
        guard FileManager.default.isExecutableFile(atPath: Self.binaries.appendingPathComponent("initdb").path) else {
            throw Failure("PostgreSQL 15 is not installed (\(Self.binaries.path)/initdb): run script/setup --test")
        }
        folder = Self.reachableTemporaryDirectory().appendingPathComponent("chime-postgres-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        if geteuid() == 0 { try Self.run("/usr/bin/chown", ["postgres:postgres", folder.path]) }
        let data = folder.appendingPathComponent("data").path
        try Self.asPostgres("initdb", ["-D", data, "-A", "trust", "-U", user, "-E", "UTF8", "--no-locale", "--no-sync"])
        // The server reads its key only when it is the server's user's and no one else's.
        var tlsOptions = ""
        if let tls {
            let cert = folder.appendingPathComponent("server.crt").path, key = folder.appendingPathComponent("server.key").path
            try FileManager.default.copyItem(atPath: tls.cert, toPath: cert)
            try FileManager.default.copyItem(atPath: tls.key, toPath: key)
            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: key)
            if geteuid() == 0 { try Self.run("/usr/bin/chown", ["postgres:postgres", cert, key]) }
            tlsOptions = " -c ssl=on -c ssl_cert_file=\(cert) -c ssl_key_file=\(key)"
        }
        options = "-c fsync=\(fsync ? "on" : "off") -c max_connections=300\(tlsOptions)"
        // A port free a moment ago may be taken by the time the server binds it: try again.
        var lastError: (any Error)?
        for _ in 0..<3 {
            let port = LocalPort.free()
            do {
                try Self.launch(folder: folder, port: port, options: options)
                self.port = port
                return
            } catch {
                lastError = error
            }
        }
        let log = (try? String(contentsOf: folder.appendingPathComponent("log"), encoding: .utf8)) ?? ""
        throw Failure("PostgreSQL did not start: \(lastError.map { "\($0)" } ?? "") \(log.suffix(2000))")
    }

    /// The temporary directory, when the server's user can reach a folder in it; else
    /// `/tmp`. As root, the server runs as `postgres`, who cannot pass through a folder
    /// only its owner may enter, such as one made by `mktemp -d` (a benchmark's `TMPDIR`):
    /// `initdb` failed there with "Permission denied".
    private static func reachableTemporaryDirectory() -> URL {
        let temporary = FileManager.default.temporaryDirectory
        guard geteuid() == 0 else { return temporary }
        var path = temporary.resolvingSymlinksInPath()
        while path.path != "/" {
            let mode = ((try? FileManager.default.attributesOfItem(atPath: path.path))?[.posixPermissions] as? Int) ?? 0
            if mode & 0o001 == 0 { return URL(fileURLWithPath: "/tmp") }
            path.deleteLastPathComponent()
        }
        return temporary
    }

    /// Starts the server of `folder` on `port` and waits until it takes connections.
    private static func launch(folder: URL, port: Int, options: String) throws {
        // Through Debian's Python, which closes every descriptor but the standard
        // three before it starts pg_ctl: the server would otherwise inherit the one
        // Foundation's Process watches to learn that its child exited, and this
        // wait, and every other Process's started meanwhile, would never end.
        try run("/usr/bin/python3", ["-c", "import subprocess, sys; sys.exit(subprocess.call(sys.argv[1:], close_fds=True))"]
                + postgresCommand("pg_ctl", ["-D", folder.appendingPathComponent("data").path, "-w", "-t", "30",
                                             "-l", folder.appendingPathComponent("log").path,
                                             "-o", "-p \(port) -k \(folder.path) -c listen_addresses=127.0.0.1 \(options)", "start"]))
        try run(binaries.appendingPathComponent("pg_isready").path, ["-h", "127.0.0.1", "-p", "\(port)", "-t", "10"])
    }

    /// Shuts the server down as its administrator would (`pg_ctl stop -m fast`: the
    /// connections are closed), keeping its data and its port for ``startAgain()``.
    public func shutDown() throws {
        try Self.asPostgres("pg_ctl", ["-D", folder.appendingPathComponent("data").path, "-m", "fast", "-w", "stop"])
    }

    /// Starts the server ``shutDown()`` stopped again, on the same port.
    public func startAgain() throws {
        try Self.launch(folder: folder, port: port, options: options)
    }

    /// A new, empty database of its own and its URL (`postgres://chime@127.0.0.1:PORT/NAME?sslmode=disable`).
    public func makeDatabase() throws -> String {
        let name = Self.lock.withLock {
            Self.counter += 1
            return "test_\(Self.counter)_\(UUID().uuidString.prefix(8).lowercased())"
        }
        try Self.run(Self.binaries.appendingPathComponent("createdb").path, ["-h", "127.0.0.1", "-p", "\(port)", "-U", user, name])
        return url(database: name)
    }

    /// The URL of a database on this server.
    public func url(database: String) -> String {
        "postgres://\(user)@127.0.0.1:\(port)/\(database)?sslmode=disable"
    }

    /// Runs SQL with `psql` on a database; returns what it printed (unaligned, tuples only).
    @discardableResult
    public func psql(_ sql: String, database: String) throws -> String {
        try Self.run(Self.binaries.appendingPathComponent("psql").path,
                     ["-h", "127.0.0.1", "-p", "\(port)", "-U", user, "-d", database, "-v", "ON_ERROR_STOP=1", "-At", "-c", sql])
    }

    private static func stopShared() {
        guard let server = try? lock.withLock({ try started?.get() }) else { return }
        server.stop()
    }

    /// Stops the server and removes its folder (nothing when already stopped).
    public func stop() {
        guard FileManager.default.fileExists(atPath: folder.path) else { return }
        _ = try? Self.asPostgres("pg_ctl", ["-D", folder.appendingPathComponent("data").path, "-m", "immediate", "-w", "stop"])
        try? FileManager.default.removeItem(at: folder)
    }

    /// A PostgreSQL program, as the `postgres` user when this process is root.
    @discardableResult
    private static func asPostgres(_ program: String, _ arguments: [String]) throws -> String {
        let command = postgresCommand(program, arguments)
        return try run(command[0], Array(command.dropFirst()))
    }

    /// The command line running a PostgreSQL program, through `runuser` when this process is root.
    private static func postgresCommand(_ program: String, _ arguments: [String]) -> [String] {
        let path = binaries.appendingPathComponent(program).path
        return geteuid() == 0 ? ["/usr/sbin/runuser", "-u", "postgres", "--", path] + arguments : [path] + arguments
    }

    /// Runs a program to its end; throws with what it printed when it fails.
    @discardableResult
    private static func run(_ path: String, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: "/")
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("chime-pg-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: output) }
        let handle = try FileHandle.creatingEmpty(at: output)
        process.standardOutput = handle
        process.standardError = handle
        process.standardInput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        try handle.close()
        let text = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
        guard process.terminationStatus == 0 else {
            throw Failure("\((path as NSString).lastPathComponent) \(arguments.joined(separator: " ")) exited \(process.terminationStatus): \(text)")
        }
        return text
    }

    /// Why the server could not be started or used.
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
        init(_ description: String) { self.description = description }
    }
}
