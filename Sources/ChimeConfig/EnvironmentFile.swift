import ChimeCore
import Foundation
import Synchronization

/// A file of `NAME=value` lines, as systemd's `EnvironmentFile=` reads them: the secrets
/// (`CHIME_SECRET_KEY`, what `${NAME}` in chime.xml names) that every entry point of a
/// deployment — units, cron, the MTA pipe, a container — reads from the one file
/// (`--env-file`, `$CHIME_ENV_FILE`). Written by hand: no Swift package reads this format.
///
/// Blank lines and lines starting with `#` or `;` are skipped; `export ` before a name is
/// allowed; a value may be bare (surrounding white space trimmed), in single quotes
/// (taken as written) or in double quotes (`\"`, `\\`, `\$`, `\n` escaped). One pass over
/// the bytes, at most ``largest`` of them.
public struct EnvironmentFile: Sendable {
    /// The variables in the order the file gives them (a repeated name: the last wins).
    public var variables: [(name: String, value: String)]

    /// The largest file read: secrets are short, and this is read on every command.
    public static let largest = 1 << 20

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
        try self.init(text: String(decoding: bytes, as: UTF8.self), path: path)
    }

    /// Reads `text`; `path` names it in diagnostics.
    public init(text: String, path: String) throws {
        variables = []
        var diagnostics: [Diagnostic] = []
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            do {
                if let variable = try Self.variable(in: line) { variables.append(variable) }
            } catch let problem as Problem {
                diagnostics.append(Diagnostic(.error, at: SourceLocation(file: path, line: index + 1, column: problem.column), problem.message))
            }
        }
        guard diagnostics.isEmpty else { throw ConfigurationError(.invalid, diagnostics) }
    }

    private struct Problem: Error {
        var column: Int
        var message: String
    }

    /// The variable a line sets, nil for a blank or comment line.
    private static func variable(in line: Substring) throws -> (name: String, value: String)? {
        let characters = Array(line.unicodeScalars)
        var position = 0
        func skipBlanks() { while position < characters.count, characters[position] == " " || characters[position] == "\t" || characters[position] == "\r" { position += 1 } }
        skipBlanks()
        guard position < characters.count, characters[position] != "#", characters[position] != ";" else { return nil }
        if characters[position...].starts(with: "export ".unicodeScalars) { position += 7; skipBlanks() }
        let nameStart = position
        while position < characters.count, characters[position] == "_" || (characters[position].isASCII && characters[position].properties.isAlphabetic)
                || ("0"..."9").contains(characters[position]) {
            position += 1
        }
        let name = String(String.UnicodeScalarView(characters[nameStart..<position]))
        guard !name.isEmpty, !("0"..."9").contains(name.unicodeScalars.first!) else {
            throw Problem(column: nameStart + 1, message: "expected NAME=value (a name of letters, digits and _)")
        }
        skipBlanks()
        guard position < characters.count, characters[position] == "=" else {
            // The line is not echoed: a bare pasted value (a key, a password) is no name.
            throw Problem(column: position + 1, message: "expected \"=\" here: each line is NAME=value")
        }
        position += 1
        skipBlanks()
        var value = String.UnicodeScalarView()
        if position < characters.count, characters[position] == "'" || characters[position] == "\"" {
            let quote = characters[position]
            let opened = position + 1
            position += 1
            var closed = false
            while position < characters.count {
                let scalar = characters[position]
                position += 1
                if scalar == quote { closed = true; break }
                if quote == "\"", scalar == "\\", position < characters.count {
                    let escaped = characters[position]
                    position += 1
                    value.append(escaped == "n" ? "\n" : escaped)
                } else {
                    value.append(scalar)
                }
            }
            guard closed else { throw Problem(column: opened, message: "a quoted value of \(name) is never closed") }
            skipBlanks()
            guard position == characters.count || characters[position] == "#" else {
                throw Problem(column: position + 1, message: "unexpected text after the quoted value of \(name)")
            }
        } else {
            value.append(contentsOf: characters[position...])
            while let last = value.last, last == " " || last == "\t" || last == "\r" { value.removeLast() }
        }
        return (name, String(value))
    }

    /// Sets each variable in this process's environment where the environment does not
    /// already name it (what a unit or a shell sets explicitly wins); of a name the file
    /// repeats, the last value. A file applied again (`chime serve` on SIGHUP, after a
    /// secret was rotated) replaces what an earlier one set, and takes away what it set
    /// and no longer names; what the process started with still wins.
    public func apply() {
        var last: [String: String] = [:]
        for (name, value) in variables { last[name] = value }
        Self.fromFile.withLock { fromFile in
            for name in fromFile where last[name] == nil {
                unsetenv(name)
                fromFile.remove(name)
            }
            for (name, value) in last where fromFile.contains(name) || getenv(name) == nil {
                setenv(name, value, 1)
                fromFile.insert(name)
            }
        }
    }

    /// The names an environment file set in this process (not the ones it started with).
    private static let fromFile = Mutex<Set<String>>([])
}
