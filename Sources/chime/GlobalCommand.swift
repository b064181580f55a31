import ArgumentParser
import ChimeRuntime
import ChimeConfig
import Foundation
import Logging

/// A command that takes the global options. Before it runs, `Chime.main` reads the
/// environment file they name (`--env-file`, `$CHIME_ENV_FILE`), so every command sees
/// the same secrets however it was started (a unit, cron, the MTA pipe, a container).
protocol GlobalCommand {
    var options: GlobalOptions { get }
    /// The exit code when what every command needs (the environment file, the
    /// configuration) cannot be used: 66 or 65 by default; an MTA pipe's 75.
    static func setupFailureCode(_ kind: ConfigurationError.Kind) -> Int32
    /// What is logged without `--log-level`: warnings for the commands cron and people
    /// run, whose output says the rest; `chime serve`, a service, says more.
    static var defaultLogLevel: Logger.Level { get }
}

extension GlobalCommand {
    static func setupFailureCode(_ kind: ConfigurationError.Kind) -> Int32 { kind == .unreadable ? 66 : 65 }
    static var defaultLogLevel: Logger.Level { .warning }
}

extension Logger.Level: @retroactive ExpressibleByArgument {}

extension Chime: GlobalCommand {}
extension Chime.Check: GlobalCommand {}
extension Chime.Categories: GlobalCommand {}
extension Chime.Schedule: GlobalCommand {}
extension Chime.Pending: GlobalCommand {}
extension Chime.Cancel: GlobalCommand { var options: GlobalOptions { removal.options } }
extension Chime.Delivered: GlobalCommand {}
extension Chime.RemoveDelivered: GlobalCommand { var options: GlobalOptions { removal.options } }
extension Chime.Next: GlobalCommand {}
extension Chime.Run: GlobalCommand {}
extension Chime.Digest: GlobalCommand {}
extension Chime.Preview: GlobalCommand {}
extension Chime.Deliveries: GlobalCommand {}
extension Chime.Failed: GlobalCommand {}
extension Chime.Retry: GlobalCommand {}
extension Chime.Fetch: GlobalCommand {}
extension Chime.Respond: GlobalCommand {}
extension Chime.Responses: GlobalCommand {}
extension Chime.Replies: GlobalCommand {}
extension Chime.Recipients: GlobalCommand {}
extension Chime.Serve: GlobalCommand {
    static var defaultLogLevel: Logger.Level { .info }
}

extension Chime.Ingest: GlobalCommand {
    /// A reply must not bounce for the operator's mistake: 75 makes the MTA keep it and
    /// try again once the configuration or environment file is mended.
    static func setupFailureCode(_ kind: ConfigurationError.Kind) -> Int32 { 75 }
}

extension GlobalOptions {
    /// Reads the environment file, when one is named, into this process's environment.
    /// - Throws: ``ConfigurationError`` when it is missing, unreadable or malformed.
    func applyEnvironmentFile() throws {
        guard let path = environmentFilePath else { return }
        try EnvironmentFile(path: path).apply()
    }

    /// The environment file named (`--env-file`, else `$CHIME_ENV_FILE`), if any.
    var environmentFilePath: String? {
        guard let path = envFile ?? ProcessInfo.processInfo.environment["CHIME_ENV_FILE"], !path.isEmpty else { return nil }
        return path
    }
}
