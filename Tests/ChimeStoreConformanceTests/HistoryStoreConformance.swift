import ChimeCore
import Foundation
import Testing

/// ``HistoryStore``: what is over forgotten, what is under way kept.
@Suite("Store conformance: forgetting old history")
struct HistoryStoreConformance {
    typealias F = Fixture

    @Test("deliveries delivered, inbound messages, responses and chat threads from before the cutoff are forgotten, a delivery with its attempts; a dry run counts them; deliveries queued or failed stay", arguments: StoreKind.allCases)
    func forget(kind: StoreKind) throws {
        let store = try kind.make().store
        // Four deliveries: three queued at 100 (to be delivered, failed, left queued), one at 5,000.
        for (id, at) in [("old-delivered", 100), ("old-failed", 100), ("old-queued", 100), ("new", 5_000)] as [(String, Int64)] {
            try store.enqueue([F.mail("\(id)@example.org")], deliveryID: "g-\(id).1", identifier: id, recipient: "alice", at: Instant(seconds: at))
        }
        let claimed = try store.claimOutbox(now: Instant(seconds: 6_000), limit: 10, claimer: F.me, leaseNow: Instant(seconds: 6_000),
                                            leaseUntil: Instant(seconds: 6_600))
        #expect(claimed.count == 4)
        try store.record(claimed.map { delivery in
            let state: DeliveryState = delivery.identifier == "old-failed" ? .failed : delivery.identifier == "old-queued" ? .queued : .delivered
            return AttemptRecord(id: delivery.id, attempt: DeliveryAttempt(at: Instant(seconds: 6_000), outcome: state == .delivered ? .delivered : .temporary,
                                                                          code: state == .delivered ? 250 : 451, message: ""),
                                 state: state, nextAttempt: state == .queued ? Instant(seconds: 7_000) : nil, countsAsAttempt: true, keepClaim: false)
        }, claimer: F.me)

        // Responses: finished long ago (carried out, failed), still under way long ago, and recent.
        let carried = try #require(try store.record(F.response("d1", at: 100), from: InboundRecord(at: Instant(seconds: 100), messageID: "<old@x>",
                                                                                                   sender: "a@x", outcome: .responded, detail: "", deliveryID: "d1")))
        let failed = try #require(try store.record(F.response("d2", at: 100), from: nil))
        try store.finish(response: failed, status: StoredResponse.failed, result: "hook exited 1")
        _ = try #require(try store.record(F.response("d3", status: StoredResponse.awaitingConfirmation, at: 100), from: nil))
        _ = try #require(try store.record(F.response("d4", status: StoredResponse.carryingOut, at: 100), from: nil))
        // More old inbound messages than are forgotten in one transaction.
        for n in 0..<(ForgottenHistory.batch + 5) {
            try store.record(InboundRecord(at: Instant(seconds: 200), messageID: "<auto\(n)@x>", sender: "a@x", outcome: .autoReply, detail: "", deliveryID: nil))
        }
        _ = try #require(try store.record(F.response("d5", at: 5_000), from: InboundRecord(at: Instant(seconds: 5_000), messageID: "<new@x>",
                                                                                           sender: "a@x", outcome: .responded, detail: "", deliveryID: "d5")))
        try store.rememberThread(channel: "slack", thread: "1.1", token: "old", at: Instant(seconds: 100))
        try store.rememberThread(channel: "slack", thread: "2.2", token: "new", at: Instant(seconds: 5_000))

        let expected = ForgottenHistory(deliveries: 1, inbound: ForgottenHistory.batch + 6, responses: 4, threads: 1)
        #expect(try store.forgetHistory(before: Instant(seconds: 1_000), dryRun: true) == expected)
        #expect(try store.deliveries(state: nil).count == 4, "a dry run forgets nothing")
        #expect(try store.inbound().count == ForgottenHistory.batch + 7)

        #expect(try store.forgetHistory(before: Instant(seconds: 1_000), dryRun: false) == expected)
        let left = try store.deliveries(state: nil)
        #expect(left.map(\.identifier) == ["old-failed", "old-queued", "new"], "a failed delivery is a dead letter, kept for chime retry")
        #expect(left.map(\.history.count) == [1, 1, 1], "their attempts kept")
        #expect(try store.inbound().map(\.messageID) == ["<new@x>"])
        #expect(try store.responses().map(\.deliveryID) == ["d5"])
        #expect(try store.response(deliveryID: "d1", action: "done") == nil)
        #expect(carried != failed)
        #expect(try store.threadToken(channel: "slack", thread: "1.1") == nil)
        #expect(try store.threadToken(channel: "slack", thread: "2.2") == "new")
        #expect(try store.forgetHistory(before: Instant(seconds: 1_000), dryRun: false) == ForgottenHistory(), "nothing left to forget")
    }

    @Test("the newest response, inbound message and delivery stay however old, so no id is given again; a delivery answered stays answered once its response is forgotten", arguments: StoreKind.allCases)
    func idsAndAnswers(kind: StoreKind) throws {
        let store = try kind.make().store
        // Pressed before the run settled its notification: the delivered row is written
        // unflagged, the response alone says it was answered.
        try store.upsert([F.pending("a", fires: 100)])
        let a = try #require(try F.claim(store, now: 100, leaseNow: 100).first)
        let first = try #require(try store.record(F.response(a.deliveryID, at: 100), from: nil))
        try store.markSent([F.mark(a, at: 150)], claimer: F.me)
        let second = try #require(try store.record(F.response("d2", at: 200), from: nil))
        #expect(try store.outstanding(recipient: "alice") == 0)

        #expect(try store.forgetHistory(before: Instant(seconds: 10_000), dryRun: false) == ForgottenHistory(responses: 1))
        #expect(try store.responses().map(\.id) == [second], "the newest stays")
        #expect(try store.outstanding(recipient: "alice") == 0, "answered before, answered still")
        let third = try #require(try store.record(F.response("d3", at: 20_000), from: nil))
        #expect(third > second && second > first)
    }

    @Test("digests and thread groups sent before the cutoff (empty ones too, more than a transaction takes) are forgotten with the notifications they held; one sent since, one never finished, what waits for the next digest and a thread that waits stay", arguments: StoreKind.allCases)
    func digests(kind: StoreKind) throws {
        let store = try kind.make().store
        /// Parks `ids` for alice's digest (or her thread "t"), fired at `fires`.
        func park(_ ids: [String], fires: Int64, thread: String = "") throws {
            try store.upsert(ids.map { F.pending($0, fires: fires, thread: thread) })
            let claimed = try F.claim(store, now: fires, leaseNow: fires)
            try store.markSent(claimed.map { F.mark($0, at: fires, route: thread.isEmpty ? .digest : .grouped) }, claimer: F.me)
            try store.settle(claimer: F.me)
        }
        func batch(_ id: String, of recipient: String = "alice", thread: String? = nil, slot: Int64, at: Int64) throws -> MessageBatch {
            try #require(try store.claimBatch(id: id, recipient: recipient, thread: thread, slot: Instant(seconds: slot), claimer: F.me, at: Instant(seconds: at)))
        }
        try park(["a", "b"], fires: 100)
        try store.finishBatch(try batch("digest-old", slot: 200, at: 200), queued: [], at: Instant(seconds: 200))
        try park(["g1", "g2"], fires: 250, thread: "t")
        try store.finishBatch(try batch("group-old", thread: "t", slot: 250, at: 300), queued: [], at: Instant(seconds: 300))
        try park(["c"], fires: 400)
        let unfinished = try batch("digest-unfinished", slot: 500, at: 500)
        try park(["w"], fires: 650, thread: "still")
        // Another recipient's daily digests, found empty, more than one transaction takes.
        let empty = ForgottenHistory.kinds.first { $0.table == "batch" }!.rowsAtATime + 3
        for n in 0..<empty {
            let slot = 700 + Int64(n)
            try store.finishBatch(try batch("digest-empty-\(n)", of: "bob", slot: slot, at: slot), queued: [], at: Instant(seconds: slot))
        }
        try park(["d"], fires: 5_000)
        try store.finishBatch(try batch("digest-new", slot: 5_100, at: 5_100), queued: [], at: Instant(seconds: 5_100))
        // Long waiting, never taken by a batch: a digest item (fired late, or held) and a
        // thread still waiting ("w", above).
        try park(["f"], fires: 600)
        try park(["e"], fires: 5_200)
        let parkedBefore = try #require(try StoreCopyConformance.dump(store)["parked"]).count
        #expect(parkedBefore == 9)

        let expected = ForgottenHistory(digests: 2 + empty)
        #expect(try store.forgetHistory(before: Instant(seconds: 1_000), dryRun: true) == expected)
        #expect(try store.hasDigest(recipient: "alice", slot: Instant(seconds: 200)), "a dry run forgets nothing")
        #expect(try store.forgetHistory(before: Instant(seconds: 1_000), dryRun: false) == expected)

        let tables = try StoreCopyConformance.dump(store)
        let parked = try #require(tables["parked"]).compactMap { row -> String? in
            guard case .text(let request)? = row["request"] else { return nil }
            return try NotificationRequest(storedJSON: request).identifier
        }
        #expect(parked.sorted() == ["c", "d", "e", "f", "w"], "the notifications of the two sent before the cutoff went with them")
        #expect(try #require(tables["batch"]).count == 2)
        #expect(try !store.hasDigest(recipient: "alice", slot: Instant(seconds: 200)))
        #expect(try store.hasDigest(recipient: "alice", slot: Instant(seconds: 5_100)), "sent after the cutoff: its slot stays taken")
        #expect(try store.unfinishedBatches(digests: true).map(\.id) == ["digest-unfinished"], "never finished, however old: still to send")
        #expect(try store.takeOver(unfinished, claimer: F.other)?.items.map(\.request.identifier) == ["c"], "with what it holds")
        #expect(try store.parked(recipient: "alice").map(\.request.identifier) == ["f", "e"], "what waits for the next digest stays")
        #expect(try store.waitingGroups().map(\.thread) == ["still"], "and a thread that waits")
    }
}
