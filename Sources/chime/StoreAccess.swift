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
    let store = try openStore(options)
    // Each recipient as they set themselves on the preferences page, over the XML.
    let configuration = try loadConfiguration(options).applying(try store.recipientSettings())
    // Read the templates only when a message is rendered: a run with nothing due, or
    // with only JSON-lines channels, does not pay for them.
    let scheduler = Scheduler(configuration: configuration, store: store,
                              renderer: LazyRenderer { try templateRenderer(options, configuration: configuration, store: store) })
    if followMoves { try scheduler.followMovedRecipients() }
    return scheduler
}
