import ChimeCore
@testable import ChimePostgres
import ChimeTestSupport
import Foundation
import Testing

/// Many workers on one database at once, each with a store (and a pool) of its own, as
/// processes on several machines would be: each row taken once, each migration applied
/// once, one signing key.
@Suite("The PostgreSQL store under many workers")
struct PostgresConcurrencyTests {
    /// Runs `body` on `count` threads of their own, started together; returns each one's
    /// result in order.
    static func onThreads<T: Sendable>(_ count: Int, _ body: @escaping @Sendable (Int) throws -> T) -> [Result<T, any Error>] {
        let results = Results<T>(count)
        let start = DispatchSemaphore(value: 0)
        let group = DispatchGroup()
        for index in 0..<count {
            group.enter()
            let thread = Thread {
                start.wait()
                results.set(index, Result { try body(index) })
                group.leave()
            }
            thread.stackSize = 1 << 20
            thread.start()
        }
        for _ in 0..<count { start.signal() }
        group.wait()
        return results.all
    }

    @Test("8 stores opening a new database at once: all open, each migration applied once")
    func migrationRace() throws {
        let server = try PostgresServer.shared()
        for round in 1...3 {
            let url = try server.makeDatabase()
            let opened = Self.onThreads(8) { _ in try PostgresStore(url).appliedMigrations() }
            for result in opened { #expect(throws: Never.self, "round \(round)") { try result.get() } }
            let database = String(url.split(separator: "/").last!.split(separator: "?").first!)
            let applied = try server.psql("SELECT name, COUNT(*) FROM chime_migrations GROUP BY name ORDER BY name", database: database)
            #expect(applied.split(separator: "\n").map(String.init) == PostgresStore.migrations.map { "\($0.name)|1" })
        }
    }

    @Test("8 workers claiming 4,000 due notifications in rounds of 25: none taken twice, none left")
    func claims() throws {
        let url = try PostgresServer.shared().makeDatabase()
        let setup = try PostgresStore(url)
        let count = 4_000
        for chunk in stride(from: 0, to: count, by: 500) {
            try setup.upsert((chunk..<min(chunk + 500, count)).map {
                PostgresStoreTests.pending(String(format: "n%05d", $0), fires: 100 + Int64($0 % 50), recipient: "r\($0 % 7)")
            })
        }
        let stores = try (0..<8).map { _ in try PostgresStore(url) }
        let started = Date()
        let taken = Self.onThreads(8) { worker -> [String] in
            let claimer = Claimer(host: "worker\(worker)", processID: Int32(worker), processStart: "1")
            var mine: [String] = []
            while true {
                let batch = try stores[worker].claimDue(now: Instant(seconds: 1_000), limit: 25, claimer: claimer, leaseNow: Instant(seconds: 1_000),
                                                        leaseUntil: Instant(seconds: 1_300), limits: [:])
                if batch.isEmpty { return mine }
                mine += batch.map(\.request.identifier)
            }
        }
        let seconds = Date().timeIntervalSince(started)
        let all = try taken.flatMap { try $0.get() }
        #expect(all.count == count)
        #expect(Set(all).count == count)
        let perWorker = try taken.map { try $0.get().count }
        print("claims: \(count) rows by 8 workers in \(String(format: "%.2f", seconds)) s, \(Int(Double(count) / seconds)) claims/s; per worker \(perWorker)")
        // Every row claimed by exactly one claimer, as the table says too.
        let holders = try setup.claimers()
        #expect(holders.count == 8)
    }

    @Test("claims with recipients' pending limits under 6 workers: none taken twice, none beyond a window")
    func limitedClaims() throws {
        let url = try PostgresServer.shared().makeDatabase()
        let setup = try PostgresStore(url)
        try setup.upsert((0..<600).map { PostgresStoreTests.pending("m\($0)", fires: 100 + Int64($0), recipient: "r\($0 % 3)") })
        let stores = try (0..<6).map { _ in try PostgresStore(url) }
        let taken = Self.onThreads(6) { worker -> [String] in
            let claimer = Claimer(host: "w\(worker)", processID: Int32(worker), processStart: "1")
            var mine: [String] = []
            while true {
                let batch = try stores[worker].claimDue(now: Instant(seconds: 10_000), limit: 10, claimer: claimer, leaseNow: Instant(seconds: 10_000),
                                                        leaseUntil: Instant(seconds: 10_300), limits: ["r0": 50, "r1": 1_000])
                if batch.isEmpty { return mine }
                mine += batch.map(\.request.identifier)
            }
        }
        let all = try taken.flatMap { try $0.get() }
        #expect(Set(all).count == all.count)
        // r0's window is its soonest 50; r1 and r2 (no limit) are taken whole.
        #expect(all.count == 50 + 200 + 200)
    }

    @Test("a dead worker's claims come back when its lease ends, not before")
    func leases() throws {
        let store = try PostgresStore(try PostgresServer.shared().makeDatabase())
        try store.upsert([PostgresStoreTests.pending("a", fires: 100)])
        let dead = Claimer(host: "gone", processID: 9, processStart: "1")
        let live = Claimer(host: "here", processID: 1, processStart: "1")
        #expect(try store.claimDue(now: Instant(seconds: 100), limit: 5, claimer: dead, leaseNow: Instant(seconds: 100),
                                   leaseUntil: Instant(seconds: 400), limits: [:]).count == 1)
        #expect(try store.claimDue(now: Instant(seconds: 200), limit: 5, claimer: live, leaseNow: Instant(seconds: 200),
                                   leaseUntil: Instant(seconds: 500), limits: [:]).isEmpty)
        #expect(try store.claimDue(now: Instant(seconds: 400), limit: 5, claimer: live, leaseNow: Instant(seconds: 400),
                                   leaseUntil: Instant(seconds: 700), limits: [:]).map(\.request.identifier) == ["a"])
    }

    @Test("8 stores asking for the signing key of a new database at once, each with its own candidate: one key")
    func signingKey() throws {
        let url = try PostgresServer.shared().makeDatabase()
        let stores = try (0..<8).map { _ in try PostgresStore(url) }
        let keys = Self.onThreads(8) { index in try stores[index].secretKey(keeping: (0..<32).map { _ in UInt8.random(in: 0...255) }) }
        let distinct = Set(try keys.map { try $0.get() })
        #expect(distinct.count == 1)
        #expect(try stores[0].secretKey(keeping: [1, 2, 3]) == distinct.first)
    }

    @Test("8 workers taking one rate-limit turn, confirming one response, settling one dead claimer at once: each done once")
    func onceEach() throws {
        let url = try PostgresServer.shared().makeDatabase()
        let stores = try (0..<8).map { _ in try PostgresStore(url) }
        let turns = Self.onThreads(8) { index in try stores[index].takeTurn("digest", at: Instant(seconds: 1_000), every: 60) }
        #expect(try turns.filter { try $0.get() }.count == 1)

        let response = StoredResponse(deliveryID: "d.1", identifier: "a", recipient: "alice", action: "delete", userText: nil, channel: "mail",
                                      responder: "alice@example.org", at: Instant(seconds: 5), status: StoredResponse.awaitingConfirmation)
        #expect(try stores[0].record(response, from: nil) != nil)
        let confirmed = Self.onThreads(8) { index in try stores[index].confirm(deliveryID: "d.1", action: "delete", now: Instant(seconds: 6)) }
        #expect(try confirmed.compactMap { try $0.get() }.count == 1)

        let dead = Claimer(host: "gone", processID: 9, processStart: "1")
        try stores[0].upsert((0..<20).map { PostgresStoreTests.pending("s\($0)", fires: 100) })
        let claimed = try stores[0].claimDue(now: Instant(seconds: 100), limit: 20, claimer: dead, leaseNow: Instant(seconds: 100),
                                             leaseUntil: Instant(seconds: 400), limits: [:])
        try stores[0].markSent(claimed.map { notification in
            SentMark(notification: notification,
                     delivered: DeliveredNotification(request: notification.request, fireDate: notification.nextFire, deliveredAt: Instant(seconds: 101),
                                                      deliveryID: notification.deliveryID, coalesced: 0),
                     next: Instant(seconds: notification.nextFire.seconds + 3_600), anchor: notification.nextFire, queued: [])
        }, claimer: dead)
        let settled = Self.onThreads(8) { index in try stores[index].settle(claimer: dead) }
        #expect(try settled.map { try $0.get() }.reduce(0, +) == 20)
        let moved = try stores[0].pending(recipient: nil, limits: [:])
        #expect(moved.count == 20)
        #expect(moved.allSatisfy { $0.firedCount == 1 && $0.nextFire == Instant(seconds: 3_700) })
        #expect(try stores[0].delivered(recipient: nil).count == 20)
    }

    @Test("a listing of responses after an id waits for those being recorded: a response committed before one recorded earlier is not listed without it, so an app polling after=ID misses none")
    func responsesInIDOrder() throws {
        let server = try PostgresServer.shared()
        let url = try server.makeDatabase()
        let database = String(url.split(separator: "/").last!.split(separator: "?").first!)
        let store = try PostgresStore(url)
        // Another worker's transaction: id 1 taken, committed 3 s later.
        let slow = Process()
        slow.executableURL = PostgresServer.binaries.appendingPathComponent("psql")
        slow.arguments = ["-h", "127.0.0.1", "-p", "\(server.port)", "-U", server.user, "-d", database, "-v", "ON_ERROR_STOP=1", "-At", "-c", """
            BEGIN;
            INSERT INTO response (delivery_id, identifier, recipient, action, user_text, channel, responder, at, status)
                VALUES ('d.1', 'a', 'alice', 'ok', NULL, 'mail', 'alice@example.org', 5, 'carried out');
            SELECT pg_advisory_xact_lock_shared(\(PostgresStore.responseIDs));
            SELECT pg_sleep(3);
            COMMIT;
            """]
        slow.standardOutput = FileHandle.nullDevice
        try slow.run()
        defer { slow.waitUntilExit() }
        var held = false
        for _ in 0..<200 where !held {
            held = try server.psql("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND granted AND mode = 'ShareLock'", database: database)
                .trimmingCharacters(in: .whitespacesAndNewlines) == "1"
            if !held { usleep(20_000) }
        }
        #expect(held)
        let later = StoredResponse(deliveryID: "d.2", identifier: "b", recipient: "alice", action: "ok", userText: nil, channel: "mail",
                                   responder: "alice@example.org", at: Instant(seconds: 6), status: StoredResponse.carriedOut)
        #expect(try store.record(later, from: nil) == 2)
        #expect(try store.responses(after: 0, count: 100).map(\.id) == [1, 2], "2 is not listed before 1 is there")
    }

    @Test("a store listening is told when another schedules something")
    func soonerDue() throws {
        let url = try PostgresServer.shared().makeDatabase()
        let listening = try PostgresStore(url)
        let heard = Results<Bool>(1)
        let told = DispatchSemaphore(value: 0)
        listening.onSoonerDue {
            heard.set(0, .success(true))
            told.signal()
        }
        // The first call comes once it listens.
        #expect(told.wait(timeout: .now() + 10) == .success)
        let other = try PostgresStore(url)
        try other.upsert([PostgresStoreTests.pending("soon", fires: 100)])
        #expect(told.wait(timeout: .now() + 10) == .success)
    }
}

/// Results of work on several threads, by index.
final class Results<T: Sendable>: @unchecked Sendable { // guarded by lock
    private let lock = NSLock()
    private var values: [Result<T, any Error>?]

    init(_ count: Int) { values = Array(repeating: nil, count: count) }

    func set(_ index: Int, _ result: Result<T, any Error>) { lock.withLock { values[index] = result } }

    var all: [Result<T, any Error>] { lock.withLock { values.map { $0! } } }
}
