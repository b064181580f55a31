import ChimeTestSupport
import Foundation
import Testing

/// Cron and a daemon starting together on a fresh install: many `chime` processes opening
/// a new store at the same moment must each find it migrated once (issue 20: 6 processes
/// failed about 4 times in 48 with "duplicate column name: route").
@Suite("Migrations racing between processes")
struct MigrationRaceTests {
    /// `$CHIME_BIN`, else the `chime` built beside this test binary.
    static let chime: URL = {
        if let path = ProcessInfo.processInfo.environment["CHIME_BIN"] { return URL(fileURLWithPath: path) }
        return URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent().appendingPathComponent("chime")
    }()

    @Test("8 chime processes started at once on a new store, 20 times: every one exits 0")
    func eightProcesses() throws {
        var failures: [String] = []
        for round in 0..<20 {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("chime-race-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            try #"<chime version="1"/>"#.write(to: folder.appendingPathComponent("chime.xml"), atomically: true, encoding: .utf8)
            let processes = try (0..<8).map { index in
                let process = Process()
                process.executableURL = Self.chime
                // Commands cron and a daemon's neighbours run: each opens the store.
                process.arguments = [["store", "migrate"], ["run"], ["store", "migrate"], ["run", "--limit", "5"]][index % 4] + ["--store", "sqlite:chime.sqlite"]
                process.currentDirectoryURL = folder
                process.standardOutput = FileHandle.nullDevice
                let errors = folder.appendingPathComponent("err-\(index)")
                process.standardError = try FileHandle.creatingEmpty(at: errors)
                return (process, errors)
            }
            for (process, _) in processes { try process.run() }
            for (process, errors) in processes {
                process.waitUntilExit()
                if process.terminationStatus != 0 {
                    failures.append("round \(round): exit \(process.terminationStatus): \((try? String(contentsOf: errors, encoding: .utf8)) ?? "")")
                }
            }
        }
        #expect(failures.isEmpty, "\(failures.count) of 160 failed: \(failures.prefix(5))")
    }
}
