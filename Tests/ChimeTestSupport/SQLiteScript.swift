import Foundation

/// Runs SQL statements on a SQLite file from outside Chime, as an operator's hand or
/// another program would change a store: through Python's `sqlite3` module (the test
/// setup installs python3), committed. Throws when Python fails.
public func runSQLiteScript(_ sql: String, on path: String) throws {
    let python = Process()
    python.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    python.arguments = ["python3", "-c", "import sqlite3, sys\ndb = sqlite3.connect(sys.argv[1])\ndb.executescript(sys.argv[2])\ndb.commit()", path, sql]
    try python.run()
    python.waitUntilExit()
    guard python.terminationStatus == 0 else { throw CocoaError(.fileWriteUnknown) }
}
