import ChimeCore
import Foundation
import Testing

/// ``ResponseStore``: responses recorded once, replays, retakes and confirmations carried
/// out once however many processes ask together.
@Suite("Store conformance: responses and inbound messages")
struct ResponseStoreConformance {
    typealias F = Fixture

    @Test("a response is recorded once per delivery and action; the same answer again is a replay, its message recorded as such", arguments: StoreKind.allCases)
    func recordReplay(kind: StoreKind) throws {
        let store = try kind.make().store
        let id = try #require(try store.record(F.response("d1", text: "first"), from: F.inbound("<m1@x>", delivery: "d1")))
        #expect(try store.record(F.response("d1", text: "second"), from: F.inbound("<m2@x>", delivery: "d1")) == nil)
        let other = try #require(try store.record(F.response("d1", action: "later"), from: nil))
        #expect(other != id)
        #expect(try store.responses().map(\.action) == ["done", "later"])
        // Read from an id on, a page at a time, as the HTTP API's pollers read them.
        #expect(try store.responses(after: id, count: 5).map(\.id) == [other])
        #expect(try store.responses(after: 0, count: 1).map(\.id) == [id])
        #expect(try store.responses(after: other, count: 5).isEmpty)
        #expect(try store.responses().first?.userText == "first")
        // Looked up by delivery and action, as a text-input button pressed again is.
        #expect(try store.response(deliveryID: "d1", action: "done")?.userText == "first")
        #expect(try store.response(deliveryID: "d1", action: "done")?.id == id)
        #expect(try store.response(deliveryID: "d2", action: "done") == nil)
        #expect(try store.inbound().map(\.messageID) == ["<m1@x>", "<m2@x>"])
        #expect(try store.inbound().map(\.outcome) == [.responded, .replayed])
        try store.record(F.inbound("<m3@x>", outcome: .autoReply))
        #expect(try store.inbound().map(\.outcome) == [.responded, .replayed, .autoReply])
    }

    @Test("text from outside holding a NUL (a bounce's address, a typed answer, a chat user, a hook's output, a thread) is kept with U+FFFD in its place; a delivery id holding one names nothing", arguments: StoreKind.allCases)
    func nulCharacters(kind: StoreKind) throws {
        let store = try kind.make().store
        var response = F.response("d1", text: "a\u{0}b")
        response.responder = "U\u{0}1"
        var inbound = F.inbound("<m1@x>", delivery: "d1")
        inbound.detail = "a\u{0}b@x marked undeliverable"
        let id = try #require(try store.record(response, from: inbound))
        try store.finish(response: id, status: StoredResponse.failed, result: "hook said \u{0}")
        let kept = try #require(try store.responses().first)
        #expect(kept.userText == "a\u{FFFD}b")
        #expect(kept.responder == "U\u{FFFD}1")
        #expect(kept.result == "hook said \u{FFFD}")
        #expect(try store.inbound().map(\.detail) == ["a\u{FFFD}b@x marked undeliverable"])
        try store.record(InboundRecord(at: Instant(seconds: 600), messageID: "<m\u{0}2@x>", sender: "x\u{0}@y", outcome: .unreadable,
                                       detail: "\u{0}", deliveryID: nil))
        #expect(try store.inbound().last?.sender == "x\u{FFFD}@y")
        try store.rememberThread(channel: "slack", thread: "17\u{0}00", token: "t", at: Instant(seconds: 600))
        #expect(try store.threadToken(channel: "slack", thread: "17\u{0}00") == "t")
        #expect(try store.request(ofDelivery: "g\u{0}.1") == nil)
    }

    @Test("a response awaiting confirmation is taken by an answer with its proof (carrying out), its text standing; another answer without proof is a replay", arguments: StoreKind.allCases)
    func awaitingTakenByProof(kind: StoreKind) throws {
        let store = try kind.make().store
        let id = try #require(try store.record(F.response("d1", status: StoredResponse.awaitingConfirmation, text: "forged"), from: nil))
        #expect(try store.record(F.response("d1", status: StoredResponse.awaitingConfirmation, text: "again"), from: nil) == nil)
        #expect(try store.responses().first?.userText == "forged")
        #expect(try store.record(F.response("d1", status: StoredResponse.carryingOut, at: 600, text: "own"), from: nil) == id)
        let taken = try #require(try store.responses().first)
        #expect(taken.userText == "own" && taken.status == StoredResponse.carryingOut && taken.at == Instant(seconds: 600))
        #expect(try store.confirm(deliveryID: "d1", action: "done", now: Instant(seconds: 700)) == nil, "nothing waits any more")
    }

    @Test("an inbound message marked answered is known as such by its Message-ID and delivery, its copies delivered again too; no other is", arguments: StoreKind.allCases)
    func answeredMessages(kind: StoreKind) throws {
        let store = try kind.make().store
        let m1 = AnsweredMessage(deliveryID: "d1", messageID: "<m1@x>")
        _ = try store.record(F.response("d1", text: "first"), from: F.inbound("<m1@x>", delivery: "d1"))
        #expect(try !store.answered(m1), "recorded, its answer not yet made")
        try store.markAnswered([m1])
        #expect(try store.answered(m1))
        #expect(try !store.answered(AnsweredMessage(deliveryID: "d1", messageID: "<m2@x>")), "another reply to the same delivery")
        #expect(try !store.answered(AnsweredMessage(deliveryID: "d2", messageID: "<m1@x>")), "the same id for another delivery")
        // Delivered again: recorded as a replay, and still known as answered.
        #expect(try store.record(F.response("d1", text: "again"), from: F.inbound("<m1@x>", delivery: "d1")) == nil)
        #expect(try store.answered(m1))
        // A message not recorded is not marked by being named.
        let m4 = AnsweredMessage(deliveryID: "d1", messageID: "<m4@x>")
        try store.markAnswered([m4, m1])
        try store.record(F.inbound("<m4@x>", outcome: .unmatched, delivery: "d1"))
        #expect(try !store.answered(m4))
        try store.markAnswered([])
    }

    @Test("a response whose carrying out failed is taken again by the next answer, under its id; once it succeeded, answers are replays", arguments: StoreKind.allCases)
    func failedTakenAgain(kind: StoreKind) throws {
        let store = try kind.make().store
        let id = try #require(try store.record(F.response("d1"), from: nil))
        try store.finish(response: id, status: StoredResponse.failed, result: "hook exited 1")
        #expect(try store.responses().first?.result == "hook exited 1")
        #expect(try store.record(F.response("d1", at: 700, text: "again"), from: nil) == id)
        let taken = try #require(try store.responses().first)
        #expect(taken.status == StoredResponse.carriedOut)
        #expect(taken.result == "")
        #expect(taken.userText == "again")
        #expect(taken.at == Instant(seconds: 700))
        try store.finish(response: id, status: StoredResponse.carriedOut, result: "ok")
        #expect(try store.record(F.response("d1"), from: nil) == nil)
    }

    @Test("a response cut short (still carrying out ten minutes after it was taken: its process was killed) is taken again by the next answer or a retry; before, an answer is refused as in flight, recording nothing, and a retry takes nothing", arguments: StoreKind.allCases)
    func cutShortTakenAgain(kind: StoreKind) throws {
        let store = try kind.make().store
        let id = try #require(try store.record(F.response("d1", status: StoredResponse.carryingOut, at: 500), from: nil))
        let inFlight = 500 + StoredResponse.abandonedAfter - 1
        #expect(throws: ResponseInFlight(deliveryID: "d1", action: "done", since: Instant(seconds: 500))) {
            try store.record(F.response("d1", status: StoredResponse.carryingOut, at: inFlight), from: F.inbound("<m2@x>"))
        }
        #expect(try store.inbound().isEmpty, "nothing recorded: the message is to come again")
        #expect(try store.retake(response: id, now: Instant(seconds: inFlight)) == nil)
        // Ten minutes on, it was cut short: the next answer takes it again, under its id.
        let later = 500 + StoredResponse.abandonedAfter
        #expect(try store.record(F.response("d1", status: StoredResponse.carryingOut, at: later, text: "again"), from: nil) == id)
        #expect(try store.responses().first?.userText == "again")
        #expect(try store.retake(response: id, now: Instant(seconds: later + 1)) == nil, "taken again just now")
        // Cut short again: a retry takes it.
        let retaken = try #require(try store.retake(response: id, now: Instant(seconds: later + StoredResponse.abandonedAfter)))
        #expect(retaken.status == StoredResponse.carryingOut && retaken.at == Instant(seconds: later + StoredResponse.abandonedAfter))
        try store.finish(response: id, status: StoredResponse.carriedOut, result: "ok")
        #expect(try store.record(F.response("d1", status: StoredResponse.carryingOut, at: 99_999), from: nil) == nil)
        #expect(try store.retake(response: id, now: Instant(seconds: 99_999)) == nil)
    }

    @Test("eight processes recording the same answer at once: one records it", arguments: StoreKind.allCases)
    func recordOnce(kind: StoreKind) throws {
        let made = try kind.make()
        let stores = try (0..<8).map { _ in try made.another() }
        let ids = try concurrently(8) { try stores[$0].record(Fixture.response("d1"), from: Fixture.inbound("<m\($0)@x>")) }.map { try $0.get() }
        #expect(ids.compactMap { $0 }.count == 1)
        #expect(try made.store.responses().count == 1)
        #expect(try made.store.inbound().filter { $0.outcome == .replayed }.count == 7)
    }

    @Test("retake: a failed response taken again by one of eight at once, not at all when it did not fail", arguments: StoreKind.allCases)
    func retakeOnce(kind: StoreKind) throws {
        let made = try kind.make()
        let id = try #require(try made.store.record(F.response("d1"), from: nil))
        #expect(try made.store.retake(response: id, now: Instant(seconds: 5000)) == nil)
        try made.store.finish(response: id, status: StoredResponse.failed, result: "no")
        let stores = try (0..<8).map { _ in try made.another() }
        let taken = try concurrently(8) { try stores[$0].retake(response: id, now: Instant(seconds: 900)) }.map { try $0.get() }.compactMap { $0 }
        #expect(taken.count == 1)
        #expect(taken.first?.status == StoredResponse.carryingOut)
        #expect(taken.first?.at == Instant(seconds: 900))
        #expect(taken.first?.result == "")
        #expect(try made.store.retake(response: 999_999, now: Instant(seconds: 900)) == nil)
    }

    @Test("confirm: a response awaiting confirmation confirmed by one of eight at once", arguments: StoreKind.allCases)
    func confirmOnce(kind: StoreKind) throws {
        let made = try kind.make()
        #expect(try made.store.confirm(deliveryID: "d1", action: "trash", now: Instant(seconds: 800)) == nil)
        _ = try made.store.record(F.response("d1", action: "trash", status: StoredResponse.awaitingConfirmation), from: nil)
        let stores = try (0..<8).map { _ in try made.another() }
        let confirmed = try concurrently(8) { try stores[$0].confirm(deliveryID: "d1", action: "trash", now: Instant(seconds: 800)) }.map { try $0.get() }.compactMap { $0 }
        #expect(confirmed.count == 1)
        #expect(confirmed.first?.status == StoredResponse.carryingOut)
        #expect(confirmed.first?.at == Instant(seconds: 800), "taken when confirmed")
        #expect(confirmed.first?.action == "trash")
        #expect(try made.store.confirm(deliveryID: "d1", action: "trash", now: Instant(seconds: 800)) == nil)
    }

    @Test("what a delivery id was, the badge, and chat threads", arguments: StoreKind.allCases)
    func lookups(kind: StoreKind) throws {
        let store = try kind.make().store
        try store.upsert([F.pending("a", fires: 100, repeats: true), F.pending("b", fires: 100)])
        let claimed = try F.claim(store)
        try store.markSent([F.mark(claimed[0], at: 1000, next: 2000), F.mark(claimed[1], at: 1000)], claimer: F.me)
        try store.settle(claimer: F.me)
        #expect(try store.request(ofDelivery: claimed[1].deliveryID)?.identifier == "b")
        // An earlier occurrence of a repeating request still pending.
        #expect(try store.request(ofDelivery: "g-a.5")?.identifier == "a")
        #expect(try store.request(ofDelivery: "nobody.1") == nil)
        #expect(try store.outstanding(recipient: "alice") == 2)
        _ = try store.record(F.response(claimed[1].deliveryID), from: nil)
        #expect(try store.outstanding(recipient: "alice") == 1)
        #expect(try store.threadToken(channel: "team", thread: "1.2") == nil)
        try store.rememberThread(channel: "team", thread: "1.2", token: "T1", at: Instant(seconds: 1))
        try store.rememberThread(channel: "team", thread: "1.2", token: "T2", at: Instant(seconds: 2))
        #expect(try store.threadToken(channel: "team", thread: "1.2") == "T2")
        #expect(try store.threadToken(channel: "other", thread: "1.2") == nil)
        // Removed from the delivered list, no occurrence of it is open to answers any more.
        #expect(try store.removeDelivered(["a"]) == ["a"])
        #expect(try store.request(ofDelivery: "g-a.5") == nil && store.request(ofDelivery: claimed[0].deliveryID) == nil)
        #expect(try store.pending(identifier: "a") != nil, "still pending: it fires again")
    }

    /// Each answer to a reply says how many of the recipient's reminders are still open;
    /// the stores keep deliveries flagged answered so as not to ask about each of them.
    @Test("the count of reminders still open: a delivery counts until a response to it is carried out, and again once its request is delivered anew; one carried out before its delivery was settled is not counted", arguments: StoreKind.allCases)
    func openCount(kind: StoreKind) throws {
        let store = try kind.make().store
        try store.upsert([F.pending("a", fires: 100, repeats: true), F.pending("b", fires: 100), F.pending("c", fires: 100)])
        let claimed = Dictionary(uniqueKeysWithValues: try F.claim(store).map { ($0.request.identifier, $0) })
        try store.markSent([F.mark(claimed["a"]!, at: 1000, next: 2000), F.mark(claimed["b"]!, at: 1000)], claimer: F.me)
        try store.settle(claimer: F.me)
        #expect(try store.outstanding(recipient: "alice") == 2)
        // c's response carried out between its mark and the settling of its delivery.
        try store.markSent([F.mark(claimed["c"]!, at: 1000)], claimer: F.me)
        let early = try #require(try store.record(F.response(claimed["c"]!.deliveryID, status: StoredResponse.carryingOut), from: nil))
        try store.finish(response: early, status: StoredResponse.carriedOut, result: "")
        try store.settle(claimer: F.me)
        #expect(try store.outstanding(recipient: "alice") == 2, "c answered")
        // A response being carried out, or failed, does not answer; carried out, it does.
        let b = try #require(try store.record(F.response(claimed["b"]!.deliveryID, status: StoredResponse.carryingOut), from: nil))
        try store.finish(response: b, status: StoredResponse.failed, result: "")
        #expect(try store.outstanding(recipient: "alice") == 2)
        // b's failed response taken again and carried out; a's carried out.
        let retaken = try #require(try store.retake(response: b, now: Instant(seconds: 600)))
        try store.finish(response: retaken.id, status: StoredResponse.carriedOut, result: "")
        #expect(try store.outstanding(recipient: "alice") == 1)
        let a = try #require(try store.record(F.response(claimed["a"]!.deliveryID, status: StoredResponse.carryingOut), from: nil))
        try store.finish(response: a, status: StoredResponse.carriedOut, result: "")
        #expect(try store.outstanding(recipient: "alice") == 0)
        // a fires again: a new delivery, open until it is answered.
        let again = try F.claim(store, now: 2000, leaseNow: 2000)
        #expect(again.map(\.request.identifier) == ["a"])
        try store.markSent([F.mark(again[0], at: 2000, next: 3000)], claimer: F.me)
        try store.settle(claimer: F.me)
        #expect(try store.outstanding(recipient: "alice") == 1)
    }
}
