import ChimeCore
import Foundation
import Testing

/// ``BatchStore``: notifications parked for digests and thread groups, each sent in one
/// batch, once.
@Suite("Store conformance: digests and thread groups")
struct BatchStoreConformance {
    typealias F = Fixture

    /// Parks a, b for alice's digest and g1, g2 for her thread "t".
    private func park(_ store: any NotificationStore) throws -> [PendingNotification] {
        try store.upsert([F.pending("a", fires: 100), F.pending("b", fires: 200), F.pending("g1", fires: 150, thread: "t"),
                          F.pending("g2", fires: 250, thread: "t")])
        let claimed = try F.claim(store)
        try store.markSent(claimed.map { F.mark($0, at: 1000, route: $0.request.content.threadIdentifier.isEmpty ? .digest : .grouped) },
                           claimer: F.me)
        try store.settle(claimer: F.me)
        return claimed
    }

    @Test("remove-delivered takes every occurrence of a repeating request out of the digest, not only the latest (which is all that delivered keeps)", arguments: StoreKind.allCases)
    func removeDeliveredUnparksEveryOccurrence(kind: StoreKind) throws {
        let store = try kind.make().store
        try store.upsert([F.pending("r", fires: 100, repeats: true), F.pending("s", fires: 100)])
        for next: Int64 in [200, 300] {
            let claimed = try F.claim(store)
            try store.markSent(claimed.map { F.mark($0, at: 1000, next: $0.request.identifier == "r" ? next : nil, route: .digest) }, claimer: F.me)
            try store.settle(claimer: F.me)
        }
        #expect(try store.parked(recipient: "alice").map(\.request.identifier) == ["r", "s", "r"])
        #expect(try store.removeDelivered(["r"]) == ["r"])
        #expect(try store.parked(recipient: "alice").map(\.request.identifier) == ["s"])
    }

    @Test("parked notifications wait for their digest; a slot's batch is claimed by one of eight runs, with every one of them", arguments: StoreKind.allCases)
    func digestOnce(kind: StoreKind) throws {
        let made = try kind.make()
        _ = try park(made.store)
        #expect(try made.store.parked(recipient: "alice").map(\.request.identifier) == ["a", "b"])
        #expect(try !made.store.hasDigest(recipient: "alice", slot: Instant(seconds: 3600)))
        #expect(try made.store.parked(recipient: "bob").isEmpty)
        let stores = try (0..<8).map { _ in try made.another() }
        let batches = try concurrently(8) { index in
            try stores[index].claimBatch(id: "digest-alice-1", recipient: "alice", thread: nil, slot: Instant(seconds: 3600),
                                         claimer: Claimer(host: "w\(index)", processID: 1, processStart: "0"), at: Instant(seconds: 2000))
        }.map { try $0.get() }.compactMap { $0 }
        #expect(batches.count == 1)
        #expect(batches.first?.items.map(\.request.identifier) == ["a", "b"])
        #expect(try made.store.parked(recipient: "alice").isEmpty)
        // The same slot under another id: still one batch per recipient and slot.
        #expect(try made.store.claimBatch(id: "digest-alice-1b", recipient: "alice", thread: nil, slot: Instant(seconds: 3600),
                                          claimer: F.me, at: Instant(seconds: 2001)) == nil)
        #expect(try made.store.unfinishedBatches(digests: true).map(\.id) == ["digest-alice-1"])
        #expect(try made.store.unfinishedBatches(digests: false).isEmpty)
        // Started, its slot has its digest; another slot, another recipient, or a thread's group do not count.
        #expect(try made.store.hasDigest(recipient: "alice", slot: Instant(seconds: 3600)))
        #expect(try !made.store.hasDigest(recipient: "alice", slot: Instant(seconds: 7200)))
        #expect(try !made.store.hasDigest(recipient: "bob", slot: Instant(seconds: 3600)))
    }

    @Test("a thread's notifications wait as a group, taken by its batch", arguments: StoreKind.allCases)
    func groups(kind: StoreKind) throws {
        let store = try kind.make().store
        let claimed = try park(store)
        let groups = try store.waitingGroups()
        #expect(groups.count == 1)
        #expect(groups.first?.thread == "t")
        #expect(groups.first?.first == Instant(seconds: 150))
        #expect(groups.first?.firstDeliveryID == claimed.first { $0.request.identifier == "g1" }?.deliveryID)
        let batch = try #require(try store.claimBatch(id: "group-1", recipient: "alice", thread: "t", slot: Instant(seconds: 150),
                                                      claimer: F.me, at: Instant(seconds: 2000)))
        #expect(batch.items.map(\.request.identifier) == ["g1", "g2"])
        #expect(try store.waitingGroups().isEmpty)
        #expect(try store.unfinishedBatches(digests: false).map(\.thread) == ["t"])
        #expect(try store.parked(recipient: "alice").map(\.request.identifier) == ["a", "b"], "the digest's are not the group's")
    }

    @Test("an unfinished batch is taken over by one of eight runs; finished, it queues its deliveries once and is no longer unfinished", arguments: StoreKind.allCases)
    func takeOverAndFinish(kind: StoreKind) throws {
        let made = try kind.make()
        _ = try park(made.store)
        _ = try made.store.claimBatch(id: "digest-alice-1", recipient: "alice", thread: nil, slot: Instant(seconds: 3600), claimer: F.other,
                                      at: Instant(seconds: 2000))
        let unfinished = try #require(try made.store.unfinishedBatches(digests: true).first)
        #expect(unfinished.claimer == F.other)
        #expect(unfinished.createdAt == Instant(seconds: 2000))
        let stores = try (0..<8).map { _ in try made.another() }
        let taken = try concurrently(8) { index in
            try stores[index].takeOver(unfinished, claimer: Claimer(host: "w\(index)", processID: 1, processStart: "0"))
        }.map { try $0.get() }.compactMap { $0 }
        #expect(taken.count == 1)
        let batch = try #require(taken.first)
        #expect(batch.items.map(\.request.identifier) == ["a", "b"])
        #expect(try made.store.takeOver(unfinished, claimer: F.me) == nil, "its claimer is no longer the one read")
        try made.store.finishBatch(batch, queued: [F.mail("alice@example.org")], at: Instant(seconds: 2100))
        try made.store.finishBatch(batch, queued: [F.mail("alice@example.org")], at: Instant(seconds: 2200))
        #expect(try made.store.unfinishedBatches(digests: true).isEmpty)
        let queued = try made.store.deliveries(state: .queued)
        #expect(queued.map(\.deliveryID) == ["digest-alice-1"])
        #expect(queued.map(\.queuedAt) == [Instant(seconds: 2100)])
    }
}
