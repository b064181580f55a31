import ChimeConfig
import ChimeCore
import Foundation

extension Runtime {
    /// Loads the configuration; on failure prints every diagnostic as
    /// `path:line:col: error: message` on standard error and fails with 66 (cannot open)
    /// or 65 (invalid), or what `failureCode` says for the command loading it
    /// (`chime ingest`'s is 75, so that an MTA keeps the reply).
    public func loadConfiguration(failureCode: (ConfigurationError.Kind) -> Int32 = Self.configurationFailureCode) throws -> Configuration {
        try loadConfiguration(bytes: readConfiguration(failureCode: failureCode), failureCode: failureCode)
    }

    /// The configuration file's bytes; fails as ``loadConfiguration(failureCode:)`` does
    /// when it cannot be read.
    public func readConfiguration(failureCode: (ConfigurationError.Kind) -> Int32 = Self.configurationFailureCode) throws -> [UInt8] {
        try reportingConfigurationErrors(failureCode) { try ConfigurationLoader.read(path: configPath) }
    }

    /// The configuration in `bytes`, read from ``configPath``; fails as
    /// ``loadConfiguration(failureCode:)`` does.
    public func loadConfiguration(bytes: [UInt8], failureCode: (ConfigurationError.Kind) -> Int32 = Self.configurationFailureCode) throws -> Configuration {
        try reportingConfigurationErrors(failureCode) { try ConfigurationLoader().load(bytes: bytes, path: configPath) }
    }

    /// 66 when the configuration cannot be opened, 65 when it is invalid.
    public static func configurationFailureCode(_ kind: ConfigurationError.Kind) -> Int32 { kind == .unreadable ? 66 : 65 }

    private func reportingConfigurationErrors<T>(_ failureCode: (ConfigurationError.Kind) -> Int32, _ body: () throws -> T) throws -> T {
        do {
            return try body()
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
