import ChimeTestSupport
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// `chime serve` as the daemon, through the real executable and the real clock (no
/// `--now`): it fires by itself, wakes for a request another process scheduled sooner,
/// shares a store with another daemon without sending twice, and stops on SIGTERM
/// without losing anything.
@Suite("chime serve fires by itself", .serialized)
struct DaemonTests {
    /// `chime serve --port 0` with its scheduler, its output and log in `NAME.out`.
    final class Daemon {
        let process: Process
        let output: URL

        init(_ ws: Workspace, name: String = "daemon", _ arguments: [String] = []) throws {
            output = ws.url.appendingPathComponent("\(name).out")
            process = try ChimeProcess.start(["serve", "--port", "0"] + arguments, in: ws.url, output: output, withErrors: true)
            let deadline = Date().addingTimeInterval(20)
            while !log.contains("listening on http://127.0.0.1:"), Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
            guard log.contains("listening on") else {
                process.terminate()
                throw CocoaError(.fileReadUnknown)
            }
        }

        var log: String { (try? String(contentsOf: output, encoding: .utf8)) ?? "" }

        /// The port it listens on, as it printed it.
        var port: Int { log.firstMatch(of: /listening on http:\/\/127\.0\.0\.1:(\d+)/).flatMap { Int($0.output.1) } ?? 0 }

        /// How many notifications its log says it fired.
        var fired: Int { log.components(separatedBy: "fired and delivered").count - 1 }

        /// SIGTERM, and its exit status once it stopped.
        func stop() -> Int32 {
            process.terminate()
            process.waitUntilExit()
            return process.terminationStatus
        }
    }

    /// Requests for carol (a Maildir), titled `Reminder N`, each due `seconds(N)` from now
    /// (from `now` when given: another clock's).
    static func schedule(_ ws: Workspace, _ numbers: ClosedRange<Int>, file: String = "batch.json", now: String? = nil,
                         seconds: (Int) -> Int) throws -> String {
        let requests = numbers.map { n in
            #"{"identifier": "r\#(n)", "recipient": "carol", "content": {"title": "Reminder \#(n)"}, "trigger": {"type": "timeInterval", "seconds": \#(seconds(n))}}"#
        }
        try ws.write(file, "[" + requests.joined(separator: ",\n") + "]")
        let result = try ws.chime(["schedule", "--json", file], now: now)
        #expect(result.status == 0, "\(result.stderr)")
        return result.stdout
    }

    /// The instant `chime schedule` printed for one request (`scheduled ID: fires INSTANT`).
    static func instant(of identifier: String, in printed: String) throws -> Date {
        let line = try #require(printed.split(separator: "\n").first { $0.hasPrefix("scheduled \(identifier):") })
        return try #require(ISO8601DateFormatter().date(from: String(line.split(separator: " ").last ?? "")))
    }

    /// The subjects of the messages in carol's Maildir, one per message.
    static func subjects(_ ws: Workspace) throws -> [String] {
        let folder = ws.url.appendingPathComponent("outbox/new")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return try names.map { name in
            let text = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
            return String(text.split(separator: "\n").first { $0.hasPrefix("Subject: ") }?.dropFirst("Subject: ".count) ?? "")
        }
    }

    /// Waits until `carol` has `count` messages, or `timeout` seconds passed; returns when
    /// the last one was seen.
    static func wait(for count: Int, in ws: Workspace, timeout: TimeInterval) throws -> Date? {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if try subjects(ws).count >= count { return Date() }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return nil
    }

    @Test("a reminder a few seconds ahead arrives in the Maildir at its instant, with no chime run")
    func firesByItself() throws {
        let ws = try Workspace()
        let daemon = try Daemon(ws)
        let printed = try Self.schedule(ws, 1...1) { _ in 3 }
        let due = try Self.instant(of: "r1", in: printed)
        let arrived = try Self.wait(for: 1, in: ws, timeout: 15)
        #expect(daemon.stop() == 0)
        let at = try #require(arrived, "not delivered: \(daemon.log)")
        #expect(at >= due)
        #expect(at.timeIntervalSince(due) < 4, "arrived \(at.timeIntervalSince(due)) s after its instant")
        #expect(try Self.subjects(ws) == ["Reminder 1"])
        #expect(try ws.chime(["pending"]).stdout.isEmpty)
    }

    @Test("a SIGHUP that moves a recipient to an earlier zone: their floating reminder, now due in a few seconds, fires at its instant, not at the next minute's round")
    func reloadMovesFloatingReminder() throws {
        let ws = try Workspace()
        // Eight seconds from now on the wall clock of UTC: in New York, five hours away.
        let due = Date().addingTimeInterval(8)
        let wall = DateFormatter()
        wall.locale = Locale(identifier: "en_US_POSIX")
        wall.timeZone = TimeZone(identifier: "UTC")
        wall.dateFormat = "yyyy-MM-dd'T'HH:mm:ss"
        try ws.write("floating.json", #"[{"identifier": "f1", "recipient": "bob", "content": {"title": "Floating"}, "trigger": {"type": "date", "fireDate": "\#(wall.string(from: due))", "timeZone": null}}]"#)
        #expect(try ws.chime(["schedule", "--json", "floating.json"]).status == 0)
        let daemon = try Daemon(ws)
        defer { _ = daemon.stop() }
        try ws.write("chime.xml", Workspace.defaultConfiguration.replacingOccurrences(of: #"<recipient id="bob" timeZone="America/New_York""#,
                                                                                      with: #"<recipient id="bob" timeZone="UTC""#))
        kill(daemon.process.processIdentifier, SIGHUP)
        var arrived: Date?
        let deadline = Date().addingTimeInterval(30)
        while arrived == nil, Date() < deadline {
            Thread.sleep(forTimeInterval: 0.1)
            if ((try? ws.read("sent.jsonl")) ?? "").contains("Floating") { arrived = Date() }
        }
        let at = try #require(arrived, "not fired within 30 s: \(daemon.log.suffix(1500))")
        #expect(at.timeIntervalSince(due) < 5, "arrived \(at.timeIntervalSince(due)) s after its instant: \(daemon.log.suffix(800))")
    }

    @Test("a SIGHUP whose chime.xml is refused leaves the environment file's rotated CHIME_SECRET_KEY out of force too: what the daemon fires afterwards is signed with the key its link pages check, and its link opens")
    func refusedReloadKeepsKey() throws {
        let ws = try Workspace()
        try ws.write("secrets.env", "CHIME_SECRET_KEY=\(String(repeating: "1", count: 32))\n")
        let daemon = try Daemon(ws, ["--env-file", ws.path("secrets.env")])
        defer { _ = daemon.stop() }
        try ws.write("secrets.env", "CHIME_SECRET_KEY=\(String(repeating: "2", count: 32))\n")
        try ws.write("chime.xml", Workspace.defaultConfiguration.replacingOccurrences(of: "</chime>", with: "<unknown/></chime>"))
        kill(daemon.process.processIdentifier, SIGHUP)
        let deadline = Date().addingTimeInterval(5)
        while !daemon.log.contains("not reloaded"), Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        #expect(daemon.log.contains("configuration not reloaded"), "\(daemon.log)")
        try ws.write("chime.xml", Workspace.defaultConfiguration)

        try ws.write("key.json", #"[{"identifier": "k1", "recipient": "alice", "content": {"title": "Key", "categoryIdentifier": "reminder"}, "trigger": {"type": "timeInterval", "seconds": 1}}]"#)
        #expect(try ws.chime(["schedule", "--json", "key.json"]).status == 0)
        var line = ""
        let fired = Date().addingTimeInterval(15)
        while line.isEmpty, Date() < fired {
            Thread.sleep(forTimeInterval: 0.1)
            line = (try? ws.read("sent.jsonl")) ?? ""
        }
        let path = try #require(line.firstMatch(of: /https?:\/\/[^\/"]+(\/a\/[^"]+\/done)"/)?.output.1, "not fired: \(daemon.log.suffix(1500))")
        let page = try ServeTests.Server.request(port: daemon.port, "GET", String(path))
        #expect(page.status == 200, "\(page.body.prefix(300))")
        #expect(page.body.contains("Done"), "the action's page: \(page.body.prefix(300))")
    }

    @Test("150 notifications held (their recipient has no address) do not stand in the way: one due after them still arrives at its instant, and the held ones stay pending, tried again a minute on")
    func heldDoNotBlock() throws {
        let ws = try Workspace(configuration: Workspace.defaultConfiguration.replacingOccurrences(
            of: "</recipients>", with: #"<recipient id="erin" timeZone="UTC"/></recipients>"#))
        let held = (1...150).map { #"{"identifier": "e\#($0)", "recipient": "erin", "content": {"title": "Held"}, "trigger": {"type": "timeInterval", "seconds": 60}}"# }
        try ws.write("held.json", "[" + held.joined(separator: ",") + "]")
        // Due a minute before the daemon starts: first in line in every claim.
        let past = ISO8601DateFormatter().string(from: Date().addingTimeInterval(-120))
        #expect(try ws.chime(["schedule", "--json", "held.json", "--now", past]).status == 0)
        let daemon = try Daemon(ws)
        let printed = try Self.schedule(ws, 1...1) { _ in 3 }
        let due = try Self.instant(of: "r1", in: printed)
        let arrived = try Self.wait(for: 1, in: ws, timeout: 15)
        #expect(daemon.stop() == 0)
        let at = try #require(arrived, "not delivered behind the held ones: \(daemon.log.suffix(2000))")
        #expect(at.timeIntervalSince(due) < 4, "arrived \(at.timeIntervalSince(due)) s after its instant")
        #expect(try ws.chime(["pending"]).stdout.split(separator: "\n").count == 150, "the held ones are still pending")
    }

    /// A daemon over r1, due in an hour, once its first round is over: its next wake-up is
    /// a minute away, and it asks the store every second meanwhile.
    static func waitingDaemon(_ ws: Workspace) throws -> Daemon {
        _ = try schedule(ws, 1...1, file: "later.json") { _ in 3600 }
        let daemon = try Daemon(ws)
        Thread.sleep(forTimeInterval: 1.5)
        return daemon
    }

    @Test("a request chime schedule adds after the daemon started, sooner than anything pending, wakes it")
    func wokenBySoonerRequest() throws {
        let ws = try Workspace()
        let daemon = try Self.waitingDaemon(ws)
        let printed = try Self.schedule(ws, 2...2, file: "sooner.json") { _ in 4 }
        let due = try Self.instant(of: "r2", in: printed)
        let arrived = try Self.wait(for: 1, in: ws, timeout: 20)
        #expect(daemon.stop() == 0)
        let at = try #require(arrived, "not delivered: \(daemon.log)")
        #expect(at.timeIntervalSince(due) < 4, "arrived \(at.timeIntervalSince(due)) s after its instant")
        #expect(try Self.subjects(ws) == ["Reminder 2"])
        #expect(try ws.chime(["pending"]).stdout.contains("r1"))
    }

    @Test("a request added with its instant already past by the daemon's clock (chime schedule on a machine whose clock is behind) is fired within seconds, not at the daemon's next minute")
    func addedAlreadyDue() throws {
        let ws = try Workspace()
        let daemon = try Self.waitingDaemon(ws)
        // Scheduled from a clock 30 s behind: due 25 s before the daemon's last round.
        let behind = ISO8601DateFormatter().string(from: Date().addingTimeInterval(-30))
        _ = try Self.schedule(ws, 2...2, file: "behind.json", now: behind) { _ in 5 }
        let added = Date()
        let arrived = try Self.wait(for: 1, in: ws, timeout: 30)
        #expect(daemon.stop() == 0)
        let at = try #require(arrived, "not delivered: \(daemon.log)")
        #expect(at.timeIntervalSince(added) < 10, "arrived \(at.timeIntervalSince(added)) s after it was added")
        #expect(try Self.subjects(ws) == ["Reminder 2"])
    }

    @Test("two daemons on one store deliver 200 reminders due over a few seconds, each exactly once, sharing the work")
    func twoDaemons() throws {
        let ws = try Workspace()
        let first = try Daemon(ws, name: "first")
        let second = try Daemon(ws, name: "second")
        // 150 at one instant (more than one round takes, so both daemons take a part),
        // then 50 over the next seconds.
        _ = try Self.schedule(ws, 1...200) { n in n <= 150 ? 3 : 4 + n % 3 }
        let arrived = try Self.wait(for: 200, in: ws, timeout: 30)
        Thread.sleep(forTimeInterval: 1) // anything sent twice would arrive by now
        #expect(first.stop() == 0)
        #expect(second.stop() == 0)
        #expect(arrived != nil)
        let subjects = try Self.subjects(ws)
        #expect(subjects.count == 200)
        #expect(Set(subjects) == Set((1...200).map { "Reminder \($0)" }))
        #expect(first.fired + second.fired == 200)
        #expect(first.fired > 0 && second.fired > 0, "shares: \(first.fired) and \(second.fired)")
        #expect(try ws.chime(["pending"]).stdout.isEmpty)
        #expect(try ws.chime(["delivered"]).stdout.split(separator: "\n").count == 200)
    }

    @Test("chime serve on PostgreSQL through an outage: while the server is down, /health answers 503 and /metrics 200 with chime_store_up 0 within seconds, 10 probes at once too, rather than after the store's 120 s; once it is back, 200 again, and a reminder that fell due meanwhile arrives once")
    func postgresOutage() throws {
        let postgres = try PostgresServer.ofItsOwn()
        defer { postgres.stop() }
        let store = try postgres.makeDatabase()
        let ws = try Workspace()
        let daemon = try Daemon(ws, ["--store", store])
        #expect(Self.atOnce(1, port: daemon.port, path: "/health").map(\.status) == [200])
        try ws.write("soon.json", #"{"identifier": "r1", "recipient": "carol", "content": {"title": "Reminder 1"}, "trigger": {"type": "timeInterval", "seconds": 12}}"#)
        let scheduled = try ws.chime(["schedule", "--json", "soon.json", "--store", store])
        #expect(scheduled.status == 0, "\(scheduled.stderr)")
        let due = try Self.instant(of: "r1", in: scheduled.stdout)

        try postgres.shutDown()
        // Probes and scrapes at once: each store call waits for the server, but none of
        // the answers waits for those calls.
        for (path, answer) in [("/health", 503), ("/metrics", 200)] {
            let answers = Self.atOnce(10, port: daemon.port, path: path)
            #expect(answers.allSatisfy { $0.status == answer }, "\(path): \(answers.map(\.status))")
            #expect(answers.allSatisfy { $0.seconds < 6 }, "\(path) answered after \(answers.map(\.seconds)) s")
            if path == "/metrics" { #expect(answers.allSatisfy { $0.body.contains("\nchime_store_up 0") }) }
        }
        // Down past the reminder's instant.
        Thread.sleep(until: due.addingTimeInterval(2))
        #expect(try Self.subjects(ws).isEmpty)
        try postgres.startAgain()

        // Up to 90 s: PostgresNIO's pool backs off between failed connections (1.8 s, then
        // 2.3 s… in the log), so on a loaded machine the first one after the restart may
        // come well after it; the local CI of 213fc9e waited 30 s in vain.
        let arrived = try Self.wait(for: 1, in: ws, timeout: 90)
        #expect(arrived != nil, "not delivered after the outage: \(daemon.log.suffix(3000))")
        #expect(Self.atOnce(1, port: daemon.port, path: "/health").map(\.status) == [200])
        Thread.sleep(forTimeInterval: 1) // anything sent twice would arrive by now
        #expect(daemon.stop() == 0)
        #expect(try Self.subjects(ws) == ["Reminder 1"])
        #expect(daemon.log.contains("health: the store cannot be read") && daemon.log.contains("no answer within 3 s"))
    }

    /// `count` GET requests for `path` at once, each on a connection of its own: what each
    /// answered (status 0 when it did not within 30 s) and how long it took.
    static func atOnce(_ count: Int, port: Int, path: String) -> [(status: Int, body: String, seconds: TimeInterval)] {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpMaximumConnectionsPerHost = count
        let session = URLSession(configuration: configuration)
        defer { session.finishTasksAndInvalidate() }
        let answers = Answers()
        let group = DispatchGroup()
        for _ in 0..<count {
            group.enter()
            let asked = Date()
            session.dataTask(with: URLRequest(url: URL(string: "http://127.0.0.1:\(port)\(path)")!, timeoutInterval: 30)) { data, response, _ in
                answers.add(((response as? HTTPURLResponse)?.statusCode ?? 0, String(decoding: data ?? Data(), as: UTF8.self), Date().timeIntervalSince(asked)))
                group.leave()
            }.resume()
        }
        group.wait()
        return answers.all
    }

    final class Answers: @unchecked Sendable { // under `lock`
        private let lock = NSLock()
        private var answers: [(status: Int, body: String, seconds: TimeInterval)] = []
        func add(_ answer: (status: Int, body: String, seconds: TimeInterval)) { lock.withLock { answers.append(answer) } }
        var all: [(status: Int, body: String, seconds: TimeInterval)] { lock.withLock { answers } }
    }

    @Test("SIGTERM while firing: the round in flight finishes, the daemon exits 0, chime run sends the rest, nothing twice")
    func stoppedWhileFiring() throws {
        let ws = try Workspace()
        let daemon = try Daemon(ws)
        _ = try Self.schedule(ws, 1...1000) { _ in 3 }
        #expect(try Self.wait(for: 1, in: ws, timeout: 20) != nil)
        #expect(daemon.stop() == 0)
        let byDaemon = try Self.subjects(ws).count
        #expect(byDaemon == daemon.fired)
        #expect(byDaemon < 1000, "the daemon went on firing after SIGTERM")
        // Its claims were settled or handed back: the next run takes back nothing.
        let run = try ws.chime(["run"])
        #expect(run.status == 0)
        #expect(!run.stdout.contains("took back"), "\(run.stdout)")
        #expect(run.stdout.hasPrefix("fired \(1000 - byDaemon)"), "\(run.stdout)")
        let subjects = try Self.subjects(ws)
        #expect(subjects.count == 1000)
        #expect(Set(subjects) == Set((1...1000).map { "Reminder \($0)" }))
        #expect(try ws.chime(["pending"]).stdout.isEmpty)
    }

    @Test("a digest the daemon is still sending to a slow relay is not sent again by its own firing, which holds a notification each second meanwhile")
    func digestNotSentTwice() throws {
        // The relay answers each message's data after 4 s.
        let relay = try SMTPServer(["--delay", "4"])
        let ws = try Self.nightKeptForDigest(["alice"], channel: #"<channel id="mail" url="smtp://127.0.0.1:\#(relay.port)" from="bot@example.org"/>"#,
                                             others: #"<recipient id="erin" timeZone="UTC"/>"#)
        // erin has no address: each of hers is held, one a second once the daemon starts.
        let held = (1...12).map { #"{"identifier": "e\#($0)", "recipient": "erin", "content": {"title": "Held"}, "trigger": {"type": "timeInterval", "seconds": \#($0)}}"# }
        try ws.write("held.json", "[" + held.joined(separator: ",") + "]")
        #expect(try ws.chime(["schedule", "--json", "held.json"], now: "2026-11-21T07:00:00Z").status == 0)
        let daemon = try Daemon(ws, ["--now", "2026-11-21T07:00:00Z"])
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline, !daemon.log.contains("digest sent") { Thread.sleep(forTimeInterval: 0.2) }
        // Time for a second sending of the digest, were it claimed again, to arrive.
        Thread.sleep(forTimeInterval: 6)
        #expect(daemon.stop() == 0)
        let digests = try relay.messages().filter { ($0["data"] as? String)?.contains("Night") == true }
        #expect(digests.count == 1, "the relay took the digest \(digests.count) times: \(daemon.log.suffix(3000))")
    }

    @Test("digests queued while the relay is down all go once it is back: those a refused connection left untried are not held for the lease")
    func untriedDigestsGivenBack() throws {
        // The relay's port, held with nothing listening: connections are refused.
        let reserved = try ReservedPort()
        let port = reserved.port
        let names = ["alice", "bob", "carol"]
        // One connection: the digests after the first wait for it, and are left untried
        // when it is refused. Each retry after 1 to 2 s.
        let ws = try Self.nightKeptForDigest(names, channel: #"<channel id="mail" url="smtp://127.0.0.1:\#(port)" from="bot@example.org" concurrency="1" backoff="2s" maxBackoff="2s"/>"#)
        let daemon = try Daemon(ws, ["--now", "2026-11-21T07:00:00Z"])
        // Once the first connection was refused, the relay comes back.
        let tried = Date().addingTimeInterval(15)
        var refused = false
        while !refused, Date() < tried {
            Thread.sleep(forTimeInterval: 0.1)
            refused = try ws.chime(["deliveries"]).stdout.contains("attempt, next")
        }
        try #require(refused, "the relay was never tried: \(daemon.log.suffix(2000))")
        let relay = try SMTPServer(["--port", "\(port)"])
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline, try relay.messages().count < 3 { Thread.sleep(forTimeInterval: 0.1) }
        let listed = try ws.chime(["deliveries"]).stdout
        #expect(daemon.stop() == 0)
        let to = try relay.messages().compactMap { ($0["to"] as? [String])?.first }
        #expect(to.sorted() == names.map { "\($0)@example.org" }, "\(listed)\n\(daemon.log.suffix(3000))")
    }

    @Test("emails still going to a slow relay do not hold up the daemon's firing: a reminder to a Maildir due meanwhile arrives at its instant, and every email is sent")
    func slowRelayDoesNotDelayFiring() throws {
        // The relay answers each message's data after 3 s: dan's 4 emails, one after the
        // other (one recipient's in the order queued), 12 s.
        let (relay, ws, daemon) = try Self.emailsBehindSlowRelay(4, delay: 3)
        let printed = try Self.schedule(ws, 2...2) { _ in 3 }
        let due = try Self.instant(of: "r2", in: printed)
        let arrived = try Self.wait(for: 1, in: ws, timeout: 15)
        let at = try #require(arrived, "not delivered: \(daemon.log.suffix(2000))")
        #expect(at.timeIntervalSince(due) < 4, "arrived \(at.timeIntervalSince(due)) s after its instant, behind the emails")
        let deadline = Date().addingTimeInterval(20)
        while try relay.messages().count < 4, Date() < deadline { Thread.sleep(forTimeInterval: 0.2) }
        #expect(daemon.stop() == 0)
        #expect(try relay.messages().count == 4, "\(daemon.log.suffix(2000))")
    }

    @Test("an email the daemon fires reaches the relay at its instant, not a minute on, and one queued with the daemon stopping right after is sent before it exits", arguments: [false, true])
    func emailSentAtOnce(stopping: Bool) throws {
        let relay = try SMTPServer()
        let ws = try Self.workspace(relay: relay)
        let daemon = try Self.waitingDaemon(ws)
        try ws.write("email.json", #"[{"identifier": "d1", "recipient": "dan", "content": {"title": "Email"}, "trigger": {"type": "timeInterval", "seconds": 2}}]"#)
        let printed = try ws.chime(["schedule", "--json", "email.json"])
        let due = try Self.instant(of: "d1", in: printed.stdout)
        if stopping {
            // SIGTERM as soon as it says it fired: its sending stops after its firing.
            while !daemon.log.contains("notification.id=d1"), Date() < due.addingTimeInterval(10) { Thread.sleep(forTimeInterval: 0.01) }
            #expect(daemon.stop() == 0)
            #expect(try relay.messages().count == 1, "\(daemon.log.suffix(2000))")
            return
        }
        let deadline = due.addingTimeInterval(15)
        while try relay.messages().isEmpty, Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        let at = Date()
        #expect(daemon.stop() == 0)
        #expect(try relay.messages().count == 1, "\(daemon.log.suffix(2000))")
        #expect(at.timeIntervalSince(due) < 5, "sent \(at.timeIntervalSince(due)) s after its instant")
    }

    @Test("SIGTERM while sending a backlog to a slow relay: sending stops about 10 s later (no email waiting in the pool for the connection starts after), the daemon exits 0, what it had not started is given back at once, and chime run sends it, each email once")
    func stoppedWhileSending() throws {
        // 20 emails to 20 addresses over one connection, each answered after 1 s: 20 s at
        // least, twice the 10 s that sending is given after SIGTERM. Up to 8 wait in the
        // pool for the connection beside the one it sends: when sending stops (within a
        // second of the 10 s: the loop is woken by its emails' ends, and by the clock once
        // a second), those go back in line, and only the email on the connection and the
        // next it had taken up are sent; the 6 or more left are not.
        let (relay, ws, daemon) = try Self.emailsBehindSlowRelay(20, delay: 1, spread: true)
        try Self.stopMidway(daemon, relay: relay, of: 20, within: 16)
        // The rest was left queued, its claims given back: the next run sends it at once.
        let run = try ws.chime(["run"])
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(!run.stdout.contains("took back"), "\(run.stdout)")
        #expect(run.stdout.hasPrefix("fired 0, delivered "), "\(run.stdout)")
        let copies = try relay.messageIDsBySubject()
        #expect(copies.count == 20 && copies.values.allSatisfy { $0.count == 1 }, "\(copies.filter { $0.value.count != 1 })")
    }

    @Test("SIGTERM while a digest round sends to a slow relay: its sending and the daemon's stop, the daemon exits 0, and chime run sends the digests left queued, each once")
    func stoppedWhileSendingDigests() throws {
        // 100 digests, each answered after 0.25 s: 25 s over one connection. The daemon's
        // sending loop may take some of them (it sends what it finds queued, and the
        // round queues the digests before it claims them): each courier on a connection
        // of its own, the round's stopping 10 s after SIGTERM, the sending loop 10 s after
        // firing has stopped, which is after the round has ended.
        let relay = try SMTPServer(["--delay", "0.25"])
        let names = (1...100).map { "r\($0)" }
        let ws = try Self.nightKeptForDigest(names, channel: #"<channel id="mail" url="smtp://127.0.0.1:\#(relay.port)" from="bot@example.org" concurrency="1"/>"#)
        let daemon = try Daemon(ws, ["--now", "2026-11-21T07:00:00Z"])
        try Self.stopMidway(daemon, relay: relay, of: 100, within: 25)
        let run = try ws.chime(["run"], now: "2026-11-21T07:01:00Z")
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        let to = try relay.messages().compactMap { ($0["to"] as? [String])?.first }
        #expect(to.sorted() == names.map { "\($0)@example.org" }.sorted(), "\(run.stdout)")
    }

    /// SIGTERM once `relay` took 2 of the `count` emails it is being sent, 10 s of sending
    /// or more ahead: the daemon exits 0 within `seconds`, fewer than `count` sent, having
    /// logged that sending stopped and the rest stays queued.
    static func stopMidway(_ daemon: Daemon, relay: SMTPServer, of count: Int, within seconds: Double) throws {
        let deadline = Date().addingTimeInterval(20)
        while try relay.messages().count < 2, Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        let stopping = Date()
        #expect(daemon.stop() == 0)
        let took = Date().timeIntervalSince(stopping)
        let messages = try relay.messages()
        #expect(took < seconds, "the daemon took \(took) s to stop")
        #expect(messages.count >= 2 && messages.count < count, "the relay took \(messages.count) emails before the daemon stopped: \(daemon.log.suffix(2000))")
        #expect(daemon.log.contains("sending stopped: what is not sent yet stays queued for the next process"), "\(daemon.log.suffix(2000))")
    }

    /// A workspace where each of `names` keeps what comes in their quiet hours (22:00 to
    /// 07:00, UTC) for a 07:00 digest, their address on `channel` (id `mail`), with
    /// `others` beside them; each has one reminder ("Night") so kept, due at 02:00.
    static func nightKeptForDigest(_ names: [String], channel: String, others: String = "") throws -> Workspace {
        let recipients = names.map {
            #"<recipient id="\#($0)" timeZone="UTC" quietHours="22:00-07:00" quietHoursMode="digest" digestAt="07:00"><address channel="mail">\#($0)@example.org</address></recipient>"#
        }
        let ws = try Workspace(configuration: """
            <chime version="1">
              <categories><category identifier="reminder"><action identifier="done" title="Done"/></category></categories>
              <channels>\(channel)</channels>
              <recipients>\(recipients.joined())\(others)</recipients>
            </chime>
            """)
        let night = names.map {
            #"{"identifier": "n-\#($0)", "recipient": "\#($0)", "content": {"title": "Night"}, "trigger": {"type": "timeInterval", "seconds": 60}}"#
        }
        try ws.write("night.json", "[" + night.joined(separator: ",") + "]")
        #expect(try ws.chime(["schedule", "--json", "night.json"], now: "2026-11-21T01:59:00Z").status == 0)
        #expect(try ws.chime(["run"], now: "2026-11-21T02:00:00Z").status == 0)
        return ws
    }

    /// A relay answering each message's data after `delay` seconds, a waiting daemon, and
    /// `count` emails (`Email N`, identifiers `dN`) scheduled a second ahead: to dan, or
    /// with `spread`, each to a recipient of its own (`pN`) over one connection.
    static func emailsBehindSlowRelay(_ count: Int, delay: Double, spread: Bool = false) throws -> (SMTPServer, Workspace, Daemon) {
        let relay = try SMTPServer(["--delay", "\(delay)"])
        let ws = try spread ? workspace(relay: relay, others: (1...count).map { "p\($0)" }, attributes: #" concurrency="1""#) : workspace(relay: relay)
        let daemon = try waitingDaemon(ws)
        let emails = (1...count).map { #"{"identifier": "d\#($0)", "recipient": "\#(spread ? "p\($0)" : "dan")", "content": {"title": "Email \#($0)"}, "trigger": {"type": "timeInterval", "seconds": 1}}"# }
        try ws.write("emails.json", "[" + emails.joined(separator: ",") + "]")
        #expect(try ws.chime(["schedule", "--json", "emails.json"]).status == 0)
        return (relay, ws, daemon)
    }

    /// The default workspace with dan (and `others`), whose address (`NAME@example.org`) is
    /// on an SMTP channel to `relay`, with `attributes` (`concurrency="1"`).
    static func workspace(relay: SMTPServer, others: [String] = [], attributes: String = "") throws -> Workspace {
        let recipients = (["dan"] + others).map { #"<recipient id="\#($0)" timeZone="UTC"><address channel="mail">\#($0)@example.org</address></recipient>"# }
        return try Workspace(configuration: Workspace.defaultConfiguration
            .replacingOccurrences(of: "</channels>", with: #"<channel id="mail" url="smtp://127.0.0.1:\#(relay.port)" from="bot@example.org"\#(attributes)/></channels>"#)
            .replacingOccurrences(of: "</recipients>", with: recipients.joined() + "</recipients>"))
    }
}
