/// Notifications kept for a digest or a thread group, and the batches that send them once.
public protocol BatchStore: Sendable {
    /// Notifications kept for a recipient's digest and not yet in one.
    func parked(recipient: String) throws -> [ParkedNotification]

    /// Starts the recipient's digest for `slot` (`thread` nil), or the message grouping a
    /// thread: records the batch `id` and takes every notification parked for it and not
    /// in a batch yet, in one transaction — for a digest, those that fired at or before
    /// `slot`: one kept after the day's digest time waits for the next day's, even when
    /// that time went by with no digest sent (a new store, cron not running then), rather
    /// than going out at once, in quiet hours as like as not. Nil when this slot already
    /// has its batch (sent, or being sent by another run).
    func claimBatch(id: String, recipient: String, thread: String?, slot: Instant, claimer: Claimer, at: Instant) throws -> MessageBatch?

    /// Whether the recipient's digest for `slot` was started (sent, or being sent): what
    /// `chime digest --dry-run` asks before listing one as due.
    func hasDigest(recipient: String, slot: Instant) throws -> Bool

    /// Threads with notifications waiting to go out together, the earliest first.
    func waitingGroups() throws -> [WaitingGroup]

    /// Digests (`digests`), or else thread groups, started and not finished (a run that
    /// died, or one still going), without their items: ``takeOver(_:claimer:)`` reads
    /// those for the run that takes one.
    func unfinishedBatches(digests: Bool) throws -> [MessageBatch]

    /// Takes over an unfinished batch from its claimer (one that died) and returns it
    /// with its items; nil when another run took it first.
    func takeOver(_ batch: MessageBatch, claimer: Claimer) throws -> MessageBatch?

    /// Marks a batch sent and queues its network deliveries, in one transaction.
    func finishBatch(_ batch: MessageBatch, queued: [QueuedDelivery], at: Instant) throws
}
