@testable import ChimePostgres
import Foundation
import Logging
import Synchronization
import Testing

@Suite("The pool's background log")
struct PoolLogTests {
    /// Keeps what it is given.
    final class Kept: @unchecked Sendable {
        let messages = Mutex<[String]>([])
    }

    struct Keeping: LogHandler {
        let kept: Kept
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .warning
        var metadataProvider: Logger.MetadataProvider?
        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }
        func log(event: LogEvent) { kept.messages.withLock { $0.append("\(event.level) \(event.message)") } }
    }

    @Test("PostgresNIO's warning that a call came before the pool's run() is left out; every other line goes through, at the base's level")
    func leaseWarningLeftOut() {
        let kept = Kept()
        let logger = Logger(label: "chime.postgres") { _ in PoolLog(base: Keeping(kept: kept)) }
        logger.warning("Trying to lease connection from `PostgresClient`, but `PostgresClient.run()` hasn't been called yet.")
        logger.warning("Connection failed: connection refused")
        logger.error("Trying to lease connection from `PostgresClient`, but something else")
        logger.info("below the level")
        #expect(kept.messages.withLock { $0 } == ["warning Connection failed: connection refused",
                                                   "error Trying to lease connection from `PostgresClient`, but something else"])
    }
}
