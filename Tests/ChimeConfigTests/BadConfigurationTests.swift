import ChimeConfig
import ChimeCore
import Foundation
import Testing

@Suite("Bad configurations")
struct BadConfigurationTests {
    private static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

    /// The diagnostics loading a fixture gives, as `line:col: message`.
    private func errors(_ name: String) throws -> [String] {
        let path = Self.fixtures.appendingPathComponent(name).path
        do {
            _ = try ConfigurationLoader(environment: [:]).load(path: path)
            return []
        } catch let error as ConfigurationError {
            #expect(error.kind == .invalid)
            #expect(error.diagnostics.allSatisfy { $0.location.file == path })
            return error.diagnostics.map { "\($0.location.line):\($0.location.column): \($0.message)" }
        }
    }

    /// Each bad input and the exact first error it gets.
    @Test("each bad input gets its exact error", arguments: [
        ("malformed.xml", "5:16: Opening and ending tag mismatch: action line 4 and category"),
        ("unknown-element.xml", "4:7: Element 'button': This element is not expected. Expected is one of ( action, textInputAction, minimalActions )."),
        ("missing-identifier.xml", "3:5: Element 'category': The attribute 'identifier' is required but missing."),
        ("duplicate-category.xml", "6:15: duplicate category identifier \"reminder\""),
        ("duplicate-action.xml", "8:15: duplicate action identifier \"done\" (already used in category \"first\"); action identifiers are unique across all categories"),
        ("five-actions.xml", "3:5: category \"busy\" has 5 actions; at most 4 fit the default context"),
        ("three-minimal.xml", "7:7: category \"busy\" has 3 minimal actions; at most 2 fit the minimal context"),
        ("foreign-minimal.xml", "8:7: minimal action \"a1\" is not an action of category \"second\" (it belongs to category \"first\")"),
        ("reserved-identifier.xml", "4:15: action identifier \"com.apple.UNNotificationDismissActionIdentifier\" is reserved for the built-in dismiss action"),
        ("unknown-scheme.xml", "3:25: channel \"pager\": unknown URL scheme \"gopher\" (expected one of smtp, smtps, maildir, file, slack, discord, mattermost, msteams, telegram, json, jsons, imap, imaps)"),
        ("unset-env.xml", "3:24: channel \"team\": environment variable CHIME_TEST_UNSET_SLACK_PATH is not set"),
        ("xxe.xml", "2:18: entity declarations are not allowed (no DTD entities are read, so no external file and no expansion)"),
        ("billion-laughs.xml", "3:3: entity declarations are not allowed (no DTD entities are read, so no external file and no expansion)"),
        ("empty.xml", "1:1: the file is empty"),
        ("binary.xml", "1:1: this is a binary file, not XML (a NUL byte at offset 8)"),
        ("bad-rate.xml", "3:57: rate must be a number of requests such as 4/s, 30/min or 100/h, not \"0/s\""),
        ("bad-timeout.xml", "3:57: Element 'channel', attribute 'timeout': 'soon' is not a valid value of the union type 'duration'."),
        ("huge-timeout.xml", "3:57: connectTimeout must be a duration such as 500ms, 90s, 10m or 1h30m, not \"9223372036854775807ms\""),
        ("bad-backoff.xml", "3:89: maxBackoff must not be shorter than backoff"),
        ("misplaced-channel-options.xml", "3:71: apiToken applies to mattermost:// channels only, and \"team\" is slack"),
    ])
    func badInput(fixture: String, expected: String) throws {
        #expect(try errors(fixture).first == expected)
    }

    @Test("a caFile that is missing, a folder or no PEM bundle is noted at the attribute when the file is loaded (for chime check), the configuration loading all the same; a TRUSTED CERTIFICATE bundle is a bundle")
    func badCAFile() throws {
        let folder = Self.fixtures.path
        for (fixture, expected) in [("bad-ca-missing.xml", "3:54: caFile \(folder)/no-such-ca.pem: no such file"),
                                    ("bad-ca-directory.xml", "3:54: caFile \(folder)/.: a directory, not a file"),
                                    ("bad-ca-not-pem.xml", "3:54: caFile \(folder)/bad-ca-not-pem.xml holds no PEM certificate (-----BEGIN CERTIFICATE-----)")] {
            let path = Self.fixtures.appendingPathComponent(fixture).path
            let configuration = try ConfigurationLoader(environment: [:]).load(path: path)
            let said = configuration.fileProblems.map { "\($0.location.line):\($0.location.column): \($0.message)" }
            #expect(said == [expected], "\(said)")
            #expect(configuration.fileProblems.allSatisfy { $0.location.file == path && $0.severity == .error })
            #expect(configuration.channel("hook") != nil)
        }
        let trusted = FileManager.default.temporaryDirectory.appendingPathComponent("chime-ca-\(UUID().uuidString).pem")
        defer { try? FileManager.default.removeItem(at: trusted) }
        let pem = try String(contentsOf: Self.fixtures.appendingPathComponent("ca.pem"), encoding: .utf8)
        try pem.replacingOccurrences(of: "CERTIFICATE-----", with: "TRUSTED CERTIFICATE-----").write(to: trusted, atomically: true, encoding: .utf8)
        let xml = #"<chime version="1"><channels><channel id="hook" url="json://127.0.0.1:9/hook" caFile="\#(trusted.path)"/></channels></chime>"#
        #expect(try ConfigurationLoader(environment: [:]).load(bytes: Array(xml.utf8), path: "chime.xml").fileProblems.isEmpty)
    }

    @Test("a backoff longer than maxBackoff's default is said at the backoff, and the channel's other errors (no from) are said too")
    func backoffOverDefault() throws {
        let errors = try errors("long-backoff.xml")
        #expect(errors.contains("3:52: backoff must not be longer than maxBackoff, 3600 s by default here: set maxBackoff too"), "\(errors)")
        #expect(errors.contains { $0.hasPrefix("3:5: ") && $0.contains("from") }, "\(errors)")
    }

    @Test("every error is reported, not only the first")
    func allErrors() throws {
        #expect(try errors("reserved-identifier.xml") == [
            "4:15: action identifier \"com.apple.UNNotificationDismissActionIdentifier\" is reserved for the built-in dismiss action",
            "5:15: action identifier \"default\" is reserved for the built-in default action",
        ])
    }

    @Test("an option of another kind of channel is refused, each one, and a secret's value is not shown")
    func misplacedChannelOptions() throws {
        let errors = try errors("misplaced-channel-options.xml")
        #expect(errors.count == 2)
        #expect(errors.last == "4:47: moveTo applies to imap:// and imaps:// channels only, and \"mail\" is maildir")
        #expect(!errors.joined().contains("not-for-slack"))
    }

    @Test("a moveTo with a line break (which would end chime fetch's IMAP command and start another) or naming no mailbox is refused")
    func badMoveTo() throws {
        #expect(try errors("bad-move-to.xml") == [
            "3:61: channel \"inbox\": moveTo \"Done\r\na9 DELETE INBOX\" holds a control character (a line break?), which no IMAP mailbox name can",
            #"4:63: channel "other": moveTo "" names no mailbox"#,
        ])
    }

    @Test("the XXE attempt reads nothing of /etc/passwd")
    func xxeReadsNothing() throws {
        let output = try errors("xxe.xml").joined(separator: "\n")
        #expect(!output.contains("root:"))
        #expect(try errors("xxe.xml").count == 1)
    }

    @Test("a missing file is unreadable, not invalid")
    func missing() {
        do {
            _ = try ConfigurationLoader().load(path: "/nonexistent/chime.xml")
            Issue.record("loaded a missing file")
        } catch let error as ConfigurationError {
            #expect(error.kind == .unreadable)
            #expect(error.description == "/nonexistent/chime.xml: error: no such file")
        } catch {
            Issue.record("unexpected \(error)")
        }
    }
}
