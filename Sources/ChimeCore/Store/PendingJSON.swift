import Foundation

/// The JSON of one pending request: the request's own fields, then the schedule.
public struct PendingJSON: Encodable, Sendable {
    public var identifier: String
    public var recipient: String
    public var content: NotificationContent
    public var trigger: NotificationTrigger
    /// The next fire instant, in the trigger's zone's offset.
    public var nextTriggerDate: String
    public var added: Instant
    /// Beyond the recipient's pending limit: kept, not fired while so.
    public var setAside: Bool

    /// As `chime pending --json` prints `pending`.
    public init(_ pending: PendingNotification) {
        identifier = pending.request.identifier
        recipient = pending.request.recipient
        content = pending.request.content
        trigger = pending.request.trigger
        nextTriggerDate = localInstant(pending.nextFire, zone: pending.zone)
        added = pending.added
        setAside = pending.isSetAside
    }
}

/// `2026-11-24T09:00:00+01:00`: an instant in the offset of the zone it was computed in.
public func localInstant(_ instant: Instant, zone name: String) -> String {
    instant.rfc3339(in: TimeZone(identifier: name) ?? TimeZone(identifier: "UTC")!)
}

