import Foundation
import Testing

@Suite("chime check and chime categories, through the real executable")
struct CheckCommandTests {
    private static let example = "deploy/chime.example.xml"
    private static let fixtures = "Tests/ChimeConfigTests/Fixtures"

    @Test("a sound configuration: exit 0 and the summary")
    func ok() throws {
        let result = try ChimeProcess.run(["check", "--config", Self.example])
        #expect(result.status == 0)
        #expect(result.stdout == "ok: 2 categories, 6 actions, 1 channel, 1 recipient\n")
        #expect(result.stderr.isEmpty)
    }

    @Test("global options go before or after the command, or come from $CHIME_CONFIG")
    func globalOptions() throws {
        #expect(try ChimeProcess.run(["--config", Self.example, "check"]).status == 0)
        let fromEnvironment = try ChimeProcess.run(["check"], environment: ["CHIME_CONFIG": Self.example])
        #expect(fromEnvironment.status == 0)
        #expect(fromEnvironment.stdout.hasPrefix("ok: 2 categories"))
    }

    @Test("./chime.xml is the default configuration")
    func defaultPath() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("chime-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let missing = try ChimeProcess.run(["check"], in: directory)
        #expect(missing.status == 66)
        #expect(missing.stderr.hasPrefix("chime.xml: error: no such file\nchime: note: the default (neither --config nor $CHIME_CONFIG is set) names chime.xml"), "\(missing.stderr)")
        // cron started in the wrong folder: said so, and no store left behind there.
        for command in [["run"], ["run", "--dry-run"], ["digest"]] {
            let run = try ChimeProcess.run(command, in: directory)
            #expect(run.status == 66 && run.stderr.hasPrefix("chime.xml: error: no such file"), "\(command): \(run.stderr)")
            #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("chime.sqlite").path), "\(command)")
        }
        try FileManager.default.copyItem(at: ChimeProcess.repositoryRoot.appendingPathComponent(Self.example), to: directory.appendingPathComponent("chime.xml"))
        #expect(try ChimeProcess.run(["check"], in: directory).status == 0)
    }

    @Test("an invalid configuration: exit 65, every error as path:line:col: error: message")
    func invalid() throws {
        let path = "\(Self.fixtures)/reserved-identifier.xml"
        let result = try ChimeProcess.run(["check", "--config", path])
        #expect(result.status == 65)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr == """
            \(path):4:15: error: action identifier "com.apple.UNNotificationDismissActionIdentifier" is reserved for the built-in dismiss action
            \(path):5:15: error: action identifier "default" is reserved for the built-in default action

            """)
    }

    @Test("malformed, empty and binary files exit 65", arguments: ["malformed.xml", "empty.xml", "binary.xml", "unknown-element.xml"])
    func unreadableContent(fixture: String) throws {
        let result = try ChimeProcess.run(["check", "--config", "\(Self.fixtures)/\(fixture)"])
        #expect(result.status == 65)
        #expect(result.stderr.hasPrefix("\(Self.fixtures)/\(fixture):"))
    }

    @Test("a configuration that never ends (/dev/zero) is refused past 16 MiB, exit 65, rather than read until memory runs out")
    func endless() throws {
        let result = try ChimeProcess.run(["check", "--config", "/dev/zero"])
        #expect(result.status == 65)
        #expect(result.stderr.hasPrefix("/dev/zero:1:1: error: the file is larger than 16 MiB"), "\(result.stderr)")
    }

    @Test("a channel's caFile that is missing: chime check names it at its attribute and exits 65; chime pending works all the same")
    func missingCAFile() throws {
        let fixture = "\(Self.fixtures)/bad-ca-missing.xml"
        let check = try ChimeProcess.run(["check", "--config", fixture])
        #expect(check.status == 65)
        #expect(check.stderr.hasPrefix("\(fixture):3:54: error: caFile /") && check.stderr.contains("/\(Self.fixtures)/no-such-ca.pem: no such file"), "\(check.stderr)")
        let store = FileManager.default.temporaryDirectory.appendingPathComponent("chime-ca-\(UUID().uuidString).sqlite").path
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: store + suffix) } }
        #expect(try ChimeProcess.run(["store", "migrate", "--config", fixture, "--store", "sqlite:" + store]).status == 0)
        let pending = try ChimeProcess.run(["pending", "--config", fixture, "--store", "sqlite:" + store])
        #expect(pending.status == 0, "\(pending.stderr)")
    }

    @Test("a missing file or a directory exits 66")
    func missing() throws {
        let result = try ChimeProcess.run(["check", "--config", "no/such/chime.xml"])
        #expect(result.status == 66)
        #expect(result.stderr.hasPrefix("no/such/chime.xml: error: no such file\nchime: note: --config names no/such/chime.xml, which does not exist"), "\(result.stderr)")
        #expect(try ChimeProcess.run(["check", "--config", "deploy"]).status == 66)
    }

    @Test("unknown commands and bad options exit 64 with a usage hint", arguments: [
        ["frobnicate"], ["check", "--frob"], ["check", "--now", "yesterday"], ["categories", "--json", "extra"],
    ])
    func usage(arguments: [String]) throws {
        let result = try ChimeProcess.run(arguments)
        #expect(result.status == 64)
        #expect(result.stderr.contains("Usage: chime"))
        #expect(result.stderr.contains("--help"))
    }

    @Test("an external entity naming a FIFO is never opened")
    func externalEntityNeverOpened() throws {
        // Opening a FIFO for reading blocks until a writer comes: had the parser followed
        // the entity, the run would hang and be stopped by the timeout.
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("chime-xxe-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let fifo = directory.appendingPathComponent("secret")
        #expect(mkfifo(fifo.path, 0o600) == 0)
        try """
            <?xml version="1.0"?>
            <!DOCTYPE chime [<!ENTITY x SYSTEM "file://\(fifo.path)">]>
            <chime version="1"><categories><category identifier="c"><action identifier="a" title="&x;"/></category></categories></chime>
            """.write(to: directory.appendingPathComponent("chime.xml"), atomically: true, encoding: .utf8)
        let result = try ChimeProcess.run(["check"], in: directory, timeout: 20)
        #expect(!result.timedOut)
        #expect(result.status == 65)
        #expect(result.stderr.contains("chime.xml:2:"))
        #expect(result.stderr.contains("entity declarations are not allowed"))
    }

    @Test("a billion-laughs document fails at its first entity, without expanding")
    func billionLaughs() throws {
        let result = try ChimeProcess.run(["check", "--config", "\(Self.fixtures)/billion-laughs.xml"], timeout: 20)
        #expect(!result.timedOut)
        #expect(result.status == 65)
        #expect(result.stderr == "\(Self.fixtures)/billion-laughs.xml:3:3: error: entity declarations are not allowed (no DTD entities are read, so no external file and no expansion)\n")
    }

    @Test("categories lists actions in order with their options")
    func categoriesText() throws {
        let result = try ChimeProcess.run(["categories", "--config", Self.example])
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("""
            shoppingListReminderCategory
              hidden previews: shopping.placeholder
              summary: shopping.summary
              1. justInform   "OK, got it"
              2. editList     "Edit list"  [foreground, authenticationRequired]
              3. trashAction  "Delete list"  [destructive, authenticationRequired]
              minimal: trashAction, editList

            TimerFiredCategory
            """))
    }

    @Test("categories --json gives the documented fields")
    func categoriesJSON() throws {
        let result = try ChimeProcess.run(["categories", "--json", "--config", Self.example])
        #expect(result.status == 0)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
        #expect(json.map { $0["identifier"] as? String } == ["shoppingListReminderCategory", "TimerFiredCategory"])
        let actions = try #require(json[0]["actions"] as? [[String: Any]])
        #expect(actions.map { $0["identifier"] as? String } == ["justInform", "editList", "trashAction"])
        #expect(actions[2]["options"] as? [String] == ["destructive", "authenticationRequired"])
        #expect(json[0]["minimalActions"] as? [String] == ["trashAction", "editList"])
        #expect(json[0]["hiddenPreviewsBodyPlaceholder"] as? String == "shopping.placeholder")
        #expect(json[1]["options"] as? [String] == [])
    }

    @Test("categories on a bad configuration exits 65 like check")
    func categoriesInvalid() throws {
        let result = try ChimeProcess.run(["categories", "--config", "\(Self.fixtures)/duplicate-category.xml"])
        #expect(result.status == 65)
    }

    @Test("--version names chime, libcurl and libxml2")
    func version() throws {
        let result = try ChimeProcess.run(["--version"])
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("chime 0.1.0 (libcurl/"))
        #expect(result.stdout.contains("libxml2 2."))
    }

    /// libcurl and the ~30 libraries it brings are loaded by the commands that send or
    /// fetch, when they first do: every other start is spared them (a cron tick with
    /// nothing due took 32 ms with them, 19 ms without). The dynamic linker's own trace
    /// (`LD_DEBUG=libs`) names each library as it starts it.
    @Test("a command that sends nothing starts without libcurl; --version loads it to name it")
    func libcurlLoadedOnlyWhenNeeded() throws {
        let check = try ChimeProcess.run(["check", "--config", Self.example], environment: ["LD_DEBUG": "libs"])
        #expect(check.status == 0)
        #expect(check.stderr.contains("libsqlite3.so"), "the trace names the libraries started: \(check.stderr.prefix(300))")
        #expect(!check.stderr.contains("libcurl.so"))
        let version = try ChimeProcess.run(["--version"], environment: ["LD_DEBUG": "libs"])
        #expect(version.status == 0)
        #expect(version.stderr.contains("libcurl.so.4"))
    }
}
