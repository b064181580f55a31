import ChimeCore
import Foundation

/// A file of `NAME=value` lines, as systemd's `EnvironmentFile=` reads them: the secrets
/// (`CHIME_SECRET_KEY`, what `${NAME}` in chime.xml names) that every entry point of a
/// deployment — units, cron, the MTA pipe, a container — reads from the one file
/// (`--env-file`, `$CHIME_ENV_FILE`). Written by hand: no Swift package reads this format.
///
/// Blank lines and lines starting with `#` or `;` are skipped. A value ends at the first
/// line break (LF, CR or CR LF) outside quotes. It starts with a quote or not:
/// - in single quotes: taken as written, line breaks included;
/// - in double quotes: as written, line breaks included, except that a backslash before
///   `"`, `\`, `` ` `` or `$` stands for that character, one ending a line joins the next,
///   and one before anything else stays (`"a\nb"` is `a\nb`, four characters);
/// - after a closing quote, white space is skipped and another quoted or bare part may
///   follow (`"x"'y'z` is `xyz`);
/// - bare: quotes are characters like any other (`it's` is `it's`), surrounding white
///   space is trimmed, a backslash takes the character after it as written (`a\ b` keeps
///   its space), and one ending the line joins the next to it.
///
/// That is systemd's reading, so a file written for a unit's `EnvironmentFile=` gives the
/// same secrets here. Where they differ, Chime refuses what systemd would skip or read
/// otherwise, naming the line and column, rather than take a secret other than the one
/// written: a line with no `=` or with a name that is not one (systemd skips it), a quote
/// never closed (systemd takes the rest of the file), a NUL character (which no variable
/// can hold), a name or value that is not UTF-8 (systemd skips it; a comment that is not
/// is skipped here too), a byte order mark before the first name (systemd skips that
/// line), and a `#` after a closing quote (`PASS="abc" # smtp`: systemd appends it to the
/// value, `abc# smtp`, where the comment was surely meant). One more: `export` and a blank
/// before a name are allowed, as a shell has them (systemd skips such a line). One pass
/// over the bytes, at most ``largest`` of them.
public struct EnvironmentFile: Sendable {
    /// The variables in the order the file gives them (a repeated name: the last wins).
    public var variables: [(name: String, value: String)]

    /// The largest file read: secrets are short, and this is read on every command.
    public static let largest = 1 << 20

    /// How many bad lines are named before the rest are only counted as more.
    static let diagnosticsSaid = 100

    /// Reads the file at `path`.
    /// - Throws: ``ConfigurationError`` — `.unreadable` when it is missing or cannot be
    ///   read, `.invalid` with the line and column of a line that is not `NAME=value`.
    public init(path: String) throws {
        // A directory (Docker makes one where a mounted file was missing) is said as such;
        // it had been taken for a file without variables.
        let bytes: [UInt8]
        do {
            bytes = try BoundedFile.read(path, atMost: Self.largest)
        } catch .directory {
            throw ConfigurationLoader.unreadable(path, "environment file: is a directory, not a file")
        } catch .tooLarge {
            throw ConfigurationError(.invalid, [Diagnostic(.error, at: SourceLocation(file: path), "environment file larger than 1 MiB")])
        } catch {
            throw ConfigurationLoader.unreadable(path, "environment file: " + error.reason)
        }
        try self.init(text: String(decoding: bytes, as: UTF8.self), path: path, notUTF8: Self.invalidScalars(bytes))
    }

    /// Where decoding `bytes` puts a U+FFFD for bytes that are not UTF-8: the index of
    /// each such scalar, in order.
    private static func invalidScalars(_ bytes: [UInt8]) -> [Int] {
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        var (count, invalid) = (0, [Int]())
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue: count += 1
            case .emptyInput: return invalid
            case .error:
                invalid.append(count)
                count += 1
            }
        }
    }

    /// Reads `text`; `path` names it in diagnostics.
    public init(text: String, path: String) throws {
        try self.init(text: text, path: path, notUTF8: [])
    }

    /// Reads `text`, whose scalars at the indexes `notUTF8` stand for bytes that were not
    /// UTF-8 (refused in a name or value, skipped in a comment); refused at its first NUL
    /// before anything else.
    private init(text: String, path: String, notUTF8: [Int]) throws {
        var reader = Reader(Array(text.unicodeScalars), notUTF8: notUTF8)
        variables = []
        var diagnostics: [Diagnostic] = []
        if let nul = reader.firstNUL {
            throw ConfigurationError(.invalid, [reader.problem("a NUL character (U+0000), which no environment variable can hold", atScalar: nul).diagnostic(path)])
        }
        while !reader.atEnd {
            do {
                if let variable = try reader.variable() { variables.append(variable) }
            } catch let problem as Problem {
                // The first hundred said: a file of a million bad lines (a binary named by
                // mistake) is refused without a million lines of errors.
                guard diagnostics.count < Self.diagnosticsSaid else {
                    diagnostics.append(Diagnostic(.error, at: SourceLocation(file: path), "more lines are not NAME=value; the first \(Self.diagnosticsSaid) are said above"))
                    break
                }
                diagnostics.append(problem.diagnostic(path))
                reader.skipLine()
            }
        }
        guard diagnostics.isEmpty else { throw ConfigurationError(.invalid, diagnostics) }
    }

    private struct Problem: Error {
        var line: Int
        var column: Int
        var message: String

        /// Said at its line and column of the file at `path`.
        func diagnostic(_ path: String) -> Diagnostic {
            Diagnostic(.error, at: SourceLocation(file: path, line: line, column: column), message)
        }
    }

    /// The text's scalars, read once from the start, with the line and column of each.
    private struct Reader {
        private let scalars: [Unicode.Scalar]
        private var position = 0
        private var line = 1, lineStart = 0

        /// The scalars that stand for bytes not UTF-8, and how many of them are behind.
        private let notUTF8: [Int]
        private var notUTF8Passed = 0

        init(_ scalars: [Unicode.Scalar], notUTF8: [Int]) { (self.scalars, self.notUTF8) = (scalars, notUTF8) }

        var atEnd: Bool { position >= scalars.count }
        private var next: Unicode.Scalar? { position < scalars.count ? scalars[position] : nil }

        private static func isBreak(_ scalar: Unicode.Scalar?) -> Bool { scalar == "\n" || scalar == "\r" }
        private static func isBlank(_ scalar: Unicode.Scalar?) -> Bool { scalar == " " || scalar == "\t" }

        /// The next scalar, counted into the line and column: LF, CR LF and a lone CR
        /// each end a line.
        private mutating func advance() -> Unicode.Scalar {
            let scalar = scalars[position]
            position += 1
            if scalar == "\n" || (scalar == "\r" && next != "\n") { (line, lineStart) = (line + 1, position) }
            return scalar
        }

        /// Where the text holds a NUL, which `setenv` would cut a value at.
        var firstNUL: Int? { scalars.firstIndex(of: "\0") }

        /// `message` at the scalar `index`, its line and column counted as reading counts them.
        func problem(_ message: String, atScalar index: Int) -> Problem {
            var scan = self
            while scan.position < index { _ = scan.advance() }
            return scan.problem(message)
        }

        private func problem(_ message: String, at position: Int? = nil) -> Problem {
            Problem(line: line, column: (position ?? self.position) - lineStart + 1, message: message)
        }

        /// Past the end of the line (a comment's, or after an error, so that the next
        /// line is read on its own).
        mutating func skipLine() {
            while next != nil, !Self.isBreak(next) { _ = advance() }
            skipBreak()
        }

        /// Past one line break, CR LF being one.
        private mutating func skipBreak() {
            if next == "\r" { _ = advance() }
            if next == "\n" { _ = advance() }
        }

        private mutating func skipBlanks() { while Self.isBlank(next) { _ = advance() } }

        /// The variable the next line sets, nil for a blank or comment line; past the
        /// line (or the lines its value spans) either way.
        mutating func variable() throws -> (name: String, value: String)? {
            while Self.isBlank(next) || Self.isBreak(next) { _ = advance() }
            guard let first = next else { return nil }
            if first == "#" || first == ";" {
                skipLine()
                return nil
            }
            if first == "\u{FEFF}" {
                throw problem("a byte order mark (U+FEFF) before the first name: save the file as UTF-8 without one")
            }
            // Bytes not UTF-8 before this line were in comments, skipped.
            passNotUTF8(before: position)
            let start = self
            // `export NAME=`, as a shell has it; `export =x` sets a variable named export.
            if scalars[position...].starts(with: "export".unicodeScalars), position + 6 < scalars.count, Self.isBlank(scalars[position + 6]) {
                var after = position + 7
                while after < scalars.count, Self.isBlank(scalars[after]) { after += 1 }
                if after < scalars.count, scalars[after] != "=" { position = after }
            }
            let nameStart = position
            while let scalar = next, scalar == "_" || (scalar.isASCII && scalar.properties.isAlphabetic) || ("0"..."9").contains(scalar) {
                _ = advance()
            }
            let name = String(String.UnicodeScalarView(scalars[nameStart..<position]))
            guard !name.isEmpty, !("0"..."9").contains(name.unicodeScalars.first!) else {
                throw problem("expected NAME=value (a name of letters, digits and _)", at: nameStart)
            }
            skipBlanks()
            guard next == "=" else {
                // The line is not echoed: a bare pasted value (a key, a password) is no name.
                throw problem("expected \"=\" here: each line is NAME=value")
            }
            _ = advance()
            let value = try value(of: name)
            // Before the line break: a line refused is skipped to its end, and no further.
            if notUTF8Passed < notUTF8.count, notUTF8[notUTF8Passed] < position {
                throw start.problem("not UTF-8: \(name) would not be the bytes written", atScalar: notUTF8[notUTF8Passed])
            }
            skipBreak()
            return (name, value)
        }

        /// Past the scalars not UTF-8 before `end`.
        private mutating func passNotUTF8(before end: Int) {
            while notUTF8Passed < notUTF8.count, notUTF8[notUTF8Passed] < end { notUTF8Passed += 1 }
        }

        /// The value after `=`, to the line break that ends it (not consumed).
        private mutating func value(of name: String) throws -> String {
            var value: [Unicode.Scalar] = []
            // Where trailing white space of a bare part starts, to be trimmed at the end.
            var trailingBlanks: Int?
            // Once a bare part has started, quotes are characters like any other.
            var bare = false
            skipBlanks()
            while let scalar = next, !Self.isBreak(scalar) {
                switch scalar {
                case "'" where !bare, "\"" where !bare:
                    let (openLine, openLineStart, opened) = (line, lineStart, position)
                    _ = advance()
                    var closed = false
                    while !atEnd {
                        let inside = advance()
                        if inside == scalar { closed = true; break }
                        if scalar == "\"", inside == "\\", let escaped = next {
                            _ = advance()
                            if escaped == "\n" { continue }
                            if !"\"\\`$".unicodeScalars.contains(escaped) { value.append("\\") }
                            value.append(escaped)
                        } else {
                            value.append(inside)
                        }
                    }
                    guard closed else {
                        throw Problem(line: openLine, column: opened - openLineStart + 1, message: "a quoted value of \(name) is never closed")
                    }
                    trailingBlanks = nil
                    skipBlanks()
                    if next == "#" {
                        throw problem("a comment after the quoted value of \(name): systemd would take it as part of the value; put it on a line of its own")
                    }
                case "\\":
                    // Before CR LF, only the CR is taken: the LF ends the value (systemd's reading).
                    _ = advance()
                    (trailingBlanks, bare) = (nil, true)
                    if let escaped = next {
                        _ = advance()
                        if !Self.isBreak(escaped) { value.append(escaped) }
                    }
                default:
                    _ = advance()
                    bare = true
                    if Self.isBlank(scalar) {
                        if trailingBlanks == nil { trailingBlanks = value.count }
                    } else {
                        trailingBlanks = nil
                    }
                    value.append(scalar)
                }
            }
            if let trailingBlanks { value.removeLast(value.count - trailingBlanks) }
            return String(String.UnicodeScalarView(value))
        }
    }

    /// Sets the file's variables in this process's environment, once, as a command starts
    /// (``ProcessEnvironment/setAtStart(_:)``).
    public func apply() {
        ProcessEnvironment.setAtStart(lastValues)
    }

    /// What this reading of the file changes in the environment Chime reads
    /// (``ProcessEnvironment/changes(to:)``), for ``ProcessEnvironment/replaceChanges(_:)``.
    public func changes() -> [String: String?] {
        ProcessEnvironment.changes(to: lastValues)
    }

    /// Each name's value, the last of a name the file repeats.
    public var lastValues: [String: String] {
        var last: [String: String] = [:]
        for (name, value) in variables { last[name] = value }
        return last
    }
}
