import ChimeCore
import Foundation

/// Chime assembled: where its parts are (what the global options and the environment
/// name), and from there the configuration, the store, the scheduler, the reply and action
/// desks, the mail intake and `chime serve`'s services (each in its own extension). The
/// command line, the benchmark and the tests build Chime only through this, so that a
/// command's `run()` parses its arguments and delegates.
public struct Runtime: Sendable {
    /// The XML configuration's path.
    public var configPath: String
    /// Where ``configPath`` came from, for a message about it (`--config`, `$CHIME_CONFIG`…).
    public var configSource: String
    /// The store's URL: `sqlite:PATH`, a bare path, or `postgres://…`.
    public var storeURL: String
    /// The localized templates and strings.
    public var templatesPath: String
    /// The state folder, where action hooks run.
    public var statePath: String
    /// The instant to pretend it is (`--now`), or nil for the clock.
    public var now: Instant?
    /// The environment file (`--env-file`, `$CHIME_ENV_FILE`), read again with the
    /// configuration when `chime serve` reloads.
    public var environmentFile: String?

    public init(configPath: String, configSource: String = "--config", storeURL: String, templatesPath: String, statePath: String,
                now: Instant? = nil, environmentFile: String? = nil) {
        self.configPath = configPath
        self.configSource = configSource
        self.storeURL = storeURL
        self.templatesPath = templatesPath
        self.statePath = statePath
        self.now = now
        self.environmentFile = environmentFile
    }

    /// ``now``, or the clock's instant.
    public var instant: Instant { now ?? Instant(Date()) }
}

/// A failure already said on standard error (with its file, line and column where there
/// is one), and the exit code it ends the process with (sysexits, CONTRACT's table).
public struct RuntimeFailure: Error, Sendable {
    public let exitCode: Int32

    public init(_ exitCode: Int32) {
        self.exitCode = exitCode
    }
}
