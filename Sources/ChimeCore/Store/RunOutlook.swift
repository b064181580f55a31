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
}
