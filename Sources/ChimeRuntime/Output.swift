import ChimeCore
import Foundation
import Logging
import Synchronization

/// Every diagnostic as `path:line:col: error: message`, on standard error, one line
/// each: a value it quotes is ``printable(_:)`` (a configuration's line break, or a
/// request's, shows as `\u{d}\u{a}`). While ``DiagnosticsToLog`` holds a logger, each
/// is an error record of that log instead.
public func printDiagnostics(_ diagnostics: [Diagnostic]) {
    guard !diagnostics.isEmpty else { return }
    let lines = diagnostics.map { printable($0.description) }
    if let logger = DiagnosticsToLog.logger {
        for line in lines { logger.error("\(line)") }
        return
    }
    StandardStreams.error(lines.joined(separator: "\n") + "\n")
}

/// A line on standard error; while ``DiagnosticsToLog`` holds a logger, an error record of
/// that log instead.
public func printError(_ text: String) {
    if let logger = DiagnosticsToLog.logger {
        logger.error("\(text)")
        return
    }
    StandardStreams.error(text + "\n")
}

/// Where the runtime's diagnostic lines go while `chime serve` runs: into its log, so that
/// with `--log-format json` every line on standard error stays one JSON object (a reload
/// refused for a templates file or a key, an IMAP mailbox's failures), and with `text`
/// each line has its time and level. Commands, and `serve` before it listens and after it
/// stops, write the plain `path:line:col: error: …` lines.
public enum DiagnosticsToLog {
    private static let current = Mutex<Logger?>(nil)

    static var logger: Logger? { current.withLock { $0 } }

    /// Sends diagnostics to `logger` until ``stop()``.
    static func start(_ logger: Logger) { current.withLock { $0 = logger } }

    static func stop() { current.withLock { $0 = nil } }
}

/// JSON the way every `--json` output is written: sorted keys, unescaped slashes.
public func printJSON<T: Encodable>(_ value: T) throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    print(String(decoding: try encoder.encode(value), as: UTF8.self))
}
