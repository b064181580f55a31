import ArgumentParser
import ChimeConfig
import ChimeCore
import Foundation

/// Loads the configuration for a command; on failure prints every diagnostic as
/// `path:line:col: error: message` on standard error and exits 66 (cannot open) or
/// 65 (invalid).
func loadConfiguration(_ options: GlobalOptions) throws -> Configuration {
    do {
        return try ConfigurationLoader().load(path: options.configPath)
    } catch let error as ConfigurationError {
        printDiagnostics(error.diagnostics)
        throw ExitCode(error.kind == .unreadable ? 66 : 65)
    }
}
