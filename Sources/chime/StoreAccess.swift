import ArgumentParser
import ChimeConfig
import ChimeCore
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
    let scheduler = Scheduler(configuration: try loadConfiguration(options), store: try openStore(options))
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
