/// What carrying out an action runs besides recording it (`<hook>` in the XML): a
/// command given the response as JSON on its standard input, or a POST of that JSON to a
/// webhook channel, signed and retried like any delivery.
public struct ActionHook: Hashable, Sendable {
    public enum Kind: Hashable, Sendable {
        /// Run by `/bin/sh -c`, in the state folder (``ActionDesk``'s `stateDirectory`:
        /// `--state-dir`, else the store's folder), which the service may write.
        case command(String)
        /// The id of a `json://` or `jsons://` channel.
        case channel(String)
    }

    public var kind: Kind

    /// Whether it runs a command (which the store must not be held for).
    public var runsCommand: Bool {
        if case .command = kind { true } else { false }
    }
    /// Seconds a command may run before it is stopped (and recorded as timed out).
    public var timeout: Double
    /// The environment variables a command is given besides PATH, HOME and LANG
    /// (`<hook env="NAME …">`): a hook never sees the rest of Chime's environment.
    public var environment: [String]

    public init(_ kind: Kind, timeout: Double = 10, environment: [String] = []) {
        self.kind = kind
        self.timeout = timeout
        self.environment = environment
    }
}
