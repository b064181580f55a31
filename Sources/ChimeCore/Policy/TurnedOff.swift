/// The categories each recipient has turned off, read from the store once a pass (a
/// digest round, a round of thread groups) when a batch first needs them, as
/// ``BounceMarks`` reads the hard-bounce marks: every recipient's digest read every
/// recipient's choices again.
public final class TurnedOff {
    private let read: () throws -> [String: [String: DeliveryPreference]]
    private var chosen: [String: [String: DeliveryPreference]]?

    /// - Parameter read: the store's choices (``PolicyStore/preferences()``).
    public init(read: @escaping () throws -> [String: [String: DeliveryPreference]]) {
        self.read = read
    }

    /// Kept notifications less those of a category their recipient turned off since they
    /// were kept (a one-click unsubscribe, "off", the preferences page): the next digest
    /// showed them, and the unsubscribe looked ignored. Turned off at fire time, one is
    /// never kept.
    public func wanted(_ items: [ParkedNotification], by recipient: String) throws -> [ParkedNotification] {
        let chosen = try self.chosen ?? read()
        self.chosen = chosen
        guard let theirs = chosen[recipient], theirs.values.contains(.off) else { return items }
        return items.filter { theirs[$0.request.content.categoryIdentifier] != .off }
    }
}
