import ChimeTestSupport
import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Testing

/// `deploy/`: each systemd unit's command, each crontab line and the Postfix pipe's argv,
/// run as written, with only the paths they name (`/usr/local/bin/chime`, `/etc/chime`,
/// `/var/lib/chime`, the templates) moved under a temporary root, and chime serve's port
/// made 0 (a free one).
@Suite("deploy/: every unit's, crontab line's and pipe's command, as written", .serialized)
struct DeployTests {
    static let deploy = ChimeProcess.repositoryRoot.appendingPathComponent("deploy")

    /// A root with `etc/chime/chime.xml` (the example configuration) and `var/lib/chime`.
    final class Root {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("chime-deploy-\(UUID().uuidString)")
        var state: URL { url.appendingPathComponent("var/lib/chime") }

        init() throws {
            try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true)
            let etc = url.appendingPathComponent("etc/chime")
            try FileManager.default.createDirectory(at: etc, withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: DeployTests.deploy.appendingPathComponent("chime.example.xml"), to: etc.appendingPathComponent("chime.xml"))
            // The secrets every entry point reads: a signing key made for this test.
            let key = (0..<32).map { _ in String(format: "%02x", UInt8.random(in: 0...255)) }.joined()
            try Data("# chime's secrets\nCHIME_SECRET_KEY=\(key)\n".utf8).write(to: etc.appendingPathComponent("secrets.env"))
            chmod(etc.appendingPathComponent("secrets.env").path, 0o640)
        }

        deinit { try? FileManager.default.removeItem(at: url) }

        /// A deploy file's text with its paths moved here.
        func place(_ text: String) -> String {
            text.replacingOccurrences(of: "/usr/local/bin/chime", with: ChimeProcess.executable.path)
                .replacingOccurrences(of: "/usr/local/share/chime/templates", with: ChimeProcess.repositoryRoot.appendingPathComponent("templates").path)
                .replacingOccurrences(of: "/etc/chime", with: url.appendingPathComponent("etc/chime").path)
                .replacingOccurrences(of: "/var/lib/chime", with: state.path)
        }

        /// Runs `arguments` (the first is the program) in `directory` with `environment`.
        func run(_ arguments: [String], in directory: URL, environment: [String: String], input: Data? = nil) throws -> (status: Int32, output: String) {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: arguments[0])
            process.arguments = Array(arguments.dropFirst())
            process.currentDirectoryURL = directory
            var env = ProcessInfo.processInfo.environment
            for name in ["CHIME_CONFIG", "CHIME_STORE", "CHIME_TEMPLATES", "CHIME_ENV_FILE", "CHIME_SECRET_KEY"] { env.removeValue(forKey: name) }
            process.environment = env.merging(environment) { $1 }
            let output = Pipe(), feed = Pipe()
            process.standardOutput = output
            process.standardError = output
            process.standardInput = feed
            try process.run()
            // A program may exit without reading its input (the pipe's `cd` failing): the
            // write then meets a closed pipe, which is its answer, not the test's failure
            // (EPIPE, not the SIGPIPE that would end this process, as Postfix takes it).
            signal(SIGPIPE, SIG_IGN)
            if let input { try? feed.fileHandleForWriting.write(contentsOf: input) }
            try? feed.fileHandleForWriting.close()
            let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            return (process.terminationStatus, text)
        }

        /// Schedules a reminder for alice (of the example configuration) due in the past,
        /// or `ahead` seconds from now.
        /// - Parameter ago: when it was scheduled, without `ahead` (it fires 60 s after).
        func schedule(_ id: String, passive: Bool = false, ahead: Int? = nil, ago: TimeInterval = 600) throws {
            let json = #"{"identifier": "\#(id)", "recipient": "alice", "content": {"title": "Tea", "categoryIdentifier": "TimerFiredCategory"\#(passive ? #", "interruptionLevel": "passive""# : "")}, "trigger": {"type": "timeInterval", "seconds": \#(ahead ?? 60)}}"#
            try Data(json.utf8).write(to: state.appendingPathComponent("\(id).json"))
            let past = ISO8601DateFormatter().string(from: Date().addingTimeInterval(-ago))
            let result = try run([ChimeProcess.executable.path, "--config", url.appendingPathComponent("etc/chime/chime.xml").path,
                                  "--store", "sqlite:\(state.path)/chime.sqlite", "schedule", "--json", "\(id).json"] + (ahead == nil ? ["--now", past] : []),
                                 in: state, environment: [:])
            #expect(result.status == 0, "\(result.output)")
        }

        var outbox: [String] { (try? FileManager.default.contentsOfDirectory(atPath: state.appendingPathComponent("outbox/new").path)) ?? [] }
    }

    /// A unit file's `Key=value` lines (repeated keys kept in order).
    static func unit(_ name: String, in root: Root) throws -> [(key: String, value: String)] {
        let text = root.place(try String(contentsOf: deploy.appendingPathComponent("systemd/\(name)"), encoding: .utf8))
        return text.split(separator: "\n").compactMap { line in
            guard !line.hasPrefix("#"), !line.hasPrefix("["), let equals = line.firstIndex(of: "=") else { return nil }
            return (String(line[..<equals]), String(line[line.index(after: equals)...]))
        }
    }

    /// A unit's `Environment=NAME=value` lines.
    static func environment(of lines: [(key: String, value: String)]) -> [String: String] {
        var environment: [String: String] = [:]
        for line in lines where line.key == "Environment" {
            let parts = line.value.split(separator: "=", maxSplits: 1).map(String.init)
            environment[parts[0]] = parts[1]
        }
        return environment
    }

    /// Runs a oneshot unit's ExecStart as systemd would: its WorkingDirectory and Environment.
    static func start(_ name: String, in root: Root) throws -> (status: Int32, output: String, allowed: Set<Int32>) {
        let lines = try unit(name, in: root)
        let value = { (key: String) in lines.first { $0.key == key }?.value }
        let command = try #require(value("ExecStart")).split(separator: " ").map(String.init)
        let directory = URL(fileURLWithPath: try #require(value("WorkingDirectory")))
        let result = try root.run(command, in: directory, environment: environment(of: lines))
        let allowed = Set([0] + (value("SuccessExitStatus")?.split(separator: " ").compactMap { Int32($0) } ?? []))
        return (result.status, result.output, allowed)
    }

    /// Starts a long-running unit's ExecStart as systemd would, its port made 0; returns
    /// the process and the port it printed.
    static func serve(_ lines: [(key: String, value: String)], in root: Root) throws -> (process: Process, port: Int) {
        let command = try #require(lines.first { $0.key == "ExecStart" }?.value)
            .replacingOccurrences(of: "--port 8080", with: "--port 0").split(separator: " ").map(String.init)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: command[0])
        process.arguments = Array(command.dropFirst())
        process.currentDirectoryURL = URL(fileURLWithPath: try #require(lines.first { $0.key == "WorkingDirectory" }?.value))
        process.environment = ProcessInfo.processInfo.environment.merging(Self.environment(of: lines)) { $1 }
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        guard let port = firstLine(of: output).firstMatch(of: /:(\d+)/).flatMap({ Int($0.output.1) }) else {
            process.terminate()
            throw CocoaError(.fileReadUnknown)
        }
        return (process, port)
    }

    @Test("chime-daemon.service alone, no timer, fires a reminder due a few seconds ahead and stops on SIGTERM with 0; chime-serve.service (the cron variant's) fires nothing")
    func daemonUnit() throws {
        let root = try Root()
        try root.schedule("tea")
        let cron = try Self.unit("chime-serve.service", in: root)
        #expect(try #require(cron.first { $0.key == "ExecStart" }).value.hasSuffix("serve --no-scheduler --host 127.0.0.1 --port 8080"))
        let http = try Self.serve(cron, in: root)
        Thread.sleep(forTimeInterval: 2)
        http.process.terminate()
        http.process.waitUntilExit()
        #expect(root.outbox.isEmpty, "chime serve --no-scheduler fired")

        let lines = try Self.unit("chime-daemon.service", in: root)
        #expect(try #require(lines.first { $0.key == "ExecStart" }).value.hasSuffix("chime serve --host 127.0.0.1 --port 8080"))
        #expect(lines.first { $0.key == "Conflicts" }?.value == "chime-serve.service")
        #expect(lines.first { $0.key == "ExecReload" }?.value == "/bin/kill -HUP $MAINPID")
        let daemon = try Self.serve(lines, in: root)
        // Due in the past: fired at once; then one due in 3 s, fired at its instant.
        let deadline = Date().addingTimeInterval(15)
        while root.outbox.count < 1, Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        #expect(root.outbox.count == 1)
        try root.schedule("soon", ahead: 3)
        while root.outbox.count < 2, Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        #expect(root.outbox.count == 2, "the daemon fired the reminder due ahead by itself")
        #expect(try String(contentsOf: URL(string: "http://127.0.0.1:\(daemon.port)/health")!, encoding: .utf8) == "ok\n")
        daemon.process.terminate()
        daemon.process.waitUntilExit()
        #expect(daemon.process.terminationReason == .exit && daemon.process.terminationStatus == 0)
        // Stopped, it closed the store: everything in the file, which a backup copies alone.
        #expect(!FileManager.default.fileExists(atPath: root.state.appendingPathComponent("chime.sqlite-wal").path))
    }

    @Test("the systemd units: chime-run.service fires, chime-digest.service sends the digest, chime-prune.service forgets old history, chime-serve.service answers /health; the timers start them every minute, hourly and daily")
    func systemdUnits() throws {
        let root = try Root()
        try root.schedule("tea")
        // Kept for the digest two days ago: a digest holds what was kept by its day's
        // digestAt, and the timer's digest runs now, whatever the time of day.
        try root.schedule("later", passive: true, ago: 2 * 86_400)
        let run = try Self.start("chime-run.service", in: root)
        #expect(run.allowed.contains(run.status) && run.output.hasPrefix("fired 2, 1 kept for the digest"), "\(run.output)")
        #expect(root.outbox.count == 1)
        let digest = try Self.start("chime-digest.service", in: root)
        #expect(digest.allowed.contains(digest.status) && digest.output.contains("digest alice: 1 notification"), "\(digest.output)")
        #expect(root.outbox.filter { $0.hasPrefix("digest-") }.count == 1)
        let prune = try Self.start("chime-prune.service", in: root)
        #expect(prune.status == 0 && prune.output.hasPrefix("forgot 0 deliveries"), "\(prune.output)")

        let timers = try ["chime-run.timer", "chime-digest.timer", "chime-prune.timer"].map { try Self.unit($0, in: root).first { $0.key == "OnCalendar" }?.value }
        #expect(timers == ["*-*-* *:*:00", "hourly", "*-*-* 03:30:00"])

        // chime serve: its port made 0, the rest as written; stopped by SIGTERM as systemd stops it.
        let lines = try Self.unit("chime-serve.service", in: root)
        #expect(try #require(lines.first { $0.key == "ExecStart" }).value.hasSuffix("serve --no-scheduler --host 127.0.0.1 --port 8080"))
        let (process, port) = try Self.serve(lines, in: root)
        defer { process.terminate(); process.waitUntilExit() }
        let health = try String(contentsOf: URL(string: "http://127.0.0.1:\(port)/health")!, encoding: .utf8)
        #expect(health == "ok\n")

        // systemctl reload: ExecReload as written, $MAINPID the server's; it goes on serving.
        let reload = try #require(lines.first { $0.key == "ExecReload" }?.value)
        #expect(reload == "/bin/kill -HUP $MAINPID")
        let signalled = try root.run(reload.replacingOccurrences(of: "$MAINPID", with: "\(process.processIdentifier)").split(separator: " ").map(String.init),
                                     in: root.state, environment: [:])
        #expect(signalled.status == 0)
        Thread.sleep(forTimeInterval: 0.5)
        #expect(process.isRunning, "SIGHUP reloads chime serve rather than ending it")
        #expect(try String(contentsOf: URL(string: "http://127.0.0.1:\(port)/health")!, encoding: .utf8) == "ok\n")
    }

    @Test("each unit running chime serve gives SIGTERM longer than a store call's longest wait (120 s) before systemd kills it, and gives it to chime alone (KillMode=mixed), which waits for its hooks, rather than to the hooks as well")
    func stopTimeout() throws {
        for unit in ["chime-serve@.service", "chime-serve.service", "chime-daemon.service"] {
            let text = try String(contentsOf: Self.deploy.appendingPathComponent("systemd/\(unit)"), encoding: .utf8)
            let value = text.split(separator: "\n").first { $0.hasPrefix("TimeoutStopSec=") }.flatMap { Int($0.dropFirst("TimeoutStopSec=".count)) }
            #expect((value ?? 90) > 120, "\(unit): TimeoutStopSec \(value.map(String.init) ?? "unset (90 s)")")
            let killMode = text.split(separator: "\n").last { $0.hasPrefix("KillMode=") }
            #expect(killMode == "KillMode=mixed", "\(unit): \(killMode.map(String.init) ?? "KillMode unset (control-group: the hooks get SIGTERM too)")")
        }
    }

    @Test("systemd-analyze verify accepts every unit and timer, and security rates each service OK (under 2.0 of 10), sandboxed as the issue asks; sysusers.d makes the chime user")
    func systemdAnalyze() throws {
        let root = try Root()
        let folder = root.url.appendingPathComponent("units")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.deploy.appendingPathComponent("systemd").path).filter { $0.hasSuffix(".service") || $0.hasSuffix(".timer") }
        #expect(Set(names) == ["chime-daemon.service", "chime-serve.service", "chime-serve@.service", "chime-run.service", "chime-run.timer",
                               "chime-digest.service", "chime-digest.timer", "chime-prune.service", "chime-prune.timer"])
        // The workers' template is checked as an instance: its instance is the port.
        let files = names.map { $0.replacingOccurrences(of: "@.", with: "@8081.") }
        for (name, file) in zip(names, files) {
            // Only the binary's path is moved (verify checks it is executable); the rest as written.
            let text = try String(contentsOf: Self.deploy.appendingPathComponent("systemd/\(name)"), encoding: .utf8)
                .replacingOccurrences(of: "/usr/local/bin/chime", with: ChimeProcess.executable.path)
            try text.write(to: folder.appendingPathComponent(file), atomically: true, encoding: .utf8)
        }
        let units = files.sorted().map { folder.appendingPathComponent($0).path }
        let verify = try root.run(["/usr/bin/systemd-analyze", "verify"] + units, in: folder, environment: [:])
        #expect(verify.status == 0 && verify.output.isEmpty, "\(verify.output)")
        for name in files where name.hasSuffix(".service") {
            let security = try root.run(["/usr/bin/systemd-analyze", "security", "--offline=true", folder.appendingPathComponent(name).path], in: folder, environment: [:])
            let level = try #require(security.output.firstMatch(of: /Overall exposure level for [\w.@-]+: (\d+\.\d) (\w+)/), "\(security.output)")
            #expect(Double(level.output.1)! < 2.0 && level.output.2 == "OK", "\(name): \(level.output.0)")
            for setting in ["UMask=0077", "StateDirectory=chime", "ProtectSystem=strict", "PrivateDevices=yes", "ProtectKernelTunables=yes",
                            "SystemCallFilter=@system-service", "CapabilityBoundingSet=\n", "NoNewPrivileges=yes", "RestrictAddressFamilies=AF_UNIX AF_INET AF_INET6"] {
                #expect(try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8).contains(setting), "\(name) lacks \(setting)")
            }
        }
        let sysusers = try String(contentsOf: Self.deploy.appendingPathComponent("systemd/chime.sysusers"), encoding: .utf8)
        #expect(sysusers.split(separator: "\n").contains { $0.hasPrefix("u chime ") && $0.hasSuffix(" /var/lib/chime") })
        let parsed = try root.run(["/usr/bin/systemd-sysusers", "--dry-run", Self.deploy.appendingPathComponent("systemd/chime.sysusers").path], in: folder, environment: [:])
        #expect(parsed.status == 0 && parsed.output.contains("chime"), "\(parsed.output)")
    }

    @Test("the crontab: its environment lines and each schedule line's command, run by /bin/sh as cron runs them")
    func crontab() throws {
        let root = try Root()
        try root.schedule("tea")
        let text = root.place(try String(contentsOf: Self.deploy.appendingPathComponent("crontab"), encoding: .utf8))
        var environment: [String: String] = [:]
        var commands: [(schedule: String, command: String)] = []
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            let fields = line.split(separator: " ", maxSplits: 5, omittingEmptySubsequences: true)
            if fields.count == 6, let first = fields.first, first.allSatisfy({ "*0123456789/,-".contains($0) }) {
                commands.append((fields[0..<5].joined(separator: " "), fields[5].trimmingCharacters(in: .whitespaces)))
            } else if let equals = line.firstIndex(of: "=") {
                environment[String(line[..<equals])] = String(line[line.index(after: equals)...])
            }
        }
        #expect(commands.map(\.schedule) == ["* * * * *", "0 * * * *", "30 3 * * *"])
        #expect(Set(environment.keys) == ["CHIME_CONFIG", "CHIME_TEMPLATES", "CHIME_ENV_FILE"])
        for (_, command) in commands {
            let result = try root.run(["/bin/sh", "-c", command], in: FileManager.default.temporaryDirectory, environment: environment)
            #expect(result.status == 0, "\(command): \(result.output)")
        }
        #expect(root.outbox.count == 1, "the every-minute line fired the reminder")
    }

    @Test("a store named in secrets.env (as the move to PostgreSQL asks) is the store of every unit, crontab line and the pipe: none names one that would win over it; chime check says a name the environment sets instead")
    func storeFromSecrets() throws {
        let root = try Root()
        let moved = root.state.appendingPathComponent("moved.sqlite").path
        let secrets = root.url.appendingPathComponent("etc/chime/secrets.env")
        try (String(contentsOf: secrets, encoding: .utf8) + "CHIME_STORE=sqlite:\(moved)\n").write(to: secrets, atomically: true, encoding: .utf8)
        let text = { (name: String) in root.place(try String(contentsOf: Self.deploy.appendingPathComponent(name), encoding: .utf8)) }
        for name in ["crontab", "postfix/master.cf", "Containerfile"] + ["daemon", "serve", "serve@", "run", "digest", "prune"].map({ "systemd/chime-\($0).service" }) {
            let lines = try text(name).split(separator: "\n").filter { !$0.hasPrefix("#") }
            #expect(!lines.contains { $0.contains("CHIME_STORE=") || $0.contains("--store") }, "\(name) names a store, which secrets.env's would not replace")
        }
        // Scheduled into the moved store; the timer's unit fires it from there, and leaves
        // the SQLite default alone.
        let json = #"{"identifier": "tea", "recipient": "alice", "content": {"title": "Tea"}, "trigger": {"type": "timeInterval", "seconds": 60}}"#
        try Data(json.utf8).write(to: root.state.appendingPathComponent("tea.json"))
        let scheduled = try root.run([ChimeProcess.executable.path, "--config", root.url.appendingPathComponent("etc/chime/chime.xml").path, "--store", "sqlite:\(moved)",
                                      "schedule", "--json", "tea.json", "--now", ISO8601DateFormatter().string(from: Date().addingTimeInterval(-600))],
                                     in: root.state, environment: [:])
        #expect(scheduled.status == 0, "\(scheduled.output)")
        let run = try Self.start("chime-run.service", in: root)
        #expect(run.status == 0 && run.output.hasPrefix("fired 1"), "\(run.output)")
        #expect(root.outbox.count == 1)
        #expect(!FileManager.default.fileExists(atPath: root.state.appendingPathComponent("chime.sqlite").path), "the default store was made beside the moved one")
        // A unit left with its own CHIME_STORE (an older copy of it): chime check says the
        // file's is not used, naming no value.
        let check = try root.run([ChimeProcess.executable.path, "--env-file", secrets.path, "check"], in: root.state,
                                 environment: ["CHIME_CONFIG": root.url.appendingPathComponent("etc/chime/chime.xml").path, "CHIME_STORE": "sqlite:/var/lib/chime/chime.sqlite"])
        #expect(check.status == 0 && check.output.contains("secrets.env: warning: CHIME_STORE here is not used: the environment already sets it"), "\(check.output)")
        #expect(!check.output.contains(moved) && !check.output.contains("CHIME_SECRET_KEY"), "\(check.output)")
        let given = try root.run([ChimeProcess.executable.path, "--env-file", secrets.path, "--store", "sqlite:\(moved)", "check"], in: root.state,
                                 environment: ["CHIME_CONFIG": root.url.appendingPathComponent("etc/chime/chime.xml").path])
        #expect(given.output.contains("CHIME_STORE here is not used: --store is given"), "\(given.output)")
        let agreed = try root.run([ChimeProcess.executable.path, "--env-file", secrets.path, "check"], in: root.state,
                                  environment: ["CHIME_CONFIG": root.url.appendingPathComponent("etc/chime/chime.xml").path])
        #expect(agreed.status == 0 && !agreed.output.contains("not used"), "\(agreed.output)")
    }

    @Test("the Postfix pipe: master.cf's argv (its { } group one argument) takes a reply on stdin and acts on it, exit 0; the transport map names the chime transport")
    func postfixPipe() throws {
        let root = try Root()
        try root.schedule("tea")
        let run = try Self.start("chime-run.service", in: root)
        #expect(run.status == 0, "\(run.output)")
        let message = try String(contentsOf: root.state.appendingPathComponent("outbox/new/\(try #require(root.outbox.first))"), encoding: .utf8)
        let unfolded = message.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\n ", with: " ")
        let replyTo = try #require(unfolded.firstMatch(of: /Reply-To:\s+(chime\+[a-z0-9]+@localhost)/)?.output.1)
        let reply = "From: Alice <alice@example.org>\r\nTo: \(replyTo)\r\nDelivered-To: \(replyTo)\r\nSubject: Re: Tea\r\nMessage-ID: <r1@example.org>\r\n\r\nRestart\r\n"

        let text = root.place(try String(contentsOf: Self.deploy.appendingPathComponent("postfix/master.cf"), encoding: .utf8))
        let entry = text.split(separator: "\n").filter { !$0.hasPrefix("#") }.joined(separator: " ")
        #expect(entry.hasPrefix("chime     unix  -       n       n       -       10      pipe"))
        let argv = String(entry[try #require(entry.range(of: "argv=")).upperBound...])
        // pipe(8): words split on spaces, a { } group is one argument.
        var arguments: [String] = []
        var rest = Substring(argv)
        while case let first = rest.drop(while: { $0 == " " }), !first.isEmpty {
            if first.hasPrefix("{ "), let close = first.range(of: " }") {
                arguments.append(String(first[first.index(first.startIndex, offsetBy: 2)..<close.lowerBound]))
                rest = first[close.upperBound...]
            } else {
                let word = first.prefix { $0 != " " }
                arguments.append(String(word))
                rest = first[word.endIndex...]
            }
        }
        #expect(arguments.first == "/bin/sh" && arguments.count == 3, "\(arguments)")
        // The unit signed the reminder with the key of secrets.env: the pipe reads it too.
        let result = try root.run(arguments, in: FileManager.default.temporaryDirectory, environment: [:], input: Data(reply.utf8))
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.contains("responded: RestartTimer"), "\(result.output)")
        // Without the environment file the same reply would be taken for forged.
        let blind = arguments.map { $0.replacingOccurrences(of: " --env-file \(root.url.path)/etc/chime/secrets.env", with: "") }
        #expect(blind != arguments)
        let forged = try root.run(blind, in: FileManager.default.temporaryDirectory, environment: [:],
                                  input: Data(reply.replacingOccurrences(of: "<r1@", with: "<r2@").utf8))
        #expect(forged.status == 0 && forged.output.contains("forged-token"), "\(forged.output)")
        // A configuration the pipe cannot use (a ${NAME} no file sets) defers the reply: 75, never a bounce.
        let xml = root.url.appendingPathComponent("etc/chime/chime.xml")
        try String(contentsOf: xml, encoding: .utf8).replacingOccurrences(of: "linkBase=\"http://127.0.0.1:8080\"", with: "linkBase=\"${NOT_SET_ANYWHERE}\"")
            .write(to: xml, atomically: true, encoding: .utf8)
        let deferred = try root.run(arguments, in: FileManager.default.temporaryDirectory, environment: [:],
                                    input: Data(reply.replacingOccurrences(of: "<r1@", with: "<r3@").utf8))
        #expect(deferred.status == 75 && deferred.output.contains("NOT_SET_ANYWHERE"), "\(deferred.status) \(deferred.output)")
        // chime not installed (or being installed): 75 too, where the shell's 127 (126 for a
        // file not yet executable) is a status Postfix bounces on.
        let uninstalled = arguments.map { $0.replacingOccurrences(of: ChimeProcess.executable.path, with: root.url.path + "/usr/local/bin/chime") }
        #expect(uninstalled != arguments)
        let missing = try root.run(uninstalled, in: FileManager.default.temporaryDirectory, environment: [:], input: Data(reply.utf8))
        #expect(missing.status == 75, "\(missing.status) \(missing.output)")
        // No state folder yet (cron and the pipe do not make it, as units do): 75 too, where
        // cd's own failure (2) is a status Postfix bounces on.
        try FileManager.default.removeItem(at: root.state)
        let homeless = try root.run(arguments, in: FileManager.default.temporaryDirectory, environment: [:], input: Data(reply.utf8))
        #expect(homeless.status == 75, "\(homeless.status) \(homeless.output)")
        // What makes the folder for them: tmpfiles.d, mode 0700, the chime user's.
        let tmpfiles = try String(contentsOf: Self.deploy.appendingPathComponent("systemd/chime.tmpfiles"), encoding: .utf8)
        #expect(tmpfiles.split(separator: "\n").contains("d /var/lib/chime 0700 chime chime -"))

        let transport = try String(contentsOf: Self.deploy.appendingPathComponent("postfix/transport"), encoding: .utf8)
        #expect(transport.split(separator: "\n").contains { !$0.hasPrefix("#") && $0.hasSuffix(" chime:") })
    }

    @Test("header_checks, read by Postfix's own postmap, removes every Authentication-Results a message arrives with (the trusted server's milter adds its own after), however written; the example configuration believes no server until one is set")
    func forgedAuthenticationResults() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("chime-postfix-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data().write(to: folder.appendingPathComponent("main.cf"))
        let table = "regexp:" + Self.deploy.appendingPathComponent("postfix/header_checks").path
        func action(_ header: String) throws -> String {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/sbin/postmap")
            process.arguments = ["-c", folder.path, "-q", header, table]
            let output = Pipe()
            process.standardOutput = output
            try process.run()
            let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            return text.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        for forged in ["Authentication-Results: mx.example.org; dmarc=pass header.from=example.org",
                       "Authentication-Results: (by us) mx.example.org;\n\tdkim=pass header.d=example.org",
                       "authentication-results:mx.example.org; dmarc=pass header.from=example.org",
                       "Authentication-Results : mx.example.org; dmarc=pass header.from=example.org",
                       "Authentication-Results\t: mx.example.org; dmarc=pass header.from=example.org"] {
            #expect(try action(forged) == "IGNORE", "\(forged)")
        }
        #expect(try action("Subject: Authentication-Results: a story").isEmpty)
        #expect(try action("X-Original-Authentication-Results: mx.example.org; none").isEmpty)
        #expect(try action("Authentication-Results-Copy: mx.example.org; none").isEmpty)
        let transport = try String(contentsOf: Self.deploy.appendingPathComponent("postfix/transport"), encoding: .utf8)
        #expect(transport.contains("header_checks = regexp:/etc/postfix/header_checks"))
        let example = try String(contentsOf: Self.deploy.appendingPathComponent("chime.example.xml"), encoding: .utf8)
        let replies = try #require(example.split(separator: "\n").first { $0.hasPrefix("  <replies ") })
        #expect(!replies.contains("trustedAuthServID"), "\(replies)")
    }

    @Test("each unit running chime serve is restarted 5 s after a failure, without end: a store not answering yet makes chime exit 75 at once, and systemd's defaults would give up after 5 starts in half a second")
    func restartedWithoutEnd() throws {
        for name in ["chime-daemon.service", "chime-serve.service", "chime-serve@.service"] {
            let lines = try String(contentsOf: Self.deploy.appendingPathComponent("systemd/\(name)"), encoding: .utf8).split(separator: "\n").map(String.init)
            let unit = lines.prefix { $0 != "[Service]" }, service = lines.drop { $0 != "[Service]" }
            #expect(unit.contains("StartLimitIntervalSec=0"), "\(name)")
            #expect(service.contains("Restart=on-failure") && service.contains("RestartSec=5s"), "\(name)")
        }
    }

    @Test("compose.yaml: PostgreSQL and three workers of the Containerfile's image, each with the store's URL from secrets.env, started once the database answers, each on its own port")
    func composeFile() throws {
        let script = """
            import json, sys, yaml
            print(json.dumps(yaml.safe_load(open(sys.argv[1]))))
            """
        let root = try Root()
        let parsed = try root.run(["/usr/bin/env", "python3", "-c", script, Self.deploy.appendingPathComponent("compose.yaml").path],
                                  in: root.url, environment: [:])
        #expect(parsed.status == 0, "\(parsed.output)")
        let services = try #require((try JSONSerialization.jsonObject(with: Data(parsed.output.utf8)) as? [String: Any])?["services"] as? [String: [String: Any]])
        #expect(Set(services.keys) == ["db", "worker1", "worker2", "worker3"])
        #expect((services["db"]?["image"] as? String)?.contains("postgres") == true)
        #expect(services["db"]?["healthcheck"] != nil)
        var ports: Set<String> = []
        for name in ["worker1", "worker2", "worker3"] {
            let worker = try #require(services[name])
            #expect((worker["build"] as? [String: Any])?["dockerfile"] as? String == "deploy/Containerfile")
            #expect(worker["env_file"] as? String == "secrets.env", "the store's URL and its password come from the secrets file")
            #expect(((worker["depends_on"] as? [String: Any])?["db"] as? [String: Any])?["condition"] as? String == "service_healthy")
            ports.formUnion(worker["ports"] as? [String] ?? [])
            // SIGTERM's work may wait 120 s for the store; compose's default kill comes at 10.
            #expect(worker["stop_grace_period"] as? String == "150s")
            // An init as PID 1 reaps what a hook leaves behind; chime reaps only its own.
            #expect(worker["init"] as? Bool == true)
            // podman's OCI build drops the image's HEALTHCHECK: the service has its own.
            #expect(((worker["healthcheck"] as? [String: Any])?["test"] as? [String])?.contains("http://127.0.0.1:8080/health") == true)
        }
        #expect(ports == ["127.0.0.1:8081:8080", "127.0.0.1:8082:8080", "127.0.0.1:8083:8080"])
        #expect(!FileManager.default.fileExists(atPath: Self.deploy.appendingPathComponent("secrets.env").path), "no secrets are committed")
    }
}
