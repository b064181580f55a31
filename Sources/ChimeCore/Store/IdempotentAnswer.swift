/// What an HTTP API call with an `Idempotency-Key` was answered, kept to be replayed to
/// the same call: the digest of the body it came with, the status and the body answered.
public struct IdempotentAnswer: Hashable, Sendable {
    /// SHA-256 of the request body, hex: the same key with another body is refused.
    public var requestDigest: String
    public var status: Int
    public var body: [UInt8]

    /// How long an answer is kept, in seconds: a day, as payment APIs keep theirs. A retry
    /// comes within minutes; kept for ever, every key a backend ever sent stayed in the
    /// store with its answer. Holds are not forgotten so: a call's is taken over once
    /// abandoned, and the store's other holds (a mailbox being fetched) live in the same
    /// table.
    public static let keptFor: Int64 = 86_400

    /// Status 0: the hold of a call still being answered (``CoordinationStore/takeIdempotencyKey(owner:key:digest:at:abandonedAfter:)``).
    public var isPending: Bool { status == 0 }

    /// The hold of a call with a body of `digest`, kept until its answer replaces it.
    public static func pending(digest: String) -> IdempotentAnswer {
        IdempotentAnswer(requestDigest: digest, status: 0, body: [])
    }

    public init(requestDigest: String, status: Int, body: [UInt8]) {
        self.requestDigest = requestDigest
        self.status = status
        self.body = body
    }
}
