import Foundation
import Testing

/// What the fuzzers start from and what they found: every seed and every saved crash or
/// hang of `Tests/Fuzz` goes through its parser again on each test run (the plain build
/// of `chime-fuzz`, beside `chime`), so a mended one stays mended.
@Suite("Fuzz corpora replayed")
struct FuzzReplayTests {
    static let fuzz = ChimeProcess.executable.deletingLastPathComponent().appendingPathComponent("chime-fuzz").path
    static let folder = ChimeProcess.repositoryRoot.appendingPathComponent("Tests/Fuzz")

    @Test("every seed and every regression of each parser (XML configuration, strings, stringsdict, request JSON, mail, Authentication-Results, chat callbacks, environment files, stored requests) is read without a crash, each within two seconds", arguments: ["corpus", "regressions"])
    func replay(_ corpus: String) throws {
        let result = try ChimeProcess.runProgram(Self.fuzz, ["replay", Self.folder.appendingPathComponent(corpus).path], timeout: 300)
        #expect(result.status == 0, "\(result.stdout) \(result.stderr.suffix(2000))")
        #expect(result.stdout.contains("replayed"), "\(result.stdout)")
    }
}
