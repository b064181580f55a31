import ChimeCore
import ChimeTestSupport
import Foundation
import Testing

/// Several workers on one PostgreSQL store, each named as a machine of its own
/// (`$CHIME_WORKER_ID`), so that a killed worker's claims come back only when their lease
/// ends, as across machines; killed with SIGKILL at random moments and started again.
@Suite("Workers on PostgreSQL", .serialized)
struct PostgresWorkersTests {
    /// Seconds a claim holds here (`$CHIME_LEASE`): longer than a batch of 500 takes to
    /// send to the test server, short enough for a killed worker's claims to come back
    /// within the test.
    static let lease = 15

    /// The database a test PostgreSQL URL names.
    static func database(of url: String) -> String {
        String(url.split(separator: "/").last!.split(separator: "?").first!)
    }

    /// One place a worker runs: started again under a new worker id each time it ends
    /// or is killed, as a machine replaced by another.
    final class Slot {
        let name: String
        let arguments: [String]
        var process: Process?
        var starts = 0
        var endedAt = Date.distantPast

        init(name: String, arguments: [String]) {
            self.name = name
            self.arguments = arguments
        }
    }

    @Test("4 chime run and a chime serve on PostgreSQL, each its own worker id, on 2,000 due to a flaky SMTP server, SIGKILLed at random moments and started again: every message accepted, none twice but a resend after a kill, with the same Message-ID")
    func exactlyOnceAcrossWorkers() throws {
        let count = 2000
        // Flaky: every 7th DATA deferred, every 23rd connection dropped mid-DATA.
        let server = try SMTPServer(["--tempfail-every", "7", "--drop-every", "23", "--delay", "0.002"])
        let postgres = try PostgresServer.shared()
        let store = try postgres.makeDatabase()
        let database = Self.database(of: store)
        let ws = try Workspace(configuration: DeliveryTests.configuration(
            channels: [#"<channel id="mail" url="smtp://127.0.0.1:\#(server.port)" from="bot@example.org" backoff="1s" maxBackoff="1s" maxAttempts="100"/>"#],
            recipients: (0..<20).map { ("u\($0)", "mail", "u\($0)@example.org") }))
        // Due a minute ago by the clock, which chime run and chime serve fire by.
        let requests = (1...count).map {
            #"{"identifier": "k\#($0)", "recipient": "u\#($0 % 20)", "content": {"title": "k\#($0)", "body": "Tea"}, "trigger": {"type": "timeInterval", "seconds": 60}}"#
        }
        try ws.write("requests.json", "[" + requests.joined(separator: ",") + "]")
        let scheduled = try ws.chime(["schedule", "--json", "requests.json", "--store", store],
                                     now: ISO8601DateFormatter().string(from: Date() - 120))
        #expect(scheduled.status == 0, "\(scheduled.stderr)")

        let slots = (1...4).map { Slot(name: "run\($0)", arguments: ["run"]) } + [Slot(name: "serve", arguments: ["serve", "--port", "0"])]
        func start(_ slot: Slot) throws {
            slot.starts += 1
            let id = "\(slot.name)-\(slot.starts)"
            slot.process = try ChimeProcess.start(slot.arguments, in: ws.url, output: ws.url.appendingPathComponent("\(id).out"), withErrors: true,
                                                  environment: ["CHIME_STORE": store, "CHIME_WORKER_ID": id, "CHIME_LEASE": "\(Self.lease)"])
        }
        func finished() throws -> Bool {
            try postgres.psql("SELECT (SELECT COUNT(*) FROM pending), (SELECT COUNT(*) FROM outbox WHERE state = 'delivered')",
                              database: database).trimmingCharacters(in: .whitespacesAndNewlines) == "0|\(count)"
        }

        let began = Date()
        var random = SplitMix(seed: UInt64(began.timeIntervalSince1970 * 1000))
        print("PostgresWorkersTests.exactlyOnceAcrossWorkers: seed \(random.state)")
        var kills = 0, killsMidway = 0, nextKill = began + 0.3, nextCheck = began + 1, done = false
        // How many messages the server has taken so far: its log's lines.
        func accepted() -> Int {
            (FileManager.default.contents(atPath: server.folder.appendingPathComponent("log.jsonl").path) ?? Data()).count(where: { $0 == 0x0A })
        }
        // Kills by count, not for a fixed time (a busy machine starts and kills workers
        // more slowly), a margin above the kills asked for, for at most 60 s; then the
        // workers are left alone until everything is through (a killed worker's claims
        // coming back once their lease ends).
        let asked = (all: 10, midway: 5)
        let killing = (all: asked.all + 2, midway: asked.midway + 1)
        while !done, Date() < began + 150 {
            for slot in slots where !(slot.process?.isRunning ?? false) {
                if slot.process != nil && slot.endedAt == .distantPast { slot.endedAt = Date() }
                // A chime run that ended is started again soon after, as a timer would.
                if slot.process == nil || Date() > slot.endedAt + 0.3 {
                    try start(slot)
                    slot.endedAt = .distantPast
                }
            }
            if Date() > nextKill, kills < killing.all || killsMidway < killing.midway, Date() < began + 60 {
                let running = slots.filter { $0.process?.isRunning ?? false }
                if !running.isEmpty {
                    let victim = running[Int(random.next() % UInt64(running.count))]
                    kill(victim.process!.processIdentifier, SIGKILL)
                    victim.process!.waitUntilExit()
                    kills += 1
                    if (1..<count).contains(accepted()) { killsMidway += 1 }
                }
                nextKill = Date() + 0.2 + Double(random.next() % 600) / 1000
            }
            if Date() > nextCheck {
                done = try finished()
                nextCheck = Date() + 1
            }
            usleep(50_000)
        }
        let seconds = Date().timeIntervalSince(began)
        for slot in slots { if let process = slot.process, process.isRunning { kill(process.processIdentifier, SIGTERM) } }
        for slot in slots { slot.process?.waitUntilExit() }
        #expect(done, "not all delivered after \(Int(seconds)) s")
        #expect(kills >= asked.all, "killed \(kills)")
        #expect(killsMidway >= asked.midway, "killed \(killsMidway) while messages were being accepted")

        #expect(try ws.chime(["pending", "--store", store]).stdout.isEmpty)
        let listed = try ws.chime(["deliveries", "--json", "--store", store])
        let deliveries = try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]] ?? []
        #expect(deliveries.count == count)
        #expect(deliveries.allSatisfy { $0["state"] as? String == "delivered" })
        let delivered = try ws.chime(["delivered", "--store", store])
        #expect(delivered.stdout.split(separator: "\n").count == count)

        // What the server accepted: each reminder's copies with their Message-IDs.
        let copies = try server.messageIDsBySubject()
        #expect(copies.count == count, "every reminder accepted")
        #expect(Set(copies.keys) == Set((1...count).map { "k\($0)" }))
        #expect(copies.values.allSatisfy { Set($0).count == 1 && !$0[0].isEmpty }, "a resend carries the same Message-ID")
        // A killed worker resends what the server took and it had not recorded yet: at
        // most the recorder's backlog (64) and the one in flight, per kill; no resend
        // without a kill (a live worker's claims are never taken while its lease holds).
        let extra = copies.values.reduce(0) { $0 + $1.count - 1 }
        #expect(extra <= kills * 65, "resends beyond what the kills explain: \(extra) after \(kills) kills")
        #expect(copies.values.allSatisfy { $0.count <= 1 + kills })
        let outputs = try FileManager.default.contentsOfDirectory(atPath: ws.url.path).filter { $0.hasSuffix(".out") }
            .map { try ws.read($0) }
        let tookBack = outputs.filter { $0.contains("took back") }.count
        print(String(format: "PostgresWorkersTests: %d reminders through %d worker starts in %.1f s, %d killed (%d while messages were being accepted); %d accepted more than once, %d resends in all; %d runs took back a dead worker's claims",
                     count, slots.map(\.starts).reduce(0, +), seconds, kills, killsMidway, copies.values.filter { $0.count > 1 }.count, extra, tookBack))
    }

    @Test("overlapping chime digest runs on PostgreSQL, each its own worker id, then three of four SIGKILLed mid-run: one digest per recipient, each item in one")
    func digestsOnce() throws {
        let count = 200
        let postgres = try PostgresServer.shared()
        let store = try postgres.makeDatabase()
        let database = Self.database(of: store)
        let ws = try PolicyTests.crowd(count)
        func digests(_ ids: [String], now: String) throws -> [(Process, URL)] {
            try ids.map { id in
                let output = ws.url.appendingPathComponent("\(id).out")
                return (try ChimeProcess.start(["digest", "--now", now], in: ws.url, output: output,
                                               environment: ["CHIME_STORE": store, "CHIME_WORKER_ID": id]), output)
            }
        }

        // Four runs at once at the 22nd's 07:00 slot: each recipient's digest sent once.
        try PolicyTests.park(ws, count: count, day: 21, store: ["--store", store])
        let together = try digests((1...4).map { "a\($0)" }, now: "2026-11-22T07:00:00Z")
        together.forEach { $0.0.waitUntilExit() }
        #expect(together.allSatisfy { $0.0.terminationStatus == 0 })
        let said = try together.map { try String(contentsOf: $0.1, encoding: .utf8) }
        let sent = said.map { $0.components(separatedBy: "\n").filter { $0.hasPrefix("digest r") }.count }
        #expect(sent.reduce(0, +) == count, "\(sent)")
        let first = try PolicyTests.items(ws, slot: String(Instant(rfc3339: "2026-11-22T07:00:00Z")!.seconds))
        #expect(first.files == count)
        #expect(first.counts.count == count * 2 && first.counts.values.allSatisfy { $0 == 1 })

        // The next day: four at once, three of them killed once they have claimed a random
        // number of digests (so mid-run); their unfinished digests are another worker's,
        // finished by a run once their lease (10 minutes of the runs' instant) is over.
        try PolicyTests.park(ws, count: count, day: 22, store: ["--store", store])
        var random = SplitMix(seed: 20)
        let overlapping = try digests((1...4).map { "b\($0)" }, now: "2026-11-23T07:00:00Z")
        var victims = Dictionary(uniqueKeysWithValues: (0..<3).map { ("b\($0 + 1)", (overlapping[$0].0, Int(1 + random.next() % 20))) })
        var killed = 0
        let deadline = Date() + 30
        while !victims.isEmpty, Date() < deadline {
            let claimed = try postgres.psql("SELECT split_part(claimed_by, ':', 1), COUNT(*) FROM batch GROUP BY 1", database: database)
                .split(separator: "\n").map { $0.split(separator: "|").map(String.init) }
            for (name, (process, threshold)) in victims {
                if !process.isRunning {
                    victims[name] = nil
                } else if let row = claimed.first(where: { $0.first == name }), Int(row[1]) ?? 0 >= threshold {
                    kill(process.processIdentifier, SIGKILL)
                    killed += 1
                    victims[name] = nil
                }
            }
            usleep(5_000)
        }
        overlapping.forEach { $0.0.waitUntilExit() }
        let interrupted = try postgres.psql("SELECT COUNT(*) FROM batch WHERE sent_at IS NULL", database: database)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let last = try ws.chime(["digest", "--store", store], now: "2026-11-23T07:11:00Z", environment: ["CHIME_WORKER_ID": "c1"])
        #expect(last.status == 0, "\(last.stderr.prefix(600))")
        #expect(killed >= 1)
        let second = try PolicyTests.items(ws, slot: String(Instant(rfc3339: "2026-11-23T07:00:00Z")!.seconds))
        #expect(second.files == count, "killed \(killed) runs")
        #expect(second.counts.count == count * 2, "killed \(killed) runs")
        #expect(second.counts.values.allSatisfy { $0 == 1 }, "killed \(killed) runs")
        #expect(try ws.chime(["digest", "--store", store], now: "2026-11-23T08:00:00Z").stdout == "sent 0 digests\n")
        print("PostgresWorkersTests.digestsOnce: \(count) recipients, 4 runs at once sent \(sent); the next day 4 at once, \(killed) killed leaving \(interrupted) digests unfinished, then \(last.stdout.split(separator: "\n").last ?? "")")
    }
}
