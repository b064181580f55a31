import ArgumentParser
import ChimeConfig
import ChimeCore
import Foundation

/// Loads the configuration for a command; on failure prints every diagnostic as
/// `path:line:col: error: message` on standard error and exits 66 (cannot open) or
/// 65 (invalid).
/// - Parameter command: the command loading it, whose exit code for an unusable
///   configuration applies (`chime ingest`'s is 75, so that an MTA keeps the reply).
func loadConfiguration(_ options: GlobalOptions, for command: any GlobalCommand.Type = Chime.self) throws -> Configuration {
    do {
        return try ConfigurationLoader().load(path: options.configPath)
    } catch let error as ConfigurationError {
        printDiagnostics(error.diagnostics)
        if error.kind == .unreadable, !FileManager.default.fileExists(atPath: options.configPath) {
            printError("chime: note: \(options.configSource) names \(options.configPath), which does not exist (the working directory is "
                       + "\(FileManager.default.currentDirectoryPath)); name the configuration with --config PATH or $CHIME_CONFIG")
        }
        throw ExitCode(command.setupFailureCode(error.kind))
    }
}
