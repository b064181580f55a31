import ChimeConfig
import ChimeCore
import Foundation

extension Runtime {
    /// Loads the configuration; on failure prints every diagnostic as
    /// `path:line:col: error: message` on standard error and fails with 66 (cannot open)
    /// or 65 (invalid), or what `failureCode` says for the command loading it
    /// (`chime ingest`'s is 75, so that an MTA keeps the reply).
    public func loadConfiguration(failureCode: (ConfigurationError.Kind) -> Int32 = { $0 == .unreadable ? 66 : 65 }) throws -> Configuration {
        do {
            return try ConfigurationLoader().load(path: configPath)
        } catch let error as ConfigurationError {
            printDiagnostics(error.diagnostics)
            if error.kind == .unreadable, !FileManager.default.fileExists(atPath: configPath) {
                printError("chime: note: \(configSource) names \(configPath), which does not exist (the working directory is "
                           + "\(FileManager.default.currentDirectoryPath)); name the configuration with --config PATH or $CHIME_CONFIG")
            }
            throw RuntimeFailure(failureCode(error.kind))
        }
    }
}
