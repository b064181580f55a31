import ChimeCore
import Foundation
import Testing

/// ``CoordinationStore``: what every process of a deployment agrees on.
@Suite("Store conformance: the signing key, turns, idempotent answers, gauges, a run's outlook")
struct CoordinationStoreConformance {
    typealias F = Fixture

    @Test("eight processes asking for the signing key at once with their own candidates all get one key, kept", arguments: StoreKind.allCases)
    func secretKey(kind: StoreKind) throws {
        let made = try kind.make()
        let stores = try (0..<8).map { _ in try made.another() }
        let keys = try concurrently(8) { index in
            try stores[index].secretKey(keeping: [UInt8](repeating: UInt8(index + 1), count: 32))
        }.map { try $0.get() }
        #expect(Set(keys).count == 1)
        #expect(keys.first?.count == 32)
        #expect(try made.store.secretKey(keeping: [UInt8](repeating: 0, count: 32)) == keys.first)
    }

    @Test("a turn is taken at most once in its period, by one of eight at once", arguments: StoreKind.allCases)
    func takeTurn(kind: StoreKind) throws {
        let made = try kind.make()
        let stores = try (0..<8).map { _ in try made.another() }
        let turns = try concurrently(8) { try stores[$0].takeTurn("digest", at: Instant(seconds: 100), every: 60) }.map { try $0.get() }
        #expect(turns.filter { $0 }.count == 1)
        #expect(try made.store.takeTurn("digest", at: Instant(seconds: 159), every: 60) == false)
        #expect(try made.store.takeTurn("other", at: Instant(seconds: 159), every: 60) == true)
        #expect(try made.store.takeTurn("digest", at: Instant(seconds: 160), every: 60) == true)
        #expect(try made.store.takeTurn("digest", at: Instant(seconds: 200), every: 60) == false)
    }

    @Test("a channel's pace gives eight processes asking at once eight starts a spacing apart; a start past the latest asked is not taken; a rate changed spaces the next start at once; a pause holds every later start and never moves back; channels pace apart", arguments: StoreKind.allCases)
    func paceStarts(kind: StoreKind) throws {
        let made = try kind.make()
        func start(_ name: String, _ earliest: Int64, spacing: Int64 = 250_000, latest: Int64 = .max) throws -> Int64 {
            try made.store.pace(name, .start(earliest: earliest, spacing: spacing, latest: latest))
        }
        let stores = try (0..<8).map { _ in try made.another() }
        let starts = try concurrently(8) { try stores[$0].pace("slack", .start(earliest: 1_000_000, spacing: 250_000, latest: .max)) }.map { try $0.get() }
        #expect(starts.sorted() == (0..<8).map { 1_000_000 + Int64($0) * 250_000 }, "\(starts.sorted())")
        // Asked later than the pace's next start: at once, and the next a spacing after.
        #expect(try start("slack", 9_000_000) == 9_000_000)
        #expect(try start("slack", 9_000_001) == 9_250_000)
        // One past the latest asked is told and not taken: the pace stays where it was.
        #expect(try start("slack", 9_000_002, latest: 9_400_000) == 9_500_000)
        #expect(try start("slack", 9_000_003, latest: 9_499_999) == 9_500_000)
        #expect(try start("slack", 9_000_004, latest: 9_500_000) == 9_500_000)
        #expect(try start("slack", 9_000_005, latest: 9_500_000) == 9_750_000)
        // A rate changed counts from the last start taken, at once: an hour's spacing has
        // no start within the latest asked, a tenth of a second's has one now.
        #expect(try start("slack", 9_000_006, spacing: 3_600_000_000, latest: 10_000_000) == 3_609_500_000)
        #expect(try start("slack", 9_000_007, spacing: 100_000) == 9_600_000)
        #expect(try start("slack", 3_700_000_000, spacing: 100_000) == 3_700_000_000)
        // A request started later than its start: the next counts from when it did, and
        // that never moves back.
        #expect(try made.store.pace("slack", .startedAt(3_700_050_000)) == 3_700_050_000)
        #expect(try made.store.pace("slack", .startedAt(3_600_000_000)) == 3_700_050_000)
        #expect(try start("slack", 3_700_000_001, spacing: 100_000) == 3_700_150_000)
        // A pause holds every start until it ends, whatever the spacing, and never moves back.
        #expect(try made.store.pace("slack", .pause(until: 4_000_000_000)) == 4_000_000_000)
        #expect(try made.store.pace("slack", .pause(until: 3_900_000_000)) == 4_000_000_000)
        #expect(try start("slack", 3_800_000_000, spacing: 1) == 4_000_000_000)
        #expect(try start("slack", 3_800_000_000, spacing: 1) == 4_000_000_001)
        #expect(try start("discord", 10_000_000, spacing: 400_000) == 10_000_000)
        // The pace lives beside turns without touching them.
        #expect(try made.store.takeTurn("slack", at: Instant(seconds: 100), every: 60) == true)
        #expect(try start("slack", 0, spacing: 0) == 4_000_000_001)
        // A first start not taken leaves the new pace as if never asked.
        #expect(try start("teams", 500, spacing: 100, latest: 499) == 500)
        #expect(try start("teams", 400, spacing: 100) == 400)
        #expect(try start("teams", 400, spacing: 100) == 500)
        // At the end of the clock's range the pace stays there rather than wrapping round.
        #expect(try start("far", .max - 10, spacing: 100) == .max - 10)
        #expect(try start("far", 0, spacing: 100) == .max)
        #expect(try start("far", 0, spacing: 100) == .max)
    }

    @Test("a pace kept as the first builds kept it (the next start alone) holds as a pause until then; text that is not a pace reads as one never asked")
    func paceText() {
        #expect(PaceState(text: "5000").answer(.start(earliest: 100, spacing: 10, latest: .max)).value == 5_000)
        #expect(PaceState(text: "4000 -").answer(.start(earliest: 100, spacing: 10, latest: .max)).value == 4_010)
        #expect(PaceState(text: "- 4000").answer(.start(earliest: 100, spacing: 10, latest: .max)).value == 4_000)
        for text in [nil, "", "x", "1 2 3", "9223372036854775808"] {
            #expect(PaceState(text: text) == PaceState(), "\(text ?? "nil")")
        }
        let state = PaceState(lastStart: -5, pausedUntil: .max)
        #expect(PaceState(text: state.text) == state)
        #expect(state.answer(.pause(until: 7)).kept == nil, "a pause earlier than the one kept changes nothing")
    }

    @Test("the first idempotent answer kept is the one every later call replays, even when eight keep theirs together", arguments: StoreKind.allCases)
    func idempotentAnswers(kind: StoreKind) throws {
        let made = try kind.make()
        #expect(try made.store.idempotentAnswer(owner: "backend", key: "k1") == nil)
        let stores = try (0..<8).map { _ in try made.another() }
        let kept = try concurrently(8) { index in
            try stores[index].keepIdempotentAnswer(IdempotentAnswer(requestDigest: "digest\(index)", status: 201, body: Array("{\"n\":\(index)}".utf8)),
                                                   owner: "backend", key: "k1", at: Instant(seconds: 1))
        }.map { try $0.get() }
        #expect(Set(kept).count == 1)
        #expect(try made.store.idempotentAnswer(owner: "backend", key: "k1") == kept.first)
        #expect(try made.store.idempotentAnswer(owner: "frontend", key: "k1") == nil, "keys are scoped by their owner")
    }

    @Test("of eight calls taking an Idempotency-Key together, one takes it; the others see it held until its answer is kept; an abandoned hold is taken again", arguments: StoreKind.allCases)
    func idempotencyKeys(kind: StoreKind) throws {
        let made = try kind.make()
        let stores = try (0..<8).map { _ in try made.another() }
        let taken = try concurrently(8) { index in
            try stores[index].takeIdempotencyKey(owner: "backend", key: "k2", digest: "d", at: Instant(seconds: 100), abandonedAfter: 60)
        }.map { try $0.get() }
        #expect(taken.filter { $0 == nil }.count == 1, "\(taken)")
        #expect(taken.compactMap { $0 }.allSatisfy { $0 == .pending(digest: "d") })
        let answer = IdempotentAnswer(requestDigest: "d", status: 201, body: Array("{}".utf8))
        #expect(try made.store.keepIdempotentAnswer(answer, owner: "backend", key: "k2", at: Instant(seconds: 101)) == answer)
        #expect(try made.store.takeIdempotencyKey(owner: "backend", key: "k2", digest: "d", at: Instant(seconds: 102), abandonedAfter: 60) == answer)
        try made.store.releaseIdempotencyKey(owner: "backend", key: "k2", digest: nil)
        #expect(try made.store.idempotentAnswer(owner: "backend", key: "k2") == answer, "a kept answer is not given back")
        #expect(try made.store.takeIdempotencyKey(owner: "backend", key: "k2", digest: "d", at: Instant(seconds: 1_000), abandonedAfter: 60) == answer)

        // A hold given back is free at once; one never answered, after abandonedAfter.
        #expect(try made.store.takeIdempotencyKey(owner: "backend", key: "k3", digest: "d", at: Instant(seconds: 100), abandonedAfter: 60) == nil)
        try made.store.releaseIdempotencyKey(owner: "backend", key: "k3", digest: nil)
        #expect(try made.store.takeIdempotencyKey(owner: "backend", key: "k3", digest: "e", at: Instant(seconds: 101), abandonedAfter: 60) == nil)
        #expect(try made.store.takeIdempotencyKey(owner: "backend", key: "k3", digest: "f", at: Instant(seconds: 160), abandonedAfter: 60) == .pending(digest: "e"))
        #expect(try made.store.takeIdempotencyKey(owner: "backend", key: "k3", digest: "f", at: Instant(seconds: 161), abandonedAfter: 60) == nil)
        #expect(try made.store.idempotentAnswer(owner: "backend", key: "k3") == .pending(digest: "f"))

        // Kept a day, then forgotten when another answer is kept; so are holds abandoned a
        // day ago (a call's process died and no one sent it again), not those renewed since.
        let later = Instant(seconds: 101 + IdempotentAnswer.keptFor)
        #expect(try made.store.takeIdempotencyKey(owner: "backend", key: "k6", digest: "g", at: Instant(seconds: 150), abandonedAfter: 60) == nil)
        #expect(try made.store.renewIdempotencyKey(owner: "backend", key: "k6", digest: "g", at: later))
        _ = try made.store.keepIdempotentAnswer(answer, owner: "backend", key: "k4", at: later)
        #expect(try made.store.idempotentAnswer(owner: "backend", key: "k2") == answer, "a day old to the second: still kept")
        _ = try made.store.keepIdempotentAnswer(answer, owner: "frontend", key: "k5", at: later + 100)
        #expect(try made.store.idempotentAnswer(owner: "backend", key: "k2") == nil, "past a day: forgotten")
        #expect(try made.store.idempotentAnswer(owner: "backend", key: "k3") == nil, "a hold abandoned a day ago: forgotten")
        #expect(try made.store.idempotentAnswer(owner: "backend", key: "k6") == .pending(digest: "g"), "a hold renewed since: kept")
        #expect(try made.store.idempotentAnswer(owner: "backend", key: "k4") == answer)
    }

    @Test("a hold is renewed by its taker while it works; one abandoned and taken over is the new taker's: the first can neither renew nor give it back", arguments: StoreKind.allCases)
    func holdsTakenOver(kind: StoreKind) throws {
        let store = try kind.make().store
        let first = try #require(try store.hold("fetch inbox", at: Instant(seconds: 1_000), abandonedAfter: 600))
        #expect(try store.hold("fetch inbox", at: Instant(seconds: 1_500), abandonedAfter: 600) == nil)
        // Renewed at 1,500: not abandoned at 2,000, as it would have been from 1,000.
        #expect(try store.renew("fetch inbox", token: first, at: Instant(seconds: 1_500)))
        #expect(try store.hold("fetch inbox", at: Instant(seconds: 2_000), abandonedAfter: 600) == nil)
        // Abandoned at 2,100 and taken over.
        let second = try #require(try store.hold("fetch inbox", at: Instant(seconds: 2_100), abandonedAfter: 600))
        #expect(try !store.renew("fetch inbox", token: first, at: Instant(seconds: 2_150)), "the first taker learns it lost the hold")
        try store.letGo("fetch inbox", token: first)
        #expect(try store.hold("fetch inbox", at: Instant(seconds: 2_200), abandonedAfter: 600) == nil, "still the second's")
        try store.letGo("fetch inbox", token: second)
        #expect(try store.hold("fetch inbox", at: Instant(seconds: 2_200), abandonedAfter: 600) != nil)
    }

    @Test("gauges count what waits and what failed, with the oldest instants", arguments: StoreKind.allCases)
    func gauges(kind: StoreKind) throws {
        let store = try kind.make().store
        #expect(try store.gauges(now: Instant(seconds: 1000)) == StoreGauges())
        try store.upsert([F.pending("a", fires: 100), F.pending("b", fires: 300), F.pending("c", fires: 5000)])
        try store.enqueue([F.mail("a@example.org"), F.mail("b@example.org")], deliveryID: "d1", identifier: "a", recipient: "alice",
                          at: Instant(seconds: 400))
        try store.enqueue([F.mail("c@example.org")], deliveryID: "d2", identifier: "b", recipient: "alice", at: Instant(seconds: 600))
        let claimed = try store.claimOutbox(now: Instant(seconds: 1000), limit: 1, claimer: F.me, leaseNow: Instant(seconds: 1000),
                                            leaseUntil: Instant(seconds: 1600))
        try store.record(claimed.map {
            AttemptRecord(id: $0.id, attempt: DeliveryAttempt(at: Instant(seconds: 1000), outcome: .permanent, code: 550, message: "no"),
                          state: .failed, nextAttempt: nil, countsAsAttempt: true, keepClaim: false)
        }, claimer: F.me)
        let gauges = try store.gauges(now: Instant(seconds: 1000))
        #expect(gauges.pending == 3)
        #expect(gauges.overdue == 2)
        #expect(gauges.oldestOverdue == Instant(seconds: 100))
        #expect(gauges.outboxQueued == 2)
        #expect(gauges.outboxFailed == 1)
        #expect(gauges.oldestQueued == Instant(seconds: 400))

        // Held by quiet hours: not overdue while held, nothing failing to fire; overdue
        // again once its hold has ended, since then.
        let held = try store.claimDue(now: Instant(seconds: 1000), limit: 1, claimer: F.me, leaseNow: Instant(seconds: 1000),
                                      leaseUntil: Instant(seconds: 1600), limits: [:])
        #expect(held.map(\.request.identifier) == ["a"])
        try store.postpone(held[0], until: Instant(seconds: 1200), claimer: F.me)
        let holding = try store.gauges(now: Instant(seconds: 1000))
        #expect(holding.overdue == 1 && holding.oldestOverdue == Instant(seconds: 300), "\(holding)")
        let after = try store.gauges(now: Instant(seconds: 1300))
        #expect(after.overdue == 2 && after.oldestOverdue == Instant(seconds: 300), "\(after)")
        #expect(after.pending == 3)
    }

    @Test("a run's outlook has work only while something is due and awake, claimed, marked and not settled, or queued and due; it keeps the configuration followed", arguments: StoreKind.allCases)
    func runOutlook(kind: StoreKind) throws {
        let store = try kind.make().store
        func work(at seconds: Int64) throws -> Bool { try store.runOutlook(now: Instant(seconds: seconds)).hasWork }
        #expect(try store.runOutlook(now: Instant(seconds: 1000)) == RunOutlook(hasWork: false, followedConfiguration: nil))
        try store.upsert([F.pending("a", fires: 2000), F.pending("b", fires: 3000)])
        #expect(try work(at: 1999) == false)
        #expect(try work(at: 2000) == true, "a is due")
        // Held for quiet hours until 2500: due, but not awake before then.
        let held = try F.claim(store, now: 2000, leaseNow: 2000)
        #expect(held.map(\.request.identifier) == ["a"])
        #expect(try work(at: 1000) == true, "a claim to settle or take back")
        try store.postpone(held[0], until: Instant(seconds: 2500), claimer: F.me)
        #expect(try work(at: 2100) == false)
        #expect(try work(at: 2500) == true)
        // Claimed and marked sent: the claim and the mark wait to be settled.
        let claimed = try F.claim(store, now: 2500, leaseNow: 2500)
        try store.markSent([F.mark(claimed[0], at: 2500)], claimer: F.me)
        #expect(try work(at: 2600) == true, "a mark not settled")
        try store.settle(claimer: F.me)
        #expect(try work(at: 2600) == false)
        // A delivery over the network queued for 2700.
        try store.enqueue([F.mail("a@example.org")], deliveryID: "d1", identifier: "a", recipient: "alice", at: Instant(seconds: 2700))
        #expect(try work(at: 2699) == false)
        #expect(try work(at: 2700) == true)

        try store.keepFollowedConfiguration("sha256:one", zones: [:])
        #expect(try store.runOutlook(now: Instant(seconds: 2600)).followedConfiguration == "sha256:one")
        try store.keepFollowedConfiguration("sha256:two", zones: [:])
        #expect(try store.runOutlook(now: Instant(seconds: 2600)) == RunOutlook(hasWork: false, followedConfiguration: "sha256:two"))
    }

    @Test("the configuration followed is forgotten when a recipient moves or is added, and not kept when the store has a recipient elsewhere", arguments: StoreKind.allCases)
    func followedConfiguration(kind: StoreKind) throws {
        let store = try kind.make().store
        func followed() throws -> String? { try store.runOutlook(now: Instant(seconds: 0)).followedConfiguration }
        var floating = F.pending("f", fires: 5000)
        floating.request.trigger = .calendar(DateComponentsPattern(hour: 9, minute: 0), timeZone: nil, repeats: true)
        floating.zone = "Europe/Paris"
        try store.upsert([floating])
        #expect(try store.recipientZones() == ["alice": "Europe/Paris"])
        try store.keepFollowedConfiguration("sha256:one", zones: ["alice": "Europe/Paris", "bob": "UTC"])
        #expect(try followed() == "sha256:one")
        try store.moveRecipient("alice", to: "Asia/Tokyo", updated: [])
        #expect(try followed() == nil, "moved by another process")
        try store.keepFollowedConfiguration("sha256:two", zones: ["alice": "Europe/Paris"])
        #expect(try followed() == nil, "alice is in Tokyo in the store, in Paris in this configuration")
        try store.keepFollowedConfiguration("sha256:two", zones: ["alice": "Asia/Tokyo"])
        #expect(try followed() == "sha256:two")
        var another = F.pending("g", fires: 5000, recipient: "bob")
        another.request.trigger = floating.request.trigger
        try store.upsert([another])
        #expect(try followed() == nil, "a recipient added")
    }
}
