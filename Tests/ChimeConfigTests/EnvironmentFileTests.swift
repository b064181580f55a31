import ChimeConfig
import ChimeCore
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
            NOTED="v" # rotated in May
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
        #expect(read["NOTED"] == "v")
        #expect(read["HASH"] == "a#b")
        #expect(read["EMPTY"] == "")
        #expect(read["EMPTY_QUOTED"] == "")
        #expect(read.count == 17)
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
            #expect(error.description == "\(path):2:4: error: not UTF-8: a value would not be the bytes written")
        }
        // Counted as the reader counts lines: a lone CR ends one.
        #expect(FileManager.default.createFile(atPath: path, contents: Data([0x41, 0x3D, 0x31, 0x0D, 0x42, 0x3D, 0xFF])))
        #expect(throws: ConfigurationError.self) { try EnvironmentFile(path: path) }
        do {
            _ = try EnvironmentFile(path: path)
        } catch let error as ConfigurationError {
            #expect(error.description == "\(path):2:3: error: not UTF-8: a value would not be the bytes written")
        }
    }

    @Test("`export NAME=` sets NAME; `export =x` a variable named export; a file of bad lines is refused naming the first hundred")
    func exportAndManyErrors() throws {
        #expect(try read("export A=1\nexport =x\n") == ["A": "1", "export": "x"])
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
}
