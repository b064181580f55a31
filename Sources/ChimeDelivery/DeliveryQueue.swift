import ChimeCore

/// One channel's deliveries waiting to be sent, in the order they were claimed. Kept in
/// order per address, a queue hands out an address's next delivery only once the one
/// before it is done, so one recipient's messages arrive in the order they were queued;
/// otherwise every delivery is ready at once.
struct DeliveryQueue {
    /// Deliveries by key (the address, or the delivery's own id), oldest first.
    private var queues: [String: [OutboxDelivery]] = [:]
    /// Keys whose first delivery may go, in the order they became ready.
    private var ready: [String] = []
    private var readyHead = 0
    private let inOrderPerAddress: Bool
    /// Deliveries not handed out yet.
    private(set) var remaining = 0

    init(inOrderPerAddress: Bool) {
        self.inOrderPerAddress = inOrderPerAddress
    }

    var hasReady: Bool { readyHead < ready.count }

    private func key(_ entry: OutboxDelivery) -> String {
        inOrderPerAddress ? entry.address : String(entry.id)
    }

    /// Adds a delivery after the others.
    mutating func append(_ entry: OutboxDelivery) {
        let key = key(entry)
        // A key is in `ready` exactly when it has deliveries and none handed out.
        if queues[key] == nil && !busy.contains(key) { ready.append(key) }
        queues[key, default: []].append(entry)
        remaining += 1
    }

    /// Keys with a delivery handed out and not done.
    private var busy: Set<String> = []

    /// The next delivery that may go; its key waits until ``done(_:again:)``.
    mutating func next() -> OutboxDelivery? {
        guard hasReady else { return nil }
        let key = ready[readyHead]
        readyHead += 1
        if readyHead > 1_024 && readyHead * 2 > ready.count {
            ready.removeFirst(readyHead)
            readyHead = 0
        }
        let entry = queues[key]!.removeFirst()
        if queues[key]!.isEmpty { queues[key] = nil }
        if inOrderPerAddress { busy.insert(key) }
        remaining -= 1
        return entry
    }

    /// A delivery handed out is done; `again`: it goes back in line, first of its
    /// address, to be tried again within this run.
    mutating func done(_ entry: OutboxDelivery, again: Bool) {
        let key = key(entry)
        if inOrderPerAddress { busy.remove(key) }
        if again {
            queues[key, default: []].insert(entry, at: 0)
            remaining += 1
        }
        // Not in `ready` while it was handed out: it goes there now if it has more.
        if queues[key] != nil { ready.append(key) }
    }
}
