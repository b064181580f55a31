/// How replies are taken and answered (`<replies>` in the XML).
public struct ReplySettings: Hashable, Sendable {
    /// The authserv-ids (RFC 8601) of the receiving servers whose `Authentication-Results`
    /// are believed: a DMARC or DKIM pass for the sender's domain from one of them proves
    /// the sender well enough for `authenticationRequired` actions.
    public var trustedAuthServIDs: [String] = []
    /// How long `snooze` waits when the reply names no duration.
    public var snooze: Int64 = 600
    /// At most one "I did not understand" answer per recipient in this many seconds.
    public var unmatchedEvery: Int64 = 3_600
    /// The base of signed links (`/a/`, `/v/`, `/u/`, `/p/`): where `chime serve` is reached.
    public var linkBase = "https://chime.invalid"
    /// Whether people get an answer in the thread ("List deleted"); false stays silent.
    public var answers = true
    /// Inbound messages larger than this many bytes are recorded as `too-large` and
    /// acted on by nothing (the MTA is told they were taken).
    public var maxMessageSize = 10 << 20

    public init() {}
}
