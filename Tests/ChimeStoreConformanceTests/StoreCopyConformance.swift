import ChimeCore
import Foundation
import Testing

/// ``StoreCopying``: a deployment copied whole from any store into any other, every row of
/// every table as it was; a target that is not empty refused and left as it was.
@Suite("Store conformance: copying a deployment")
struct StoreCopyConformance {
    typealias F = Fixture

    /// Every table of a deployment with rows in it: pending (claimed, floating, held),
    /// an unsettled mark, delivered, outbox with bodies and attempts, responses, inbound,
    /// chat threads, the signing key and a turn, preferences, settings, undeliverable
    /// marks, an opt-in, parked notifications and batches, an idempotent answer.
    static func populate(_ store: any NotificationStore) throws {
        var floating = F.pending("floating", fires: 90_000)
        floating.request.trigger = .calendar(DateComponentsPattern(hour: 9, minute: 0), timeZone: nil, repeats: true)
        floating.zone = "Europe/Paris"
        try store.upsert([F.pending("a", fires: 100, repeats: true), F.pending("b", fires: 200), F.pending("c", fires: 300, thread: "t"),
                          F.pending("d", fires: 400), F.pending("held", fires: 500), F.pending("e", fires: 600), floating,
                          F.pending("later", fires: 80_000, title: "Ünïcode ✓ \u{1F514}")])
        let claimed = try F.claim(store, now: 700)
        func one(_ id: String) -> PendingNotification { claimed.first { $0.request.identifier == id }! }
        try store.markSent([F.mark(one("a"), at: 700, next: 4000, queued: [F.mail("alice@example.org", "body of a"), F.mail("al@example.org")]),
                            F.mark(one("b"), at: 700, route: .digest), F.mark(one("c"), at: 700, route: .grouped)], claimer: F.me)
        try store.settle(claimer: F.me)
        try store.postpone(one("held"), until: Instant(seconds: 9000), claimer: F.me)
        // A mark left unsettled by a claimer that died, and a claim it still holds.
        try store.markSent([F.mark(one("d"), at: 710)], claimer: F.me)
        let outbox = try store.claimOutbox(now: Instant(seconds: 800), limit: 10, claimer: F.other, leaseNow: Instant(seconds: 800),
                                           leaseUntil: Instant(seconds: 1400))
        try store.record([
            AttemptRecord(id: outbox[0].id, attempt: DeliveryAttempt(at: Instant(seconds: 800), outcome: .delivered, code: 250, message: "ok"),
                          state: .delivered, nextAttempt: nil, countsAsAttempt: true, keepClaim: false),
            AttemptRecord(id: outbox[1].id, attempt: DeliveryAttempt(at: Instant(seconds: 800), outcome: .temporary, code: 451, message: "later"),
                          state: .queued, nextAttempt: Instant(seconds: 1100), countsAsAttempt: true, keepClaim: false),
        ], claimer: F.other)
        let deliveryA = one("a").deliveryID
        let id = try #require(try store.record(F.response(deliveryA, text: "done it"), from: F.inbound("<r1@x>", delivery: deliveryA)))
        try store.finish(response: id, status: StoredResponse.failed, result: "hook exited 3")
        try store.markAnswered([AnsweredMessage(deliveryID: deliveryA, messageID: "<r1@x>")])
        _ = try store.record(F.response(deliveryA, action: "trash", status: StoredResponse.awaitingConfirmation), from: nil)
        try store.record(F.inbound("<r2@x>", outcome: .forgedToken))
        try store.rememberThread(channel: "team", thread: "171.2", token: "TOKEN", at: Instant(seconds: 720))
        _ = try store.secretKey(keeping: Array(0..<32))
        _ = try store.takeTurn("digest", at: Instant(seconds: 730), every: 3600)
        try store.setPreference(recipient: "alice", category: "reminder", .quietly, at: Instant(seconds: 740))
        try store.saveSettings(recipient: "bob", RecipientSettings(locale: "fr", showPreviews: .never, quietHours: "22:00-07:00"),
                               preferences: ["news": .off], at: Instant(seconds: 750))
        try store.markUndeliverable(["gone@example.org"], reason: "550 no such user", at: Instant(seconds: 760))
        _ = try store.recordOptIn(F.pending("optin-carol", fires: 100, recipient: "carol").request, deliveryID: "optin.carol",
                                  queued: [F.mail("carol@example.org")], at: Instant(seconds: 770))
        let batch = try #require(try store.claimBatch(id: "digest-alice", recipient: "alice", thread: nil, slot: Instant(seconds: 3600),
                                                      claimer: F.me, at: Instant(seconds: 780)))
        try store.finishBatch(batch, queued: [F.mail("alice@example.org", "digest")], at: Instant(seconds: 790))
        _ = try store.keepIdempotentAnswer(IdempotentAnswer(requestDigest: "abc", status: 201, body: Array("{\"ok\":true}".utf8)),
                                           owner: "backend", key: "k1", at: Instant(seconds: 795))
    }

    /// Every row of every table, each as column → value, by table.
    static func dump(_ store: some StoreCopying) throws -> [String: Set<[String: StoreValue]>] {
        var tables: [String: Set<[String: StoreValue]>] = [:]
        for table in try store.copyTables() {
            var rows: Set<[String: StoreValue]> = []
            var after: [StoreValue]?
            repeat {
                let page = try store.readRows(table, after: after, limit: 3)
                for row in page.rows { rows.insert(Dictionary(uniqueKeysWithValues: zip(page.columns, row))) }
                guard let last = page.rows.last, page.rows.count == 3 else { break }
                after = table.key.map { last[page.columns.firstIndex(of: $0)!] }
            } while true
            tables[table.name] = rows
        }
        return tables
    }

    @Test("every table lists its key and columns, in an order where each comes after what it references", arguments: StoreKind.allCases)
    func tables(kind: StoreKind) throws {
        let tables = try kind.make().store.copyTables()
        let names = tables.map(\.name)
        #expect(Set(names).isSuperset(of: ["pending", "sent", "delivered", "recipient_zone", "outbox", "outbox_body", "attempt", "setting",
                                            "response", "inbound", "chat_thread", "undeliverable", "preference", "recipient_setting",
                                            "parked", "batch", "opt_in", "idempotency"]))
        #expect(names.firstIndex(of: "outbox")! < names.firstIndex(of: "outbox_body")!)
        #expect(names.firstIndex(of: "outbox")! < names.firstIndex(of: "attempt")!)
        #expect(tables.first { $0.name == "preference" }?.key == ["recipient", "category"])
        #expect(tables.allSatisfy { !$0.key.isEmpty && Set($0.key).isSubset(of: $0.columns) })
    }

    @Test("a deployment copied into an empty store holds every row of every table, the signing key and the store's behaviour with them",
          arguments: StoreKind.allCases, StoreKind.allCases)
    func copy(from: StoreKind, to: StoreKind) throws {
        let source = try from.make()
        try Self.populate(source.store)
        let target = try to.make()
        #expect(try target.store.isEmpty())
        #expect(try source.store.isEmpty() == false)
        let summary = try StoreCopy.copy(from: source.store, to: target.store, batchSize: 2)
        let dumped = try Self.dump(source.store)
        #expect(summary.rows == dumped.values.reduce(0) { $0 + $1.count })
        let copied = try Self.dump(target.store)
        for (table, rows) in dumped {
            #expect(copied[table] == rows, "table \(table)")
        }
        // What the copy holds behaves as the original did.
        #expect(try target.store.secretKey(keeping: [9, 9, 9]) == Array(0..<32))
        #expect(try target.store.pending(recipient: nil, limits: [:]).map(\.request.identifier)
                == source.store.pending(recipient: nil, limits: [:]).map(\.request.identifier))
        #expect(try target.store.pending(identifier: "later")?.request.content.title == "Ünïcode ✓ \u{1F514}")
        #expect(try target.store.recipientZones() == ["alice": "Europe/Paris"])
        #expect(try target.store.delivered(recipient: nil).map(\.deliveryID) == source.store.delivered(recipient: nil).map(\.deliveryID))
        #expect(try target.store.deliveries(state: nil) == source.store.deliveries(state: nil))
        #expect(try target.store.responses() == source.store.responses())
        #expect(try target.store.inbound() == source.store.inbound())
        #expect(try target.store.answered(AnsweredMessage(deliveryID: try #require(source.store.inbound().first?.deliveryID), messageID: "<r1@x>")))
        #expect(try target.store.takeTurn("digest", at: Instant(seconds: 800), every: 3600) == false)
        #expect(try target.store.idempotentAnswer(owner: "backend", key: "k1")?.requestDigest == "abc")
        // New rows take ids after the copied ones.
        let id = try #require(try target.store.record(F.response("new-delivery"), from: F.inbound("<new@x>")))
        #expect(try source.store.responses().allSatisfy { $0.id < id })
        try target.store.enqueue([F.mail("new@example.org")], deliveryID: "new", identifier: "n", recipient: "alice", at: Instant(seconds: 900))
        #expect(try Set(target.store.deliveries(state: nil).map(\.id)).count == source.store.deliveries(state: nil).count + 1)
        // The unsettled mark of the dead claimer is settled in the copy.
        #expect(try target.store.settle(claimer: F.me) == 1)
    }

    @Test("a target that is not empty is refused and left as it was", arguments: StoreKind.allCases, StoreKind.allCases)
    func refusesNonEmpty(from: StoreKind, to: StoreKind) throws {
        let source = try from.make()
        try Self.populate(source.store)
        let target = try to.make()
        try target.store.upsert([F.pending("mine", fires: 100)])
        let before = try Self.dump(target.store)
        #expect(throws: StoreCopyError.targetNotEmpty) { try StoreCopy.copy(from: source.store, to: target.store) }
        #expect(try Self.dump(target.store) == before)
        // A store that only handed out its key is not empty either.
        let keyed = try to.make()
        _ = try keyed.store.secretKey(keeping: [1, 2, 3])
        #expect(try keyed.store.isEmpty() == false)
        #expect(throws: StoreCopyError.targetNotEmpty) { try StoreCopy.copy(from: source.store, to: keyed.store) }
    }

    @Test("a copy that fails half-way leaves the target empty", arguments: StoreKind.allCases)
    func rollsBack(kind: StoreKind) throws {
        let source = try kind.make()
        try Self.populate(source.store)
        let target = try kind.make()
        struct Stop: Error {}
        let table = try #require(try target.store.copyTables().first { $0.name == "pending" })
        #expect(throws: Stop.self) {
            try target.store.writeCopy { writer in
                let page = try source.store.readRows(table, after: nil, limit: 100)
                try writer.write(table, columns: page.columns, rows: page.rows)
                throw Stop()
            }
        }
        #expect(try target.store.isEmpty())
    }
}
