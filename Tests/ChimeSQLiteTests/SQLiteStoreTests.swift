import ChimeCore
import ChimeSQLite
import Foundation
import Testing

@Suite("The SQLite store")
struct SQLiteStoreTests {
    private let directory = FileManager.default.temporaryDirectory.appendingPathComponent("chime-sqlite-\(UUID().uuidString)")

    private func store() throws -> SQLiteStore {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return try SQLiteStore(path: directory.appendingPathComponent("chime.sqlite").path)
    }

    private func pending(_ id: String, fires seconds: Int64, recipient: String = "alice") -> PendingNotification {
        PendingNotification(
            request: NotificationRequest(identifier: id, recipient: recipient, content: NotificationContent(title: id),
                                         trigger: .timeInterval(seconds: 60, repeats: false)),
            added: Instant(seconds: seconds - 60), nextFire: Instant(seconds: seconds), anchor: Instant(seconds: seconds - 60),
            zone: "UTC", generation: "g-\(id)")
    }

    private let me = Claimer(host: "test", processID: 1, processStart: "1")
    private let other = Claimer(host: "elsewhere", processID: 2, processStart: "2")

    @Test("the file is in WAL mode, with the migration recorded and the next-fire index")
    func schema() throws {
        _ = try store()
        let path = directory.appendingPathComponent("chime.sqlite").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", """
            import sqlite3, sys
            db = sqlite3.connect(sys.argv[1])
            print(db.execute("PRAGMA journal_mode").fetchone()[0])
            print(",".join(r[0] for r in db.execute("SELECT identifier FROM grdb_migrations")))
            print(",".join(sorted(r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'index' AND name LIKE 'pending_%'"))))
            """, path]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        process.waitUntilExit()
        let lines = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).split(separator: "\n")
        #expect(lines == ["wal", "v1 pending and delivered notifications,v2 sent marks,v3 outbox and attempts,v4 replies,v5 carrying out,v6 chat threads,v7 delivery policy,v8 thread groups,v9 recipient settings,v10 opt-in,v11 waiting groups index,v12 quiet-hours hold index,v13 idempotency keys", "pending_claimed_by,pending_next_fire,pending_not_before,pending_recipient"])
    }

    @Test("the earliest instant something falls due after a given one: a next fire, the end of a quiet-hours hold")
    func earliestDue() throws {
        let store = try store()
        #expect(try store.earliestDue(after: Instant(seconds: 0)) == nil)
        try store.upsert([pending("a", fires: 100), pending("b", fires: 200), pending("c", fires: 900)])
        #expect(try store.earliestDue(after: Instant(seconds: 50)) == Instant(seconds: 100))
        #expect(try store.earliestDue(after: Instant(seconds: 100)) == Instant(seconds: 200))
        #expect(try store.earliestDue(after: Instant(seconds: 900)) == nil)
        // b held for quiet hours until 500: due again then.
        let claimed = try store.claimDue(now: Instant(seconds: 250), limit: 10, claimer: me, leaseNow: Instant(seconds: 250),
                                         leaseUntil: Instant(seconds: 850), limits: [:])
        let b = try #require(claimed.first { $0.request.identifier == "b" })
        try store.postpone(b, until: Instant(seconds: 500), claimer: me)
        #expect(try store.earliestDue(after: Instant(seconds: 250)) == Instant(seconds: 500))
    }

    @Test("a claim is taken once; an expired lease lets another claimer take it up again")
    func claims() throws {
        let store = try store()
        try store.upsert([pending("a", fires: 100), pending("b", fires: 200), pending("c", fires: 900)])
        let first = try store.claimDue(now: Instant(seconds: 300), limit: 10, claimer: me, leaseNow: Instant(seconds: 1000), leaseUntil: Instant(seconds: 1600), limits: [:])
        #expect(first.map(\.request.identifier) == ["a", "b"])
        let none = try store.claimDue(now: Instant(seconds: 300), limit: 10, claimer: other, leaseNow: Instant(seconds: 1000), leaseUntil: Instant(seconds: 1600), limits: [:])
        #expect(none.isEmpty)
        let expired = try store.claimDue(now: Instant(seconds: 300), limit: 10, claimer: other, leaseNow: Instant(seconds: 1600), leaseUntil: Instant(seconds: 2200), limits: [:])
        #expect(expired.map(\.request.identifier) == ["a", "b"])
        #expect(expired.map(\.deliveryID) == first.map(\.deliveryID))
        // The first claimer, back from the dead, records what it sent but can no longer
        // move a request it lost.
        let sent = DeliveredNotification(request: first[0].request, fireDate: first[0].nextFire, deliveredAt: Instant(seconds: 300), deliveryID: first[0].deliveryID, coalesced: 0)
        try store.markSent([SentMark(notification: first[0], delivered: sent, next: nil, anchor: Instant(seconds: 300), queued: [])], claimer: me)
        #expect(try store.settle(claimer: me) == 1)
        #expect(try store.pending(identifier: "a") != nil)
        try store.markSent([SentMark(notification: expired[0], delivered: sent, next: nil, anchor: Instant(seconds: 300), queued: [])], claimer: other)
        #expect(try store.delivered(recipient: nil).map(\.request.identifier) == ["a"])
        #expect(try store.settle(claimer: other) == 1)
        #expect(try store.pending(identifier: "a") == nil)
        #expect(try store.delivered(recipient: nil).map(\.request.identifier) == ["a"])
    }

    @Test("a row marked sent is not claimed again when its lease runs out before it is settled")
    func markedNotReclaimed() throws {
        let store = try store()
        try store.upsert([pending("a", fires: 100), pending("b", fires: 200)])
        let claimed = try store.claimDue(now: Instant(seconds: 300), limit: 10, claimer: me, leaseNow: Instant(seconds: 0), leaseUntil: Instant(seconds: 600), limits: [:])
        let sent = DeliveredNotification(request: claimed[0].request, fireDate: claimed[0].nextFire, deliveredAt: Instant(seconds: 300), deliveryID: claimed[0].deliveryID, coalesced: 0)
        try store.markSent([SentMark(notification: claimed[0], delivered: sent, next: nil, anchor: Instant(seconds: 300), queued: [])], claimer: me)
        let taken = try store.claimDue(now: Instant(seconds: 300), limit: 10, claimer: other, leaseNow: Instant(seconds: 700), leaseUntil: Instant(seconds: 1300), limits: [:])
        #expect(taken.map(\.request.identifier) == ["b"])
        #expect(try store.claimers().map { "\($0.claimer.host) \($0.leaseEnds?.seconds ?? -1)" } == ["elsewhere 1300", "test 600"])
    }

    @Test("a claimer's claims are released together")
    func release() throws {
        let store = try store()
        try store.upsert([pending("a", fires: 100), pending("b", fires: 200)])
        _ = try store.claimDue(now: Instant(seconds: 300), limit: 10, claimer: me, leaseNow: Instant(seconds: 0), leaseUntil: Instant(seconds: 600), limits: [:])
        #expect(try store.claimers().map(\.claimer) == [me])
        #expect(try store.releaseClaims(of: me) == 2)
        #expect(try store.claimers().isEmpty)
    }

    @Test("a pending limit lets only the soonest fire and marks the rest set aside")
    func limits() throws {
        let store = try store()
        try store.upsert([pending("a", fires: 100), pending("b", fires: 200), pending("c", fires: 300), pending("z", fires: 50, recipient: "zed")])
        let listed = try store.pending(recipient: nil, limits: ["alice": 2])
        #expect(listed.map(\.request.identifier) == ["z", "a", "b", "c"])
        #expect(listed.map(\.isSetAside) == [false, false, false, true])
        let due = try store.due(now: Instant(seconds: 1000), limit: 10, limits: ["alice": 2])
        #expect(due.map(\.request.identifier) == ["z", "a", "b"])
    }

    @Test("a store that cannot be created is an open error")
    func unwritable() {
        #expect(throws: StoreFailure.self) { try SQLiteStore(path: "/proc/chime/store.sqlite") }
    }
}
