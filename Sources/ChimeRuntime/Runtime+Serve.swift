import ChimeConfig
import ChimeCore
import ChimeScheduler
import ChimeServer
import Foundation
import Hummingbird
import Logging
import ServiceLifecycle

extension Runtime {
    /// What `chime serve` is made of: the store, the desks in force (replaced on SIGHUP)
    /// and the HTTP server over them.
    struct ServerParts {
        let store: any NotificationStore
        let desks: DeskHolder
        let server: ChimeHTTPServer
        let clock: @Sendable () -> Instant
    }

    func serverParts() throws -> ServerParts {
        let configuration = try loadConfiguration()
        let store = try openStore()
        // The reply desk's matchers read what people type in chat threads.
        let (reader, actions) = try replyDesks(configuration: configuration, store: store, failureCode: 65)
        // With --now, the clock starts there and runs on (replays, tests).
        var clock: @Sendable () -> Instant = { Instant(Date()) }
        if let now {
            let started = Date()
            clock = { now + Int64(Date().timeIntervalSince(started)) }
        }
        let desks = DeskHolder(ClickDesk(reader: reader, actions: actions))
        var server = ChimeHTTPServer(desks: desks, clock: clock)
        // Deliveries go over SMTP and webhooks (a file: or Maildir channel is written at once).
        let kinds = configuration.channels.map(\.url.kind).filter { !$0.isInbound && !$0.isLocal }.map(\.rawValue)
        server.metrics = MetricsExport.bootstrap(store: store, clock: clock, channelKinds: kinds).served
        server.scheduling = apiScheduling(desks, store: store, clock: clock)
        return ServerParts(store: store, desks: desks, server: server, clock: clock)
    }

    /// `chime serve`'s HTTP application alone (no firing, no SIGHUP): what tests drive with
    /// Hummingbird's `app.test(.router)`, or on a real port.
    public func buildApplication(host: String = "127.0.0.1", port: Int = 0,
                                 listening: @escaping @Sendable (Int) -> Void = { _ in }) throws -> some ApplicationProtocol {
        try serverParts().server.application(host: host, port: port, onRunning: listening)
    }

    /// Raises the soft limit on open files to the hard one: each connection holds a
    /// descriptor, and a shell's soft limit of 1,024 let a few hundred slow clients use
    /// them all, at which Dispatch's thread monitor (on Linux, reading `/proc`) traps and
    /// ends the process, scheduler and all. Under systemd the units set both limits
    /// (`LimitNOFILE=65536`); a reverse proxy in front limits connections per client.
    static func raiseOpenFileLimit() {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur < limit.rlim_max else { return }
        limit.rlim_cur = limit.rlim_max
        _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
    }

    /// `chime serve`: the HTTP server (chat callbacks, signed links, the `/v1` API,
    /// `/metrics`) and, with `scheduler`, the cron work as services of one
    /// swift-service-lifecycle group; returns once SIGTERM or SIGINT has stopped it
    /// gracefully. SIGHUP reads the configuration again.
    /// - Parameters:
    ///   - listening: called with the port once it is bound.
    /// - Throws: ``RuntimeFailure`` 69 (said on standard error) when it cannot serve.
    public func serve(host: String, port: Int, scheduler: Bool, listening: @escaping @Sendable (Int) -> Void) throws {
        // Ignored from the start: reading the configuration and opening the store take a
        // moment, and a SIGHUP then (a `systemctl reload` right after a start) ended the
        // process, which systemd counts as a clean exit and does not restart.
        signal(SIGHUP, SIG_IGN)
        Self.raiseOpenFileLimit()
        let parts = try serverParts()
        let (store, desks, server) = (parts.store, parts.desks, parts.server)
        // The daemon's time: with --now, running on from there as the clock does.
        let offset = now.map { $0.date.timeIntervalSince(Date()) } ?? 0
        let daemon = scheduler ? Daemon(runtime: self, store: store, configuration: { desks.current.configuration },
                                        clock: { Date().addingTimeInterval(offset) }) : nil
        let reloading = reloadOnHangup(desks, store: store) { daemon?.configurationReloaded() }
        defer { reloading.cancel() }
        DiagnosticsToLog.start(Logger(label: "chime.serve"))
        // Stopped last (a group stops its services last to first): what the others
        // started is carried out before the process exits.
        var services: [any Service] = [ActionsInFlight()]
        if let daemon { services += daemon.services }
        services.append(server.application(host: host, port: port, onRunning: listening))
        // Last, so stopped first: the stop is said as it begins.
        services.append(StopNotice())
        var logger = Logger(label: "chime.serve")
        logger.logLevel = .warning
        let group = ServiceGroup(configuration: .init(
            services: services.map { .init(service: $0) }, gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
        let finished = DispatchSemaphore(value: 0)
        let failure = Failure()
        Task {
            do {
                try await group.run()
            } catch {
                failure.error = error
            }
            finished.signal()
        }
        finished.wait()
        DiagnosticsToLog.stop()
        // Closed here, not when the last reference goes, which may be after the process
        // has exited: its log is moved into the file and the -wal and -shm files go.
        store.close()
        if let error = failure.error {
            // NIO's bind error carries the errno's text: the usual case said plainly.
            if "\(error)".contains(String(cString: strerror(EADDRINUSE))) {
                printError("chime serve: port \(port) is in use on \(host): another process listens there (another chime serve?); stop it or choose another with --port")
            } else {
                printError("cannot serve on \(host):\(port): \(error)")
            }
            throw RuntimeFailure(69)
        }
    }

    /// `POST /v1/requests` as `chime schedule --json -`: attachments read from the
    /// `attachments` folder of the working directory only (``apiAttachments``), localization
    /// keys checked, then the scheduler of the configuration in force, all or none.
    func apiScheduling(_ desks: DeskHolder, store: any NotificationStore, clock: @escaping @Sendable () -> Instant) -> APIScheduling {
        APIScheduling { requests in
            let configuration = desks.current.configuration
            let folder = (FileManager.default.currentDirectoryPath as NSString).appendingPathComponent(Self.apiAttachments)
            let (resolved, problems) = RequestChecks.requestProblems(requests, base: folder, confined: true,
                                                                     templatesPath: templatesPath, configuration: configuration)
            guard problems.isEmpty else {
                throw APIScheduling.Refusal(problems.map(\.text), field: SchedulingError(problems, batch: requests.count).field)
            }
            let scheduler = try scheduler(configuration: configuration, store: store)
            do {
                return try scheduler.schedule(resolved, now: clock()).added.map {
                    APIScheduling.Scheduled(identifier: $0.identifier, nextTriggerDate: $0.firstFire.rfc3339(in: $0.zone))
                }
            } catch let error as SchedulingError {
                throw APIScheduling.Refusal(error.problems, field: error.field)
            }
        }
    }

    /// The folder of `chime serve`'s working directory that the HTTP API's requests attach
    /// files from, and the only one: a path leading elsewhere (`/etc/passwd`, `../chime.xml`,
    /// a symlink out of it) is refused with 422.
    static let apiAttachments = "attachments"

    /// On SIGHUP, reads the environment file and the configuration again and puts them
    /// in force for the requests that follow (a rotated API key or chat secret: the old
    /// one stops working); a configuration with errors is refused (its diagnostics
    /// printed) and the one in force stays.
    private func reloadOnHangup(_ desks: DeskHolder, store: any NotificationStore,
                                reloaded: @escaping @Sendable () -> Void) -> any DispatchSourceSignal {
        // SIGHUP's default action is off already (``serve(host:port:scheduler:listening:)``'s
        // first step), so the signal reaches this source alone.
        let source = DispatchSource.makeSignalSource(signal: SIGHUP, queue: DispatchQueue(label: "chime.serve.reload"))
        source.setEventHandler {
            do {
                // The environment file's new values are read with the configuration and put
                // in force with it, or not at all: meanwhile, what is fired and sent is
                // signed with the key the reply desks in force check.
                let changes = try environmentFile.map { try EnvironmentFile(path: $0).changes() }
                let environment = changes.map(ProcessEnvironment.current(with:)) ?? ProcessEnvironment.current
                let configuration = try ConfigurationLoader(environment: environment).load(bytes: ConfigurationLoader.read(path: configPath), path: configPath)
                let (reader, actions) = try replyDesks(configuration: configuration, store: store, failureCode: 65, environment: environment)
                if let changes { ProcessEnvironment.replaceChanges(changes) }
                desks.replace(with: ClickDesk(reader: reader, actions: actions))
                Logger(label: "chime.serve").notice("configuration reloaded: \(configuration.summary)")
                reloaded()
            } catch {
                // Why it was refused goes in the log record (`path:line:col: error: …`), not on
                // standard error beside it: with --log-format json, every line is a JSON object.
                var metadata: Logger.Metadata = [:]
                if let error = error as? ConfigurationError {
                    metadata["reason"] = .string(error.diagnostics.map { printable($0.description) }.joined(separator: "; "))
                } else if error is RuntimeFailure {
                    // Its reasons (a templates file's line and column, a key too short)
                    // are the error records logged just before this one.
                    metadata["reason"] = "the errors logged just before"
                } else {
                    metadata["reason"] = .string(printable("\(error)"))
                }
                Logger(label: "chime.serve").error("configuration not reloaded; the one loaded before stays in force", metadata: metadata)
            }
        }
        source.resume()
        return source
    }

    private final class Failure: @unchecked Sendable {
        var error: (any Error)?
    }
}

/// Says in the log that a stop has begun (SIGTERM or SIGINT) and what it waits for: the
/// stop may take ten seconds and more (a hook's timeout, a store that does not answer),
/// and had said nothing until its end, a second signal changing nothing.
private struct StopNotice: Service {
    func run() async throws {
        try? await gracefulShutdown()
        guard !Task.isCancelled else { return }
        Logger(label: "chime.serve").notice("stopping: no new work is taken; the round of firing, the actions under way and what is being sent finish first (sending stops 10 s after firing has), then chime serve exits")
    }
}
