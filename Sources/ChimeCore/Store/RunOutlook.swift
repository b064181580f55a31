/// What `chime run` asks the store before it reads the configuration, in one statement:
/// most cron ticks find nothing to do, and for them reading and checking `chime.xml` was
/// the larger part of the run.
public struct RunOutlook: Hashable, Sendable {
    /// Whether a run now could have anything to do: a notification due and awake, a
    /// claim of any process (to settle or take back), a delivery marked sent and not
    /// settled, a delivery over the network due or claimed, a thread waiting for its group
    /// or a thread's message not finished. False only when a run would fire, send, settle
    /// and take back nothing.
    public var hasWork: Bool
    /// The fingerprint of the configuration whose recipients' zones the floating requests
    /// last followed (``CoordinationStore/keepFollowedConfiguration(_:zones:)``), or nil.
    public var followedConfiguration: String?

    public init(hasWork: Bool, followedConfiguration: String?) {
        self.hasWork = hasWork
        self.followedConfiguration = followedConfiguration
    }

    /// The `setting` row that keeps ``followedConfiguration``.
    public static let settingName = "followed_configuration"

    /// Whether the zones the store holds for recipients (`stored`) are those a
    /// configuration gives them (`configured`), for every recipient both name: when they
    /// are, the floating requests follow that configuration and its fingerprint may be kept.
    public static func zones(_ stored: [String: String], follow configured: [String: String]) -> Bool {
        stored.allSatisfy { recipient, zone in configured[recipient].map { $0 == zone } ?? true }
    }
}
