import Foundation
import Testing

/// The README's first command, `script/demo`, runs to its end as a new user would see it:
/// run in a copy of the repository's parts it reads, with the `chime` of this build.
@Suite("The README's demo")
struct DemoTests {
    @Test("script/demo runs to its end: the reply waits for its confirmation, the link's button carries it out, the digest is sent")
    func demo() throws {
        let root = ChimeProcess.repositoryRoot
        let copy = FileManager.default.temporaryDirectory.appendingPathComponent("chime-demo-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: copy) }
        try FileManager.default.createDirectory(at: copy.appendingPathComponent("script"), withIntermediateDirectories: true)
        for part in ["script/demo", "deploy", "templates"] {
            try FileManager.default.copyItem(at: root.appendingPathComponent(part), to: copy.appendingPathComponent(part))
        }
        let result = try ChimeProcess.runProgram("/bin/bash", [copy.appendingPathComponent("script/demo").path], timeout: 120,
                                                 environment: ["CHIME_DEMO_BINARY": ChimeProcess.executable.path])
        #expect(result.status == 0 && !result.timedOut, "\(result.stdout)\n\(result.stderr)")
        // Before, the demo stopped here: it expected the action carried out at once, which
        // the example configuration (trusting no receiving server) no longer does.
        #expect(result.stdout.contains("responded: trashAction (awaiting confirmation)"), "\(result.stdout)")
        #expect(result.stdout.contains("List deleted."), "\(result.stdout)")
        #expect(result.stdout.contains("carried out (command exit 0)"), "\(result.stdout)")
        #expect(result.stdout.contains("sent 1 digest"), "\(result.stdout)")
        let hook = try String(contentsOf: copy.appendingPathComponent("deleted-lists.jsonl"), encoding: .utf8)
        #expect(hook.contains("\"actionIdentifier\":\"trashAction\""), "\(hook)")
        #expect(!FileManager.default.fileExists(atPath: copy.appendingPathComponent("serve.out").path), "the demo's server output is cleaned up")
    }
}
