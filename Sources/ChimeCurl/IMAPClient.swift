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
    private let serverURL: String
    private let mailbox: String

    /// Opens nothing yet: the first command connects, logs in and selects `mailbox`. A
    /// `/` in its name stands for the server's hierarchy delimiter, as in ``move(_:to:)``:
    /// `Chime/Replies` is `Chime.Replies` on a server whose delimiter is `.` (Dovecot's
    /// Maildir++), which refused the name with a `/`.
    public init(_ server: MailServer, mailbox: String) throws {
        easy = try CurlEasy(timeouts: server.timeouts)
        serverURL = server.url
        self.mailbox = mailbox
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

    private var knownMailboxURL: String?

    /// The mailbox's URL: a path segment of its name in modified UTF-7, everything but
    /// unreserved characters escaped; asks the server its delimiter first when the name
    /// has a `/`.
    private func mailboxURL() throws -> String {
        if let known = knownMailboxURL { return known }
        let name = mailbox.contains("/") ? try delimiter().map { mailbox.replacingOccurrences(of: "/", with: String($0)) } ?? mailbox : mailbox
        let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
        let url = serverURL + "/" + (Self.modifiedUTF7(name).addingPercentEncoding(withAllowedCharacters: unreserved) ?? name)
        knownMailboxURL = url
        return url
    }

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

    /// The whole message with this UID (`BODY[]`, which also sets `\Seen`), or nil when it
    /// is longer than `limit` bytes: the transfer is cut there, whatever size the server
    /// had given (a server may send more than it said).
    public func fetch(uid: UInt64, limit: Int = .max) throws -> [UInt8]? {
        try transfer(url: "\(try mailboxURL());UID=\(uid)", custom: nil, limit: limit)
    }

    /// Adds (`true`) or removes (`false`) flags or keywords, e.g. `\Seen`.
    public func mark(_ uid: UInt64, _ flags: [String], add: Bool = true) throws {
        _ = try command("UID STORE \(uid) \(add ? "+" : "-")FLAGS.SILENT (\(flags.joined(separator: " ")))")
    }

    /// Moves the message to another mailbox (RFC 6851 `MOVE`; on a server without it, a
    /// copy, then the original flagged `\Deleted` and expunged by its UID where the server
    /// has UIDPLUS, else left flagged for the mail client), creating the mailbox when the
    /// move fails (it may not exist yet; another process may be creating it at the same
    /// moment, so the move is tried again whatever `CREATE` said). A `/` in the name stands
    /// for the server's own hierarchy delimiter (`.` on many servers), so `Chime/Handled`
    /// is a folder inside another wherever it runs. Names are sent in IMAP's modified UTF-7.
    public func move(_ uid: UInt64, to path: String) throws {
        let mailbox = try Self.quoted(Self.modifiedUTF7(try delimiter().map { path.replacingOccurrences(of: "/", with: String($0)) } ?? path))
        let capabilities = try self.capabilities()
        func attempt() throws {
            if capabilities.contains("MOVE") {
                _ = try command("UID MOVE \(uid) \(mailbox)")
                return
            }
            _ = try command("UID COPY \(uid) \(mailbox)")
            try mark(uid, ["\\Deleted"])
            if capabilities.contains("UIDPLUS") { _ = try command("UID EXPUNGE \(uid)") }
        }
        do {
            try attempt()
        } catch {
            _ = try? command("CREATE \(mailbox)")
            try attempt()
        }
    }

    private var knownCapabilities: Set<String>?

    /// What the server says it can do (`CAPABILITY`), upper case.
    private func capabilities() throws -> Set<String> {
        if let known = knownCapabilities { return known }
        let reply = String(decoding: try command("CAPABILITY"), as: UTF8.self)
        let line = reply.split(whereSeparator: \.isNewline).first { $0.hasPrefix("* CAPABILITY ") } ?? ""
        let found = Set(line.dropFirst("* CAPABILITY ".count).split(separator: " ").map { $0.uppercased() })
        knownCapabilities = found
        return found
    }

    /// A mailbox name as IMAP sends it (RFC 3501, 5.1.3, "modified UTF-7"): printable
    /// ASCII as it is, `&` as `&-`, any other run of characters as their UTF-16 in base64
    /// (`,` for `/`, no padding) between `&` and `-`: `Antwörten` is `Antw&APY-rten`.
    /// Written by hand: Foundation has no such encoding.
    static func modifiedUTF7(_ name: String) -> String {
        var encoded = ""
        var run: [UInt8] = []
        func endRun() {
            guard !run.isEmpty else { return }
            let base64 = Data(run).base64EncodedString().replacingOccurrences(of: "/", with: ",").replacingOccurrences(of: "=", with: "")
            encoded += "&" + base64 + "-"
            run = []
        }
        for scalar in name.unicodeScalars {
            if (0x20...0x7E).contains(scalar.value) {
                endRun()
                encoded += scalar == "&" ? "&-" : String(scalar)
            } else {
                for unit in String(scalar).utf16 { run += [UInt8(unit >> 8), UInt8(unit & 0xFF)] }
            }
        }
        endRun()
        return encoded
    }

    private var knownDelimiter: Character??

    /// The server's hierarchy delimiter (`LIST "" ""`), nil for a flat namespace.
    private func delimiter() throws -> Character? {
        if let known = knownDelimiter { return known }
        // On the server, no mailbox selected: the mailbox's own name may need the answer.
        let reply = String(decoding: try transfer(url: serverURL + "/", custom: #"LIST "" """#, limit: .max) ?? [], as: UTF8.self)
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
        try transfer(url: try mailboxURL(), custom: text.replacingOccurrences(of: "%", with: "%25"), limit: .max) ?? []
    }

    /// The untagged lines of a custom command, or the body of a fetch; nil past `limit`.
    /// - Throws: ``CurlError`` with the server's last line added to libcurl's words.
    private func transfer(url: String, custom: String?, limit: Int) throws -> [UInt8]? {
        let handle = easy.handle
        try easy.check(chime_curl_setopt_string(handle, CURLOPT_URL, url))
        try easy.check(chime_curl_setopt_string(handle, CURLOPT_CUSTOMREQUEST, custom))
        let dialogue = Dialogue()
        do {
            return try easy.recording(dialogue) { try easy.performCollecting(limit: limit) }
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

    /// An IMAP quoted string; text with a line break or another control character,
    /// which a quoted string cannot carry (it would end the command), is refused
    /// (`chime check` refuses such a `moveTo` before).
    private static func quoted(_ text: String) throws -> String {
        guard !text.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
            throw CurlError(code: Int(CURLE_BAD_FUNCTION_ARGUMENT.rawValue), message: "a mailbox name with a control character cannot be sent to an IMAP server")
        }
        return "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }
}
