import ChimeCore
import Foundation

/// Resolves `${NAME}`, `${file:/path}` and whole-value `file:/path` in attribute values,
/// so that secrets need not be written in `chime.xml`.
///
/// Errors name the variable or the file, never a value read through them.
struct Indirection {
    struct Failure: Error {
        var message: String
    }

    /// A resolved value, and whether any of it came from the environment or a file (such
    /// a value may be secret and is never repeated in a message).
    struct Value {
        var text: String
        var isIndirect: Bool
        /// The pieces read from the environment or files: what must never be printed.
        var secrets: [String] = []

        /// The value as an error may quote it: the text, unless it came through
        /// indirection (then it may be a secret).
        var shown: String { isIndirect ? "the value given through indirection" : "\"\(text)\"" }
    }

    var environment: [String: String]

    /// - Parameters:
    ///   - wholeFile: whether a value `file:/path` stands for the file's content (false
    ///     for a channel's `url`, where `file:` is a transport).
    ///   - isURL: whether the value is a URL: a reference written between its `://` and
    ///     the `@` that ends its user and password (`smtp://bot:${SMTP_PASSWORD}@host`) is
    ///     percent-encoded, so that a password holding `@`, `/`, `:`, `#` or `%` stays the
    ///     password (URLComponents decodes it again) rather than becoming part of the host.
    func resolve(_ raw: String, wholeFile: Bool = true, isURL: Bool = false) throws(Failure) -> Value {
        if wholeFile, raw.hasPrefix("file:/") {
            let content = try read(String(raw.dropFirst("file:".count)))
            return Value(text: content, isIndirect: true, secrets: [content])
        }
        guard raw.contains("$") else { return Value(text: raw, isIndirect: false) }
        let userInfo = isURL ? Self.userInfo(of: raw) : nil
        var result = ""
        var secrets: [String] = []
        var rest = Substring(raw)
        while let dollar = rest.firstIndex(of: "$") {
            result += rest[..<dollar]
            rest = rest[dollar...]
            if rest.hasPrefix("$${") {
                result += "${"
                rest = rest.dropFirst(3)
            } else if rest.hasPrefix("${") {
                guard let close = rest.firstIndex(of: "}") else {
                    throw Failure(message: "\"${\" without a closing \"}\" (write $${ for a literal ${)")
                }
                let name = rest[rest.index(rest.startIndex, offsetBy: 2)..<close]
                let value = try lookUp(String(name))
                if let userInfo, userInfo.contains(dollar) {
                    result += value.addingPercentEncoding(withAllowedCharacters: Self.unreserved) ?? value
                } else {
                    result += value
                }
                secrets.append(value)
                rest = rest[rest.index(after: close)...]
            } else {
                result += "$"
                rest = rest.dropFirst()
            }
        }
        result += rest
        return Value(text: result, isIndirect: !secrets.isEmpty, secrets: secrets)
    }

    /// The largest file behind `file:` read: a secret, a password, a webhook's URL.
    static let largestFile = 1 << 20

    /// RFC 3986's unreserved characters: what a value put into a URL's user information
    /// keeps as it is.
    private static let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    /// The span of a URL as written, references unresolved, between its `://` and the
    /// `@` ending its user information: the first `@`, `/`, `?` or `#` written outside a
    /// reference must be an `@`. Nil when the URL has no `://` before any reference (the
    /// whole URL from one variable) or no user information.
    private static func userInfo(of raw: String) -> Range<String.Index>? {
        guard let scheme = raw.range(of: "://"), !raw[..<scheme.lowerBound].contains("$") else { return nil }
        var index = scheme.upperBound
        while index < raw.endIndex {
            let rest = raw[index...]
            if rest.hasPrefix("$${") {
                index = raw.index(index, offsetBy: 3)
            } else if rest.hasPrefix("${"), let close = rest.firstIndex(of: "}") {
                index = raw.index(after: close)
            } else {
                switch raw[index] {
                case "@": return scheme.upperBound..<index
                case "/", "?", "#": return nil
                default: index = raw.index(after: index)
                }
            }
        }
        return nil
    }

    private func lookUp(_ name: String) throws(Failure) -> String {
        if name.hasPrefix("file:") {
            return try read(String(name.dropFirst("file:".count)))
        }
        guard !name.isEmpty, name.allSatisfy({ $0 == "_" || ($0.isASCII && ($0.isLetter || $0.isNumber)) }) else {
            throw Failure(message: "\"${\(name)}\" is not an environment variable name (letters, digits and _)")
        }
        guard let value = environment[name] else {
            throw Failure(message: "environment variable \(name) is not set")
        }
        return value
    }

    /// The file's content, without one trailing newline (as secret files usually end).
    private func read(_ path: String) throws(Failure) -> String {
        guard path.hasPrefix("/") else {
            throw Failure(message: "file: indirection needs an absolute path, as in file:/run/secrets/name")
        }
        let bytes: [UInt8]
        do {
            bytes = try BoundedFile.read(path, atMost: Self.largestFile)
        } catch {
            throw Failure(message: "cannot read file:\(path): \(error == .missing ? "it does not exist" : error.reason)")
        }
        guard var text = String(validating: bytes, as: UTF8.self) else {
            throw Failure(message: "file:\(path) is not UTF-8 text")
        }
        if text.hasSuffix("\r\n") {
            text.removeLast(2)
        } else if text.hasSuffix("\n") {
            text.removeLast()
        }
        return text
    }
}
