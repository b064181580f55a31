import ChimeCore
import Foundation
import Testing

/// ``PendingStore``: requests waiting, claimed, marked sent and settled.
@Suite("Store conformance: pending and firing")
struct PendingStoreConformance {
    typealias F = Fixture

    @Test("upsert adds, and replaces a request of the same identifier, saying which it replaced", arguments: StoreKind.allCases)
    func upsertReplaces(kind: StoreKind) throws {
        let store = try kind.make().store
        #expect(try store.upsert([F.pending("a", fires: 100), F.pending("b", fires: 200)]).isEmpty)
        // A claimed request replaced is free again, at its new instant.
        #expect(try F.claim(store).count == 2)
        var replacement = F.pending("a", fires: 300, title: "again")
        replacement.generation = "g-a-2"
        #expect(try store.upsert([replacement, F.pending("c", fires: 400)]) == ["a"])
        let a = try #require(try store.pending(identifier: "a"))
        #expect(a.request.content.title == "again")
        #expect(a.nextFire == Instant(seconds: 300))
        #expect(a.generation == "g-a-2")
        #expect(try store.pending(recipient: nil, limits: [:]).map(\.request.identifier) == ["b", "a", "c"])
        #expect(try F.claim(store, claimer: F.other).map(\.request.identifier) == ["a", "c"])
    }

    @Test("a row whose request cannot be read is claimed apart, named with what removes it, and held; the others are claimed; a listing reaching it fails naming it", arguments: StoreKind.allCases)
    func unreadableRow(kind: StoreKind) throws {
        let under = try kind.make()
        let store = under.store
        try store.upsert([F.pending("a", fires: 100), F.pending("b", fires: 200), F.pending("c", fires: 300)])
        try under.execute("UPDATE pending SET request = '{\"identifier\": \"b\", ' WHERE identifier = 'b'")
        let claimed = try store.claimDueRows(now: Instant(seconds: 1000), limit: 100, claimer: F.me, leaseNow: Instant(seconds: 1000),
                                             leaseUntil: Instant(seconds: 1600), limits: [:])
        #expect(claimed.notifications.map(\.request.identifier) == ["a", "c"])
        #expect(claimed.count == 3)
        let unreadable = try #require(claimed.unreadable.first)
        #expect(claimed.unreadable.count == 1)
        #expect((unreadable.identifier, unreadable.generation) == ("b", "g-b"))
        #expect("\(unreadable)" == "pending request \"b\": its request in the store cannot be read (not valid JSON); `chime cancel b` removes it")
        // Held: not claimed again before the instant it was put off to, then claimed again.
        try store.postpone(identifier: "b", generation: "g-b", until: Instant(seconds: 5000), claimer: F.me)
        #expect(try store.claimDueRows(now: Instant(seconds: 2000), limit: 100, claimer: F.other, leaseNow: Instant(seconds: 1000),
                                       leaseUntil: Instant(seconds: 1600), limits: [:]).count == 0)
        #expect(try store.claimDueRows(now: Instant(seconds: 5000), limit: 100, claimer: F.other, leaseNow: Instant(seconds: 1000),
                                       leaseUntil: Instant(seconds: 1600), limits: [:]).unreadable.map(\.identifier) == ["b"])
        // A listing, and the claim that wants notifications only, stop at it with its name.
        #expect(throws: unreadable) { try store.pending(recipient: nil, limits: [:]) }
        #expect(throws: unreadable) { try F.claim(store, now: 5000, claimer: F.other, leaseNow: 9000) }
        // Nothing else was touched, and cancelling it takes it away.
        #expect(try store.cancel(["b"]) == ["b"])
        #expect(try store.pending(recipient: nil, limits: [:]).map(\.request.identifier) == ["a", "c"])
    }

    @Test("an identifier with a NUL, as a URL's %00 gives one, names no request: found nowhere, cancelled and removed nowhere, as any unknown one", arguments: StoreKind.allCases)
    func identifierWithNUL(kind: StoreKind) throws {
        let store = try kind.make().store
        try store.upsert([F.pending("a", fires: 100)])
        #expect(try store.pending(identifier: "a\u{0}") == nil)
        #expect(try store.cancel(["a\u{0}", "a"]) == ["a"])
        #expect(try store.removeDelivered(["\u{0}"]).isEmpty)
        // A recipient or a page's cursor with one (the API's ?recipient=%00): nothing listed.
        #expect(try store.pending(recipient: "a\u{0}b", limits: [:], after: nil, count: 10).isEmpty)
        #expect(try store.delivered(recipient: "\u{0}", after: nil, count: 10).isEmpty)
    }

    @Test("pending lists by next fire, marks those beyond a recipient's limit set aside; due and claims stay within it", arguments: StoreKind.allCases)
    func limits(kind: StoreKind) throws {
        let store = try kind.make().store
        try store.upsert([F.pending("a", fires: 100), F.pending("b", fires: 200), F.pending("c", fires: 300),
                          F.pending("z", fires: 50, recipient: "zed")])
        let listed = try store.pending(recipient: nil, limits: ["alice": 2])
        #expect(listed.map(\.request.identifier) == ["z", "a", "b", "c"])
        #expect(listed.map(\.isSetAside) == [false, false, false, true])
        #expect(try store.pending(recipient: "zed", limits: [:]).map(\.request.identifier) == ["z"])
        #expect(try store.due(now: Instant(seconds: 1000), limit: 10, limits: ["alice": 2]).map(\.request.identifier) == ["z", "a", "b"])
        #expect(try store.due(now: Instant(seconds: 1000), limit: 2, limits: [:]).map(\.request.identifier) == ["z", "a"])
        #expect(try store.due(now: Instant(seconds: 150), limit: 10, limits: [:]).map(\.request.identifier) == ["z", "a"])
        // due is a dry run: nothing is claimed.
        #expect(try F.claim(store, limits: ["alice": 2]).map(\.request.identifier) == ["z", "a", "b"])
        #expect(try F.claim(store, limit: 1, claimer: F.other, limits: ["alice": 2]).isEmpty)
    }

    /// Every page of `read` (`count` at a time, each from the last one's key), joined.
    private func pages<T>(_ count: Int, key: (T) -> ListingKey, _ read: (ListingKey?, Int) throws -> [T]) throws -> [T] {
        var all: [T] = [], after: ListingKey?
        while true {
            let page = try read(after, count)
            #expect(page.count <= count)
            all += page
            guard page.count == count, let last = page.last else { return all }
            after = key(last)
        }
    }

    @Test("pending read a page at a time, from a key on, is the whole listing: ties at one instant by identifier byte by byte, set aside marked as in the whole listing", arguments: StoreKind.allCases)
    func pendingPages(kind: StoreKind) throws {
        let store = try kind.make().store
        // Three at 100 whose identifiers sort differently by bytes than by Swift's String
        // (precomposed é against e and a combining accent; "B" before "a").
        try store.upsert([F.pending("a", fires: 100), F.pending("B", fires: 100, recipient: "zed"), F.pending("\u{E9}", fires: 100),
                          F.pending("e\u{301}", fires: 100), F.pending("c", fires: 50), F.pending("d", fires: 300, recipient: "zed"),
                          F.pending("f", fires: 200), F.pending("g", fires: 400)])
        let limits = ["alice": 3, "zed": 0]
        let whole = try store.pending(recipient: nil, limits: limits)
        #expect(whole.map(\.request.identifier) == ["c", "B", "a", "e\u{301}", "\u{E9}", "f", "d", "g"])
        #expect(whole.map(\.isSetAside) == [false, true, false, false, true, true, true, true])
        for count in 1...3 {
            let paged = try pages(count, key: \PendingNotification.listingKey) { try store.pending(recipient: nil, limits: limits, after: $0, count: $1) }
            #expect(paged.map(\.request.identifier) == whole.map(\.request.identifier))
            #expect(paged.map(\.isSetAside) == whole.map(\.isSetAside))
        }
        let alice = try store.pending(recipient: "alice", limits: limits, after: ListingKey(seconds: 100, identifier: "a"), count: 2)
        #expect(alice.map(\.request.identifier) == ["e\u{301}", "\u{E9}"])
        #expect(alice.map(\.isSetAside) == [false, true])
        #expect(try store.pending(recipient: nil, limits: [:], after: ListingKey(seconds: 400, identifier: "g"), count: 5).isEmpty)
    }

    @Test("two recipients whose names differ only in how é is written are two recipients, each with its own limit, in a whole listing and in every page", arguments: StoreKind.allCases)
    func pendingPagesRecipientBytes(kind: StoreKind) throws {
        let store = try kind.make().store
        let (composed, decomposed) = ("Jos\u{E9}", "Jose\u{301}")
        try store.upsert([F.pending("j1", fires: 10, recipient: decomposed), F.pending("j2", fires: 20, recipient: composed),
                          F.pending("j3", fires: 30, recipient: decomposed), F.pending("j4", fires: 40, recipient: composed),
                          F.pending("j5", fires: 50, recipient: composed)])
        // Swift finds the one limit under either spelling; the stores keep two recipients.
        let limits = [composed: 2]
        let whole = try store.pending(recipient: nil, limits: limits)
        #expect(whole.map(\.isSetAside) == [false, false, false, false, true])
        for count in 1...3 {
            let paged = try pages(count, key: \PendingNotification.listingKey) { try store.pending(recipient: nil, limits: limits, after: $0, count: $1) }
            #expect(paged.map(\.isSetAside) == whole.map(\.isSetAside), "pages of \(count)")
        }
    }

    @Test("delivered read a page at a time is the whole listing, newest first, ties by identifier byte by byte", arguments: StoreKind.allCases)
    func deliveredPages(kind: StoreKind) throws {
        let store = try kind.make().store
        try store.upsert(["a", "B", "\u{E9}", "e\u{301}", "c"].map { F.pending($0, fires: 100) } + [F.pending("z", fires: 100, recipient: "zed")])
        let claimed = try F.claim(store)
        try store.markSent(claimed.map { F.mark($0, at: $0.request.identifier == "c" ? 900 : 800) }, claimer: F.me)
        try store.settle(claimer: F.me)
        let whole = try store.delivered(recipient: nil)
        #expect(whole.map(\.request.identifier) == ["c", "B", "a", "e\u{301}", "z", "\u{E9}"])
        let key = { (delivered: DeliveredNotification) in ListingKey(seconds: delivered.deliveredAt.seconds, identifier: delivered.request.identifier) }
        for count in 1...4 {
            #expect(try pages(count, key: key) { try store.delivered(recipient: nil, after: $0, count: $1) }.map(\.request.identifier)
                    == whole.map(\.request.identifier))
        }
        #expect(try store.delivered(recipient: "alice", after: ListingKey(seconds: 800, identifier: "a"), count: 10).map(\.request.identifier)
                == ["e\u{301}", "\u{E9}"])
    }

    @Test("claim, mark sent, settle: delivered once, a repeating request moved to its next fire, a one-off removed", arguments: StoreKind.allCases)
    func claimMarkSettle(kind: StoreKind) throws {
        let store = try kind.make().store
        try store.upsert([F.pending("once", fires: 100), F.pending("again", fires: 200, repeats: true), F.pending("later", fires: 5000)])
        let claimed = try F.claim(store)
        #expect(claimed.map(\.request.identifier) == ["once", "again"])
        #expect(try store.claimers().map(\.claimer) == [F.me])
        try store.markSent([F.mark(claimed[0], at: 1000), F.mark(claimed[1], at: 1000, next: 2000)], claimer: F.me)
        #expect(try store.settle(claimer: F.me) == 2)
        #expect(try store.settle(claimer: F.me) == 0)
        #expect(try store.pending(identifier: "once") == nil)
        let again = try #require(try store.pending(identifier: "again"))
        #expect(again.nextFire == Instant(seconds: 2000))
        #expect(again.firedCount == 1)
        let delivered = try store.delivered(recipient: nil)
        #expect(Set(delivered.map(\.request.identifier)) == ["once", "again"])
        #expect(Set(delivered.map(\.deliveryID)) == Set(claimed.map(\.deliveryID)))
        #expect(try store.delivered(recipient: "zed").isEmpty)
        #expect(try store.claimers().isEmpty)
        // Free again at its next fire, to anyone.
        #expect(try F.claim(store, now: 2000, claimer: F.other).map(\.request.identifier) == ["again"])
    }

    @Test("marked and settled in one call, with a mark written earlier in the batch: both delivered, moved on or out, nothing left to settle", arguments: StoreKind.allCases)
    func markAndSettleTogether(kind: StoreKind) throws {
        let store = try kind.make().store
        try store.upsert([F.pending("once", fires: 100), F.pending("again", fires: 200, repeats: true)])
        let claimed = try F.claim(store)
        try store.markSent([F.mark(claimed[0], at: 1000)], claimer: F.me)
        // Marked twice: moved once, as its first mark left it.
        try store.markSentAndSettle([F.mark(claimed[1], at: 1000, next: 2000, queued: [F.mail("a@example.org")]),
                                     F.mark(claimed[1], at: 1000, next: 3000)], claimer: F.me)
        #expect(try store.settle(claimer: F.me) == 0)
        #expect(try store.pending(identifier: "once") == nil)
        #expect(try store.pending(identifier: "again")?.nextFire == Instant(seconds: 2000))
        #expect(try store.pending(identifier: "again")?.firedCount == 1)
        #expect(Set(try store.delivered(recipient: nil).map(\.request.identifier)) == ["once", "again"])
        #expect(try store.deliveries(state: .queued).map(\.address) == ["a@example.org"])
        #expect(try store.claimers().isEmpty)
    }

    @Test("an expired lease lets another claimer take the row, with the same delivery id; the first can no longer move it", arguments: StoreKind.allCases)
    func leases(kind: StoreKind) throws {
        let store = try kind.make().store
        try store.upsert([F.pending("a", fires: 100), F.pending("b", fires: 200), F.pending("c", fires: 900)])
        let first = try F.claim(store, now: 300, leaseNow: 1000)
        #expect(first.map(\.request.identifier) == ["a", "b"])
        #expect(try F.claim(store, now: 300, claimer: F.other, leaseNow: 1000).isEmpty)
        #expect(try F.claim(store, now: 300, claimer: F.other, leaseNow: 1599).isEmpty)
        let expired = try F.claim(store, now: 300, claimer: F.other, leaseNow: 1600)
        #expect(expired.map(\.request.identifier) == ["a", "b"])
        #expect(expired.map(\.deliveryID) == first.map(\.deliveryID))
        // The first claimer, back from the dead, records what it sent but does not move a
        // request it lost.
        try store.markSent([F.mark(first[0], at: 300)], claimer: F.me)
        #expect(try store.settle(claimer: F.me) == 1)
        #expect(try store.pending(identifier: "a") != nil)
        try store.markSent([F.mark(expired[0], at: 300)], claimer: F.other)
        #expect(try store.settle(claimer: F.other) == 1)
        #expect(try store.pending(identifier: "a") == nil)
        #expect(try store.delivered(recipient: nil).map(\.request.identifier) == ["a"])
    }

    @Test("a row marked sent is not claimed again when its lease runs out before it is settled", arguments: StoreKind.allCases)
    func markedNotReclaimed(kind: StoreKind) throws {
        let store = try kind.make().store
        try store.upsert([F.pending("a", fires: 100), F.pending("b", fires: 200)])
        let claimed = try F.claim(store, now: 300, leaseNow: 0)
        try store.markSent([F.mark(claimed[0], at: 300)], claimer: F.me)
        #expect(try F.claim(store, now: 300, claimer: F.other, leaseNow: 700).map(\.request.identifier) == ["b"])
        #expect(try store.claimers().map { "\($0.claimer.host) \($0.leaseEnds?.seconds ?? -1)" } == ["elsewhere 1300", "test 600"])
        // Its claimer dead, the mark is settled by whoever settles for it.
        #expect(try store.settle(claimer: F.me) == 1)
        #expect(try store.claimers().map(\.claimer) == [F.other])
    }

    @Test("a claimer's claims are released together, pending and outbox", arguments: StoreKind.allCases)
    func release(kind: StoreKind) throws {
        let store = try kind.make().store
        try store.upsert([F.pending("a", fires: 100), F.pending("b", fires: 200)])
        let claimed = try F.claim(store, now: 300, leaseNow: 0)
        try store.enqueue([F.mail("a@example.org")], deliveryID: "d1", identifier: "x", recipient: "alice", at: Instant(seconds: 0))
        #expect(try store.claimOutbox(now: Instant(seconds: 300), limit: 10, claimer: F.me, leaseNow: Instant(seconds: 0),
                                      leaseUntil: Instant(seconds: 600)).count == 1)
        #expect(try store.claimers().map(\.claimer) == [F.me])
        #expect(try store.releaseClaims(of: F.me) == 3)
        #expect(try store.releaseClaims(of: F.me) == 0)
        #expect(try store.claimers().isEmpty)
        #expect(try F.claim(store, now: 300, claimer: F.other, leaseNow: 0).map(\.deliveryID) == claimed.map(\.deliveryID))
    }

    @Test("postpone gives a claimed notification back, not claimable before its instant", arguments: StoreKind.allCases)
    func postpone(kind: StoreKind) throws {
        let store = try kind.make().store
        try store.upsert([F.pending("a", fires: 100)])
        let a = try #require(try F.claim(store, now: 200).first)
        try store.postpone(a, until: Instant(seconds: 800), claimer: F.me)
        #expect(try store.claimers().isEmpty)
        #expect(try F.claim(store, now: 799, claimer: F.other).isEmpty)
        #expect(try F.claim(store, now: 800, claimer: F.other).map(\.request.identifier) == ["a"])
    }

    @Test("a request replaced while held (quiet hours, a failed delivery) is not held: the new one fires at its own instant", arguments: StoreKind.allCases)
    func replacedNotHeld(kind: StoreKind) throws {
        let store = try kind.make().store
        try store.upsert([F.pending("a", fires: 100)])
        let a = try #require(try F.claim(store, now: 200).first)
        try store.postpone(a, until: Instant(seconds: 5_000), claimer: F.me)
        var replacement = F.pending("a", fires: 300)
        replacement.generation = "g-a2"
        #expect(try store.upsert([replacement]) == ["a"])
        #expect(try F.claim(store, now: 299).isEmpty)
        #expect(try F.claim(store, now: 300).map(\.generation) == ["g-a2"])
    }

    @Test("the earliest instant something falls due after a given one: a next fire, the end of a hold, a queued retry, a claim's lease end", arguments: StoreKind.allCases)
    func earliestDue(kind: StoreKind) throws {
        let store = try kind.make().store
        #expect(try store.earliestDue(after: Instant(seconds: 0)) == nil)
        try store.upsert([F.pending("a", fires: 100), F.pending("b", fires: 200), F.pending("c", fires: 900)])
        #expect(try store.earliestDue(after: Instant(seconds: 50)) == Instant(seconds: 100))
        #expect(try store.earliestDue(after: Instant(seconds: 100)) == Instant(seconds: 200))
        #expect(try store.earliestDue(after: Instant(seconds: 900)) == nil)
        let claimed = try F.claim(store, now: 250, leaseNow: 250)
        let b = try #require(claimed.first { $0.request.identifier == "b" })
        try store.postpone(b, until: Instant(seconds: 500), claimer: F.me)
        #expect(try store.earliestDue(after: Instant(seconds: 250)) == Instant(seconds: 500))
        // a's claim ends with its lease (850): a dead worker's work is free then.
        #expect(try store.earliestDue(after: Instant(seconds: 600)) == Instant(seconds: 850))
        try store.enqueue([F.mail("a@example.org")], deliveryID: "d1", identifier: "x", recipient: "alice", at: Instant(seconds: 950))
        #expect(try store.earliestDue(after: Instant(seconds: 900)) == Instant(seconds: 950))
    }

    @Test("whether a claim would take something now: a due, awake request free of claims (or its lease over) within its recipient's limit; not one claimed by another, held, or beyond the limit", arguments: StoreKind.allCases)
    func claimableDue(kind: StoreKind) throws {
        let store = try kind.make().store
        let at = { (seconds: Int64, limits: [String: Int]) in try store.hasClaimableDue(now: Instant(seconds: seconds), limits: limits) }
        #expect(try at(1000, [:]) == false)
        try store.upsert([F.pending("a", fires: 100), F.pending("b", fires: 200)])
        #expect(try at(99, [:]) == false)
        #expect(try at(100, [:]) == true)
        // a taken by another process until 1600; b still free.
        #expect(try F.claim(store, now: 100, claimer: F.other, leaseNow: 1000).map(\.request.identifier) == ["a"])
        #expect(try at(150, [:]) == false)
        #expect(try at(200, [:]) == true)
        // b beyond alice's limit of one: a claim would not take it either.
        #expect(try at(200, ["alice": 1]) == false)
        #expect(try F.claim(store, now: 200, leaseNow: 1000, limits: ["alice": 1]).isEmpty)
        // b held by quiet hours until 700.
        let b = try #require(try F.claim(store, now: 200, leaseNow: 1000).first)
        try store.postpone(b, until: Instant(seconds: 700), claimer: F.me)
        #expect(try at(699, [:]) == false)
        // Past the other's lease (1600), a is free again.
        #expect(try at(1599, ["alice": 5]) == true, "b's hold is over")
        let again = try #require(try F.claim(store, now: 1599, leaseNow: 1599).first)
        #expect(again.request.identifier == "b")
        try store.postpone(again, until: Instant(seconds: 5000), claimer: F.me)
        #expect(try at(1599, [:]) == false)
        #expect(try at(1600, [:]) == true)
    }

    @Test("cancel and remove-delivered say which were there", arguments: StoreKind.allCases)
    func removal(kind: StoreKind) throws {
        let store = try kind.make().store
        try store.upsert([F.pending("a", fires: 100), F.pending("b", fires: 200), F.pending("c", fires: 300)])
        #expect(try store.cancel(["a", "nope"]) == ["a"])
        let claimed = try F.claim(store)
        try store.markSent(claimed.map { F.mark($0, at: 1000) }, claimer: F.me)
        try store.settle(claimer: F.me)
        #expect(try store.removeDelivered(["b", "nope"]) == ["b"])
        #expect(try store.removeAllDelivered() == 1)
        try store.upsert([F.pending("d", fires: 100), F.pending("e", fires: 100)])
        #expect(try store.cancelAll() == 2)
        #expect(try store.pending(recipient: nil, limits: [:]).isEmpty)
    }

    @Test("four claimers on their own connections never take the same row of 4,000", arguments: StoreKind.allCases)
    func noDoubleClaims(kind: StoreKind) throws {
        let made = try kind.make()
        let count = 4000
        try made.store.upsert((0..<count).map { F.pending(String(format: "n%05d", $0), fires: 100 + Int64($0 % 97),
                                                            recipient: "r\($0 % 13)") })
        let stores = try (0..<4).map { _ in try made.another() }
        let results = concurrently(4) { index in
            let claimer = Claimer(host: "worker\(index)", processID: Int32(index), processStart: "0")
            var taken: [String] = []
            while true {
                let claimed = try Fixture.claim(stores[index], limit: 50, claimer: claimer)
                if claimed.isEmpty { return taken }
                taken += claimed.map(\.request.identifier)
            }
        }
        let taken = try results.flatMap { try $0.get() }
        #expect(taken.count == count)
        #expect(Set(taken).count == count)
    }
}
