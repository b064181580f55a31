/// The email addresses hard bounces marked undeliverable (``Mailbox/key(of:)``), read from
/// the store when first asked about and kept for the rest of a pass: a pass that meets no
/// email address (a cron tick with nothing due, a run into `file:`) asks the store nothing.
/// One pass's own: not shared between threads.
public final class BounceMarks {
    private let read: () throws -> Set<String>
    private var marks: Set<String>?

    /// - Parameter read: the store's marks (``PolicyStore/undeliverable()``).
    public init(read: @escaping () throws -> Set<String>) {
        self.read = read
    }

    /// Whether `address`, on `channel`, is an email address a hard bounce marked: nothing
    /// is sent to it, whatever would go (a reminder, a digest, an opt-in request, a retry).
    public func contains(_ address: String, on channel: Channel) throws -> Bool {
        guard channel.url.kind.isEmail else { return false }
        let marks = try self.marks ?? read()
        self.marks = marks
        return !marks.isEmpty && marks.contains(Mailbox.key(of: address))
    }
}
