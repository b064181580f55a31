internal import CChimeCurl
import Foundation

/// Reads one IMAP mailbox through libcurl, over one easy handle and so one connection:
/// the unseen messages' UIDs, each message, then a flag or a move once it is handled.
///
/// libcurl's IMAP has a URL for fetching a message (`…/INBOX;UID=7`, which sends
/// `UID FETCH 7 BODY[]` and parses the literal); everything else goes as a custom
/// command on the selected mailbox. The fetch sets `\Seen`, as `BODY[]` does: a
/// reader that must survive being killed between fetching and handling marks the
/// message first (``mark(_:_:)`` with a keyword) and looks for the mark again.
public final class IMAPClient {
    private let easy: CurlEasy
    private let mailboxURL: String

    /// Opens nothing yet: the first command connects, logs in and selects `mailbox`.
    public init(_ server: MailServer, mailbox: String) throws {
        easy = try CurlEasy(timeouts: server.timeouts)
        // The mailbox is a URL path segment: everything but unreserved characters escaped.
        let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
        let segment = mailbox.addingPercentEncoding(withAllowedCharacters: unreserved) ?? mailbox
        mailboxURL = server.url + "/" + segment
        try easy.apply(server)
        // libcurl keeps only the first 40 bytes of a reply line longer than half its
        // buffer (16 KB by default), and the UIDs of `UID SEARCH` come on one line: with
        // 3,000 unseen messages, most of them were never seen and cut numbers named
        // messages that do not exist. 8 MiB (libcurl takes up to 10) holds a line of some
        // 500,000 UIDs.
        try easy.check(chime_curl_setopt_long(easy.handle, CURLOPT_BUFFERSIZE, Self.bufferSize))
        // The protocol lines, so that a refused command's error carries the server's words.
        try easy.recordDialogues()
    }

    static let bufferSize = 8 << 20

    /// The UIDs of the messages matching an IMAP search, e.g. `UNSEEN`, in order.
    public func search(_ criteria: String) throws -> [UInt64] {
        let lines = String(decoding: try command("UID SEARCH \(criteria)"), as: UTF8.self)
        var uids: [UInt64] = []
        for line in lines.split(whereSeparator: \.isNewline) where line.hasPrefix("* SEARCH") {
            uids += line.dropFirst("* SEARCH".count).split(separator: " ").compactMap { UInt64($0) }
        }
        return uids.sorted()
    }

    /// The size the server gives the message with this UID (`RFC822.SIZE`), nil when it
    /// says none: a message over the size limit is then not fetched at all.
    public func size(uid: UInt64) throws -> Int? {
        let reply = String(decoding: try command("UID FETCH \(uid) (RFC822.SIZE)"), as: UTF8.self)
        guard let label = reply.range(of: "RFC822.SIZE ") else { return nil }
        return Int(reply[label.upperBound...].prefix { $0.isASCII && $0.isNumber })
    }

    /// The whole message with this UID (`BODY[]`, which also sets `\Seen`).
    public func fetch(uid: UInt64) throws -> [UInt8] {
        try transfer(url: "\(mailboxURL);UID=\(uid)", custom: nil)
    }

    /// Adds (`true`) or removes (`false`) flags or keywords, e.g. `\Seen`.
    public func mark(_ uid: UInt64, _ flags: [String], add: Bool = true) throws {
        _ = try command("UID STORE \(uid) \(add ? "+" : "-")FLAGS.SILENT (\(flags.joined(separator: " ")))")
    }

    /// Moves the message to another mailbox (RFC 6851 `MOVE`), creating the mailbox
    /// when the server says it does not exist yet. A `/` in the name stands for the
    /// server's own hierarchy delimiter (`.` on many servers), so `Chime/Handled` is a
    /// folder inside another wherever it runs.
    public func move(_ uid: UInt64, to path: String) throws {
        let mailbox = try delimiter().map { path.replacingOccurrences(of: "/", with: String($0)) } ?? path
        do {
            _ = try command("UID MOVE \(uid) \(Self.quoted(mailbox))")
        } catch {
            guard (try? command("CREATE \(Self.quoted(mailbox))")) != nil else { throw error }
            _ = try command("UID MOVE \(uid) \(Self.quoted(mailbox))")
        }
    }

    private var knownDelimiter: Character??

    /// The server's hierarchy delimiter (`LIST "" ""`), nil for a flat namespace.
    private func delimiter() throws -> Character? {
        if let known = knownDelimiter { return known }
        let reply = String(decoding: try command(#"LIST "" """#), as: UTF8.self)
        // * LIST (\Noselect) "." ""
        var found: Character?
        if let line = reply.split(whereSeparator: \.isNewline).first(where: { $0.hasPrefix("* LIST") }),
           let close = line.firstIndex(of: ")") {
            let rest = line[line.index(after: close)...].drop { $0 == " " }
            if rest.hasPrefix("\""), rest.count >= 3 {
                let character = rest[rest.index(after: rest.startIndex)]
                found = character == "\\" ? rest.dropFirst(2).first : character
            }
        }
        knownDelimiter = .some(found)
        return found
    }

    /// Logs in and selects the mailbox: whether the server answers and takes the
    /// credentials. Returns how many messages are unseen.
    public func probe() throws -> Int {
        try search("UNSEEN").count
    }

    /// A custom command on the mailbox; returns the untagged lines it got back.
    private func command(_ text: String) throws -> [UInt8] {
        // libcurl URL-decodes a custom command: a literal % must reach it as %25.
        try transfer(url: mailboxURL, custom: text.replacingOccurrences(of: "%", with: "%25"))
    }

    /// - Throws: ``CurlError`` with the server's last line added to libcurl's words.
    private func transfer(url: String, custom: String?) throws -> [UInt8] {
        let handle = easy.handle
        try easy.check(chime_curl_setopt_string(handle, CURLOPT_URL, url))
        try easy.check(chime_curl_setopt_string(handle, CURLOPT_CUSTOMREQUEST, custom))
        let dialogue = Dialogue()
        do {
            return try easy.recording(dialogue) { try easy.performCollecting() }
        } catch var error as CurlError {
            let reply = Self.refusal(in: dialogue) ?? dialogue.lastReply
            if !reply.isEmpty { error.message += " (server: \(reply))" }
            throw error
        }
    }

    /// The server's last tagged `NO` or `BAD`: why a command failed. libcurl logs out
    /// after it, so the last line was the goodbye (`A006 OK Logout completed`), which the
    /// error quoted instead.
    private static func refusal(in dialogue: Dialogue) -> String? {
        dialogue.lines.last { line in
            guard !line.out, !line.text.hasPrefix("*"), !line.text.hasPrefix("+") else { return false }
            let words = line.text.split(separator: " ", maxSplits: 2)
            return words.count >= 2 && (words[1] == "NO" || words[1] == "BAD")
        }?.text.trimmingLineEnd()
    }

    /// An IMAP quoted string.
    private static func quoted(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }
}
