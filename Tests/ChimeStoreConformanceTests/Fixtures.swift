import ChimeCore
import Foundation

/// What the conformance tests build their rows from.
enum Fixture {
    static let me = Claimer(host: "test", processID: 1, processStart: "1")
    static let other = Claimer(host: "elsewhere", processID: 2, processStart: "2")

    /// A request of `recipient`, due at `seconds`.
    static func pending(_ id: String, fires seconds: Int64, recipient: String = "alice", title: String? = nil,
                        thread: String = "", repeats: Bool = false) -> PendingNotification {
        PendingNotification(
            request: NotificationRequest(identifier: id, recipient: recipient,
                                         content: NotificationContent(title: title ?? id, categoryIdentifier: "reminder", threadIdentifier: thread),
                                         trigger: .timeInterval(seconds: 60, repeats: repeats)),
            added: Instant(seconds: seconds - 60), nextFire: Instant(seconds: seconds), anchor: Instant(seconds: seconds - 60),
            zone: "UTC", generation: "g-\(id)")
    }

    /// The mark of a claimed notification delivered at `at`: out of pending unless `next`.
    static func mark(_ notification: PendingNotification, at seconds: Int64, next: Int64? = nil, queued: [QueuedDelivery] = [],
                     route: SentMark.Route = .sent) -> SentMark {
        let delivered = DeliveredNotification(request: notification.request, fireDate: notification.nextFire,
                                              deliveredAt: Instant(seconds: seconds), deliveryID: notification.deliveryID, coalesced: 0)
        return SentMark(notification: notification, delivered: delivered, next: next.map(Instant.init(seconds:)),
                        anchor: Instant(seconds: seconds), queued: queued, route: route)
    }

    static func mail(_ address: String, _ body: String = "Subject: hi\r\n\r\nhello") -> QueuedDelivery {
        QueuedDelivery(channel: "mail", address: address, body: Array(body.utf8))
    }

    static func response(_ deliveryID: String, action: String = "done", status: String = StoredResponse.carriedOut,
                         at seconds: Int64 = 500, text: String? = nil) -> StoredResponse {
        StoredResponse(deliveryID: deliveryID, identifier: "a", recipient: "alice", action: action, userText: text, channel: "mail",
                       responder: "alice@example.org", at: Instant(seconds: seconds), status: status)
    }

    static func inbound(_ messageID: String, outcome: InboundRecord.Outcome = .responded, delivery: String? = nil) -> InboundRecord {
        InboundRecord(at: Instant(seconds: 500), messageID: messageID, sender: "alice@example.org", outcome: outcome,
                      detail: "", deliveryID: delivery)
    }

    /// Claims everything due at `now` for `claimer` with a lease of 600 s from `leaseNow`.
    static func claim(_ store: any PendingStore, now: Int64 = 1000, limit: Int = 100, claimer: Claimer = me, leaseNow: Int64 = 1000,
                      limits: [String: Int] = [:]) throws -> [PendingNotification] {
        try store.claimDue(now: Instant(seconds: now), limit: limit, claimer: claimer, leaseNow: Instant(seconds: leaseNow),
                           leaseUntil: Instant(seconds: leaseNow + 600), limits: limits)
    }
}

/// Runs `body` on `count` threads started together (each given its index) and returns
/// what each gave, in index order: how the tests play several processes calling at once.
func concurrently<T: Sendable>(_ count: Int, _ body: @escaping @Sendable (Int) throws -> T) -> [Result<T, any Error>] {
    let results = ResultBox<T>(count)
    let start = DispatchSemaphore(value: 0)
    let done = DispatchGroup()
    for index in 0..<count {
        done.enter()
        Thread {
            start.wait()
            results.set(index, Result { try body(index) })
            done.leave()
        }.start()
    }
    for _ in 0..<count { start.signal() }
    done.wait()
    return results.values
}

private final class ResultBox<T: Sendable>: @unchecked Sendable { // guarded by lock
    private let lock = NSLock()
    private var slots: [Result<T, any Error>?]

    init(_ count: Int) { slots = Array(repeating: nil, count: count) }

    func set(_ index: Int, _ result: Result<T, any Error>) { lock.withLock { slots[index] = result } }

    var values: [Result<T, any Error>] { lock.withLock { slots.map { $0! } } }
}
