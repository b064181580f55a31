import ArgumentParser
import ChimeConfig
import ChimeCore
import ChimeLocalization
import ChimeRendering
import ChimeScheduler
import ChimeSQLite
import Foundation

/// Opens the store named by `--store`: `sqlite:PATH` or a bare path. Exits 73 when it
/// cannot be opened or created, 64 for a kind this version does not have.
func openStore(_ options: GlobalOptions) throws -> SQLiteStore {
    let url = options.storeURL
    let path: String
    if url.hasPrefix("sqlite:") {
        path = String(url.dropFirst("sqlite:".count))
    } else if url.contains("://") {
        printError("--store: \"\(url.split(separator: ":").first ?? "")\" stores are not available in this version (use sqlite:PATH)")
        throw ExitCode(64)
    } else {
        path = url
    }
    guard !path.isEmpty, path != ":memory:", !path.hasPrefix("file:") else {
        // SQLite would open a temporary database and everything stored would be lost.
        printError("--store: give the path of a SQLite file, as in sqlite:./chime.sqlite")
        throw ExitCode(64)
    }
    do {
        return try SQLiteStore(path: path)
    } catch let error as SQLiteStore.OpenError {
        printError(error.description)
        throw ExitCode(73)
    }
}

/// The configuration and the store, ready to schedule and fire, with floating requests
/// of recipients who moved already following them.
func openScheduler(_ options: GlobalOptions, followMoves: Bool = true) throws -> Scheduler {
    var scheduler = Scheduler(configuration: try loadConfiguration(options), store: try openStore(options))
    let configuration = scheduler.configuration
    // Read the templates only when a message is rendered: a run with nothing due, or
    // with only JSON-lines channels, does not pay for them.
    scheduler.renderer = LazyRenderer { try templateRenderer(options, configuration: configuration) }
    if followMoves { try scheduler.followMovedRecipients() }
    return scheduler
}

func printError(_ text: String) {
    FileHandle.standardError.write(Data((text + "\n").utf8))
}

/// JSON the way every `--json` output is written: sorted keys, unescaped slashes.
func printJSON<T: Encodable>(_ value: T) throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    print(String(decoding: try encoder.encode(value), as: UTF8.self))
}

/// Messages rendered from the templates folder (the compiled-in templates and the strings
/// of whatever locales the folder has). A folder that cannot be read holds every message
/// back, saying which file is wrong (`chime check` reports it too).
func templateRenderer(_ options: GlobalOptions, configuration: Configuration) throws -> TemplateRenderer {
    let localizer = try Localizer(directory: options.templatesPath)
    let composer = EmailComposer(localizer: localizer, templates: try TemplateSet(directory: options.templatesPath))
    return TemplateRenderer(composer: composer, configuration: configuration)
}

/// A renderer made on first use, once.
final class LazyRenderer: MessageRenderer, @unchecked Sendable {
    private let lock = NSLock()
    private let make: () throws -> any MessageRenderer
    private var made: (any MessageRenderer)?

    init(_ make: @escaping () throws -> any MessageRenderer) {
        self.make = make
    }

    func email(_ notification: OutgoingNotification) throws -> String {
        let renderer = try lock.withLock {
            if let made { return made }
            let renderer = try make()
            made = renderer
            return renderer
        }
        return try renderer.email(notification)
    }
}
