import ChimeConfig
@testable import ChimeCore
import Foundation
import Testing

/// The environment file read as systemd's `EnvironmentFile=` reads it, so that a file
/// written for a unit gives every entry point the same secrets (systemd's env-file.c:
/// bare values, single and double quotes, backslashes and line breaks).
@Suite("The environment file")
struct EnvironmentFileTests {
    private func read(_ text: String) throws -> [String: String] {
        Dictionary(try EnvironmentFile(text: text, path: "secrets.env").variables.map { ($0.name, $0.value) }, uniquingKeysWith: { $1 })
    }

    @Test("values as systemd gives them: a backslash in double quotes stands for \" \\ ` $ alone and stays before anything else; bare, it takes the next character; quotes span lines; parts join")
    func systemdValues() throws {
        let read = try read(##"""
            # a comment
            ; another

            PLAIN=plain value with  spaces   
            QUOTED="say \"hi\" \\ \$HOME \`date\`"
            NEWLINE_ESCAPE="a\nb"
            PASSWORD="p\ass\word"
            BARE=one\ two\\three\#four
            SINGLE='single \n $x "q"'
            TWO_LINES="first
            second"
            JOINED=con\
            tinued
            JOINED_QUOTED="con\
            tinued"
            PARTS="x"'y'z
            APOSTROPHE=it's
            QUOTES_INSIDE=x "y" 'z'
            export SPACED = spaced value 
            HASH=a#b
            EMPTY=
            EMPTY_QUOTED=""
            """##)
        #expect(read["PLAIN"] == "plain value with  spaces")
        #expect(read["QUOTED"] == #"say "hi" \ $HOME `date`"#)
        #expect(read["NEWLINE_ESCAPE"] == #"a\nb"#, "four characters, as systemd keeps them")
        #expect(read["PASSWORD"] == #"p\ass\word"#, "a password's backslashes kept")
        #expect(read["BARE"] == #"one two\three#four"#)
        #expect(read["SINGLE"] == #"single \n $x "q""#)
        #expect(read["TWO_LINES"] == "first\nsecond")
        #expect(read["JOINED"] == "continued")
        #expect(read["JOINED_QUOTED"] == "continued")
        #expect(read["PARTS"] == "xyz")
        #expect(read["APOSTROPHE"] == "it's", "a quote after a bare character is a character")
        #expect(read["QUOTES_INSIDE"] == #"x "y" 'z'"#)
        #expect(read["SPACED"] == "spaced value")
        #expect(read["HASH"] == "a#b")
        #expect(read["EMPTY"] == "")
        #expect(read["EMPTY_QUOTED"] == "")
        #expect(read.count == 16)
    }

    @Test("lines ending in CR LF or a lone CR read as lines, comments included; a backslash before CR LF takes the CR alone, as systemd does")
    func lineEnds() throws {
        #expect(try read("A=one\r\nB=\"two\"\r\nC='three' \r\n") == ["A": "one", "B": "two", "C": "three"])
        #expect(try read("# note\rA=1\rB=2\r") == ["A": "1", "B": "2"])
        #expect(try read("A=x\\\r\nB=y\r\n") == ["A": "x", "B": "y"])
    }

    @Test("a NUL character, or bytes that are not UTF-8, are refused with their line and column rather than read as another secret")
    func unreadableBytes() throws {
        #expect(throws: ConfigurationError.self) { try read("A=1\nB=se\u{0}cret\n") }
        do {
            _ = try read("A=1\nB=se\u{0}cret\n")
        } catch let error as ConfigurationError {
            #expect(error.description == "secrets.env:2:5: error: a NUL character (U+0000), which no environment variable can hold")
        }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("chime-env-\(UUID().uuidString).env").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(FileManager.default.createFile(atPath: path, contents: Data([0x41, 0x3D, 0x31, 0x0A, 0x42, 0x3D, 0xC3, 0xA9, 0xFF, 0x0A])))
        do {
            _ = try EnvironmentFile(path: path)
            Issue.record("read without an error")
        } catch let error as ConfigurationError {
            #expect(error.kind == .invalid)
            #expect(error.description == "\(path):2:4: error: not UTF-8: B would not be the bytes written")
        }
        // Counted as the reader counts lines: a lone CR ends one.
        #expect(FileManager.default.createFile(atPath: path, contents: Data([0x41, 0x3D, 0x31, 0x0D, 0x42, 0x3D, 0xFF])))
        #expect(throws: ConfigurationError.self) { try EnvironmentFile(path: path) }
        do {
            _ = try EnvironmentFile(path: path)
        } catch let error as ConfigurationError {
            #expect(error.description == "\(path):2:3: error: not UTF-8: B would not be the bytes written")
        }
        // In a comment (Latin-1 "für"), skipped as systemd skips it; the lines after it read.
        #expect(FileManager.default.createFile(atPath: path, contents: Data("# Passwort f".utf8) + Data([0xFC]) + Data("r SMTP\nA=1\n# \u{FF}".utf8) + Data([0xFF, 0x0A]) + Data("B=2\n".utf8)))
        #expect(try EnvironmentFile(path: path).variables.map { "\($0.name)=\($0.value)" } == ["A=1", "B=2"])
        // A line refused for its bytes is skipped to its end, and the next one read: its
        // own error named at its line.
        #expect(FileManager.default.createFile(atPath: path, contents: Data("A=caf".utf8) + Data([0xE9]) + Data("\nB\nC=\"two\nlines\"\nD=1\n".utf8)))
        do {
            _ = try EnvironmentFile(path: path)
            Issue.record("read without an error")
        } catch let error as ConfigurationError {
            #expect(error.diagnostics.map(\.description) == ["\(path):1:6: error: not UTF-8: A would not be the bytes written",
                                                            "\(path):2:2: error: expected \"=\" here: each line is NAME=value"])
        }
        // A byte order mark is said as one, not as a name that is not one.
        do {
            _ = try read("\u{FEFF}A=1\n")
            Issue.record("read without an error")
        } catch let error as ConfigurationError {
            #expect(error.description == "secrets.env:1:1: error: a byte order mark (U+FEFF) before the first name: save the file as UTF-8 without one")
        }
    }

    @Test("a comment after a closing quote is refused at its column: systemd appends it to the value (PASS=\"abc\" # smtp is abc# smtp there), a secret other than the one meant")
    func commentAfterQuote() throws {
        for (text, column) in [("PASS=\"abc\" # smtp password\n", 12), ("PASS=\"abc\"#def\n", 11), ("A=1\nPASS='abc'\t# x\n", 12)] {
            do {
                _ = try read(text)
                Issue.record("read without an error: \(text)")
            } catch let error as ConfigurationError {
                let line = text.hasPrefix("A=1") ? 2 : 1
                #expect(error.description == "secrets.env:\(line):\(column): error: a comment after the quoted value of PASS: systemd would take it as part of the value; put it on a line of its own", "\(text)")
                #expect(!error.description.contains("abc"), "the value is not echoed")
            }
        }
        #expect(try read("A=\"x#y\"\nB=x # y\n") == ["A": "x#y", "B": "x # y"], "a # inside quotes or in a bare value is a character")
    }

    @Test("`export NAME=` sets NAME; `export =x` a variable named export; a file of bad lines is refused naming the first hundred")
    func exportAndManyErrors() throws {
        #expect(try read("export A=1\nexport =x\nexport\tB=2\n") == ["A": "1", "export": "x", "B": "2"])
        do {
            _ = try read(String(repeating: "A\n", count: 5_000))
            Issue.record("read without an error")
        } catch let error as ConfigurationError {
            #expect(error.diagnostics.count == 101)
            #expect(error.diagnostics.last?.description == "secrets.env: error: more lines are not NAME=value; the first 100 are said above")
        }
    }

    @Test("errors name the line and column, counted across values that span lines, and every bad line is named")
    func errors() throws {
        let text = "A=\"two\nlines\"\nnot a variable\nB=ok\n9X=1\nC=\"open\nD=1\n"
        do {
            _ = try EnvironmentFile(text: text, path: "secrets.env")
            Issue.record("read without an error")
        } catch let error as ConfigurationError {
            let said = error.diagnostics.map(\.description)
            #expect(said.count == 3, "\(said)")
            #expect(said.contains { $0.hasPrefix("secrets.env:3:5: error: expected \"=\" here") }, "\(said)")
            #expect(said.contains { $0.hasPrefix("secrets.env:5:1: error: expected NAME=value") }, "\(said)")
            #expect(said.contains { $0.hasPrefix("secrets.env:6:3: error: a quoted value of C is never closed") }, "\(said)")
            #expect(!said.joined().contains("not a variable"), "the line is not echoed (it may be a pasted secret)")
        }
    }

    @Test("read again (chime serve on SIGHUP), the file changes what it set: a name the process started with stays, one it no longer names goes, one it adds comes, a value it changes changes")
    func changesOnReload() {
        let changes = ProcessEnvironment.changes(to: ["KEY": "new", "ADDED": "a", "HOME": "/elsewhere"],
                                                  started: ["HOME": "/root", "KEY": "old", "GONE": "g"], fromFile: ["KEY", "GONE"])
        let expected: [String: String?] = ["KEY": "new", "ADDED": "a", "GONE": .none]
        #expect(changes == expected)
        let removed: [String: String?] = ["CHIME_TEST_ADDED": "a", "PATH": .none]
        let environment = ProcessEnvironment.current(with: removed)
        #expect(environment["CHIME_TEST_ADDED"] == "a")
        #expect(environment["PATH"] == nil)
        #expect(ProcessEnvironment.current["CHIME_TEST_ADDED"] == nil, "nothing put in force")
    }
}
