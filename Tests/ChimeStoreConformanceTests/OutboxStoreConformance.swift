import ChimeCore
import Foundation
import Testing

/// ``OutboxStore``: network deliveries queued, claimed, tried, retried.
@Suite("Store conformance: the outbox")
struct OutboxStoreConformance {
    typealias F = Fixture

    private func claim(_ store: any OutboxStore, now: Int64 = 1000, claimer: Claimer = Fixture.me, leaseNow: Int64 = 1000,
                       limit: Int = 100) throws -> [OutboxDelivery] {
        try store.claimOutbox(now: Instant(seconds: now), limit: limit, claimer: claimer, leaseNow: Instant(seconds: leaseNow),
                              leaseUntil: Instant(seconds: leaseNow + 600))
    }

    private func attempt(_ id: Int64, _ outcome: DeliveryAttempt.Outcome, state: DeliveryState, next: Int64? = nil,
                         at seconds: Int64 = 1000) -> AttemptRecord {
        AttemptRecord(id: id, attempt: DeliveryAttempt(at: Instant(seconds: seconds), outcome: outcome, code: outcome == .delivered ? 250 : 451,
                                                       message: outcome.rawValue),
                      state: state, nextAttempt: next.map(Instant.init(seconds:)), countsAsAttempt: true, keepClaim: false)
    }

    @Test("a notification's network deliveries are queued with it when marked sent, once per destination, with their bodies", arguments: StoreKind.allCases)
    func queued(kind: StoreKind) throws {
        let store = try kind.make().store
        try store.upsert([F.pending("a", fires: 100)])
        let a = try #require(try F.claim(store).first)
        try store.markSent([F.mark(a, at: 900, queued: [F.mail("a@example.org", "one"), F.mail("b@example.org", "two")])], claimer: F.me)
        try store.enqueue([F.mail("a@example.org", "again")], deliveryID: a.deliveryID, identifier: "a", recipient: "alice", at: Instant(seconds: 950))
        let queued = try store.deliveries(state: .queued)
        #expect(queued.map(\.address) == ["a@example.org", "b@example.org"])
        #expect(queued.allSatisfy { $0.deliveryID == a.deliveryID && $0.attempts == 0 && $0.queuedAt == Instant(seconds: 900) })
        let claimed = try claim(store)
        #expect(claimed.map(\.id) == queued.map(\.id))
        #expect(claimed.map { String(decoding: $0.body, as: UTF8.self) } == ["one", "two"])
        #expect(try store.deliveries(state: .delivered).isEmpty)
        #expect(try store.deliveries(state: nil).count == 2)
    }

    @Test("claimed once; tried, recorded with its attempts; retried after a lease ran out", arguments: StoreKind.allCases)
    func claimRecord(kind: StoreKind) throws {
        let store = try kind.make().store
        try store.enqueue([F.mail("a@example.org"), F.mail("b@example.org"), F.mail("c@example.org")], deliveryID: "d1", identifier: "a",
                          recipient: "alice", at: Instant(seconds: 500))
        let claimed = try claim(store, limit: 2)
        #expect(claimed.map(\.address) == ["a@example.org", "b@example.org"])
        #expect(try claim(store, claimer: F.other, limit: 2).map(\.address) == ["c@example.org"])
        #expect(try claim(store, claimer: F.other).isEmpty)
        try store.record([attempt(claimed[0].id, .delivered, state: .delivered),
                          attempt(claimed[1].id, .temporary, state: .queued, next: 1300)], claimer: F.me)
        let all = Dictionary(uniqueKeysWithValues: try store.deliveries(state: nil).map { ($0.address, $0) })
        #expect(all["a@example.org"]?.state == .delivered)
        #expect(all["a@example.org"]?.attempts == 1)
        #expect(all["b@example.org"]?.state == .queued)
        #expect(all["b@example.org"]?.history.map(\.outcome) == [.temporary])
        #expect(all["b@example.org"]?.nextAttempt == Instant(seconds: 1300))
        // Not before its next attempt; then to anyone, its claim released by the record.
        #expect(try claim(store, now: 1299, claimer: F.other).isEmpty)
        #expect(try claim(store, now: 1300, claimer: F.other, leaseNow: 1300).map(\.address) == ["b@example.org"])
        // c's claimer died: its lease runs out and me takes it, the dead one's record ignored.
        let c = try #require(try claim(store, now: 1300, claimer: F.me, leaseNow: 1600).first)
        #expect(c.address == "c@example.org")
        try store.record([attempt(c.id, .permanent, state: .failed)], claimer: F.other)
        #expect(try store.deliveries(state: nil).first { $0.id == c.id }?.state == .queued)
        try store.record([attempt(c.id, .permanent, state: .failed)], claimer: F.me)
        #expect(try store.deliveries(state: .failed).map(\.id) == [c.id])
    }

    @Test("deliveries read a page at a time, from an id on, in one state or all, each with its own attempts", arguments: StoreKind.allCases)
    func deliveryPages(kind: StoreKind) throws {
        let store = try kind.make().store
        try store.enqueue((1...5).map { F.mail("u\($0)@example.org") }, deliveryID: "d1", identifier: "a", recipient: "alice", at: Instant(seconds: 500))
        let claimed = try claim(store)
        // 2 and 4 delivered after a failure each; 3 twice temporary, still queued.
        try store.record([attempt(claimed[1].id, .temporary, state: .queued, next: 1000, at: 900),
                          attempt(claimed[2].id, .temporary, state: .queued, next: 1000, at: 900),
                          attempt(claimed[3].id, .temporary, state: .queued, next: 1000, at: 900)], claimer: F.me)
        let again = try claim(store, now: 1000)
        try store.record([attempt(again[0].id, .delivered, state: .delivered, at: 1000), attempt(again[2].id, .delivered, state: .delivered, at: 1000),
                          attempt(again[1].id, .temporary, state: .queued, next: 3000, at: 1000)], claimer: F.me)
        let whole = try store.deliveries(state: nil)
        #expect(whole.map(\.history.count) == [0, 2, 2, 2, 0])
        let first = try store.deliveries(state: nil, after: nil, count: 2)
        #expect(first.map(\.id) == Array(whole.map(\.id).prefix(2)))
        let rest = try store.deliveries(state: nil, after: first.last?.id, count: 10)
        #expect(rest.map(\.id) == Array(whole.map(\.id).dropFirst(2)))
        #expect(rest.map(\.history) == Array(whole.map(\.history).dropFirst(2)))
        #expect(rest.first?.history.map(\.outcome) == [.temporary, .temporary])
        let delivered = try store.deliveries(state: .delivered, after: claimed[1].id, count: 10)
        #expect(delivered.map(\.id) == [claimed[3].id])
        #expect(delivered.first?.history.map(\.outcome) == [.temporary, .delivered])
        #expect(try store.deliveries(state: .queued, after: nil, count: 1).map(\.id) == [claimed[0].id])
    }

    @Test("values come back as written: an empty body, a body with NUL and non-UTF-8 bytes, an address beyond ASCII, an empty attempt message, one holding a NUL", arguments: StoreKind.allCases)
    func valuesKept(kind: StoreKind) throws {
        let store = try kind.make().store
        let odd: [UInt8] = [0x41, 0x00, 0xFF, 0x0D, 0x0A]
        try store.enqueue([QueuedDelivery(channel: "mail", address: "zoë@exämple.org", body: []),
                           QueuedDelivery(channel: "mail", address: "b@example.org", body: odd)],
                          deliveryID: "d1", identifier: "a", recipient: "alice", at: Instant(seconds: 500))
        let claimed = try claim(store)
        #expect(claimed.map(\.address) == ["zoë@exämple.org", "b@example.org"])
        #expect(claimed.map(\.body) == [[], odd])
        try store.record([AttemptRecord(id: claimed[0].id, attempt: DeliveryAttempt(at: Instant(seconds: 1000), outcome: .temporary, code: 0, message: ""),
                                        state: .queued, nextAttempt: Instant(seconds: 2000), countsAsAttempt: true, keepClaim: false)],
                         claimer: F.me)
        let history = try store.deliveries(state: .queued).first { $0.id == claimed[0].id }?.history
        #expect(history?.map(\.message) == [""])
        #expect(history?.map(\.code) == [0])
        // A server's answer holding a NUL (a webhook's body): kept, the NUL as U+FFFD.
        try store.record([AttemptRecord(id: claimed[1].id, attempt: DeliveryAttempt(at: Instant(seconds: 1000), outcome: .temporary, code: 500,
                                                                                    message: "oops\u{0}"),
                                        state: .queued, nextAttempt: Instant(seconds: 2000), countsAsAttempt: true, keepClaim: false)],
                         claimer: F.me)
        #expect(try store.deliveries(state: .queued).first { $0.id == claimed[1].id }?.history.map(\.message) == ["oops\u{FFFD}"])
    }

    @Test("retry queues failed deliveries again, all or none", arguments: StoreKind.allCases)
    func retry(kind: StoreKind) throws {
        let store = try kind.make().store
        try store.enqueue([F.mail("a@example.org"), F.mail("b@example.org"), F.mail("c@example.org")], deliveryID: "d1", identifier: "a",
                          recipient: "alice", at: Instant(seconds: 500))
        let claimed = try claim(store)
        try store.record([attempt(claimed[0].id, .permanent, state: .failed), attempt(claimed[1].id, .permanent, state: .failed),
                          attempt(claimed[2].id, .delivered, state: .delivered)], claimer: F.me)
        let (queued, notFailed) = try store.retry([claimed[0].id, claimed[2].id, 999_999], now: Instant(seconds: 2000))
        #expect(queued.isEmpty)
        #expect(notFailed == [claimed[2].id, 999_999])
        #expect(try store.deliveries(state: .failed).count == 2)
        #expect(try store.retry([claimed[0].id], now: Instant(seconds: 2000)).queued == [claimed[0].id])
        let again = try #require(try store.deliveries(state: .queued).first)
        #expect(again.id == claimed[0].id)
        #expect(again.attempts == 0)
        #expect(again.nextAttempt == Instant(seconds: 2000))
        #expect(again.history.count == 1, "the attempts so far stay in its history")
        #expect(try store.retry(nil, now: Instant(seconds: 2000)).queued == [claimed[1].id])
        #expect(try store.deliveries(state: .failed).isEmpty)
    }

    @Test("four claimers on their own connections never take the same delivery of 2,000", arguments: StoreKind.allCases)
    func noDoubleClaims(kind: StoreKind) throws {
        let made = try kind.make()
        for batch in 0..<20 {
            try made.store.enqueue((0..<100).map { F.mail("r\($0)@example.org") }, deliveryID: "d\(batch)", identifier: "n\(batch)",
                                   recipient: "alice", at: Instant(seconds: 500))
        }
        let stores = try (0..<4).map { _ in try made.another() }
        let results = concurrently(4) { index in
            let claimer = Claimer(host: "worker\(index)", processID: Int32(index), processStart: "0")
            var taken: [Int64] = []
            while true {
                let claimed = try stores[index].claimOutbox(now: Instant(seconds: 1000), limit: 25, claimer: claimer,
                                                             leaseNow: Instant(seconds: 1000), leaseUntil: Instant(seconds: 1600))
                if claimed.isEmpty { return taken }
                taken += claimed.map(\.id)
            }
        }
        let taken = try results.flatMap { try $0.get() }
        #expect(taken.count == 2000)
        #expect(Set(taken).count == 2000)
    }
}
