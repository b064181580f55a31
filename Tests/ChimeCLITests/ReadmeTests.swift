import Foundation
import Testing

/// The README stands alone: what it links to and every file or folder it names is in the
/// repository, and it sends no one to documents the project does not ship.
@Suite("The README's references")
struct ReadmeTests {
    static let root = ChimeProcess.repositoryRoot
    static let readme = (try? String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)) ?? ""

    @Test("every relative link of the README and of docs/ leads to a file of the repository")
    func links() throws {
        var documents = [("README.md", Self.readme)]
        for name in try FileManager.default.contentsOfDirectory(atPath: Self.root.appendingPathComponent("docs").path) where name.hasSuffix(".md") {
            documents.append(("docs/\(name)", try String(contentsOf: Self.root.appendingPathComponent("docs/\(name)"), encoding: .utf8)))
        }
        var checked = 0
        for (name, text) in documents {
            let folder = (name as NSString).deletingLastPathComponent
            // Code spans are not links: `\[x\](…)` shows markup, it links nowhere.
            let prose = text.replacing(/`[^`\n]*`/, with: "")
            for match in prose.matches(of: /\]\(([^)#\s]+)(#[^)]*)?\)/) {
                let target = String(match.output.1)
                guard !target.contains("://"), !target.hasPrefix("mailto:") else { continue }
                let path = Self.root.appendingPathComponent(folder).appendingPathComponent(target).standardizedFileURL.path
                #expect(FileManager.default.fileExists(atPath: path), "\(name) links to \(target), which is not there")
                checked += 1
            }
        }
        #expect(checked >= 2)
    }

    @Test("every repository path the README names in backquotes exists, and it names no document the project does not ship")
    func paths() {
        var checked = 0
        for match in Self.readme.matches(of: /`((?:Sources|Tests|deploy|script|docs|templates|Benchmarks)\/[^`\s]*)`/) {
            var path = String(match.output.1)
            // Placeholders (TARGET, <locale>, {token}…) and globs stand for many files.
            guard !path.contains(where: { "<{*…".contains($0) }), path.range(of: #"/[A-Z]{3,}"#, options: .regularExpression) == nil else { continue }
            while path.hasSuffix("/") || path.hasSuffix(".") { path.removeLast() }
            // The folder a user makes to override the compiled-in Mustache templates.
            guard !path.hasPrefix("templates/mustache") else { continue }
            #expect(FileManager.default.fileExists(atPath: Self.root.appendingPathComponent(path).path), "the README names \(path), which is not there")
            checked += 1
        }
        #expect(checked >= 10)
        #expect(!Self.readme.contains("CONTRACT.md"), "the README sends readers to a document that is not in the repository")
    }
}
