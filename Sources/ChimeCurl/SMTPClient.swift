internal import CChimeCurl
import Glibc

/// Sends messages to one SMTP server over one connection, kept open from one message to
/// the next: libcurl connects, upgrades to TLS and logs in, and each message's transaction
/// is spoken by ``SMTPConnection``, pipelined when the server offers it (RFC 2920).
///
/// TLS and credentials are the ``MailServer``'s. Each recipient's RCPT reply is read, so a
/// message refused for one recipient still goes to the others and the refusal is known.
public final class SMTPClient {
    /// A recipient the server refused at RCPT, with its reply.
    public struct Refusal: Hashable, Sendable {
        public var recipient: String
        public var code: Int
        public var reply: String
    }

    /// The server took the message (250 after DATA) for `accepted`.
    public struct Sent: Sendable {
        public var accepted: [String]
        public var refused: [Refusal]
        /// The reply to the end of the data, e.g. `250 OK: queued as 1234`.
        public var reply: String
    }

    /// The message was not taken by anyone.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        /// A 4xx reply, or no reply at all (connection refused, reset, timed out): try
        /// again later. A 5xx reply, a refused certificate or STARTTLS missing when
        /// required: trying again will not help.
        public var temporary: Bool
        /// The last SMTP reply code, 0 when the server never answered.
        public var code: Int
        public var message: String
        public var refused: [Refusal]
        /// No connection could be made at all: later messages will fare no better now.
        public var unreachable: Bool = false
        public var description: String { message }
    }

    /// Whom a message is from and to, its size, and whether its header is UTF-8: what its
    /// envelope says.
    public struct Envelope: Hashable, Sendable {
        public var from: String
        public var recipients: [String]
        public var size: Int
        /// A byte beyond ASCII in the message's header (RFC 6532): it needs SMTPUTF8 too.
        public var utf8Header: Bool

        public init(from: String, recipients: [String], size: Int, utf8Header: Bool = false) {
            self.from = from
            self.recipients = recipients
            self.size = size
            self.utf8Header = utf8Header
        }

        /// The envelope of `message` (CRLF line ends), from `from` to each of `to`.
        public init(from: String, recipients: [String], message: [UInt8]) {
            self.init(from: from, recipients: recipients, size: message.count, utf8Header: SMTPClient.hasUTF8Header(message))
        }
    }

    private let server: MailServer
    private var connection: SMTPConnection?
    /// The envelope written with the last message's data, and its replies: the next
    /// ``send(from:to:message:then:)`` must be for it. The server may be waiting for its
    /// data (354), so the connection can only be dropped, not used otherwise, until then.
    private var prepared: (envelope: Envelope, replies: [SMTPConnection.Reply])?

    /// Keeps the server's settings; the connection is made by the first message.
    /// - Throws: ``CurlError`` when libcurl cannot be loaded.
    public init(_ server: MailServer) throws {
        try Curl.initialize()
        self.server = server
    }

    deinit {
        // With a next message's envelope written and its DATA answered, a QUIT would be
        // read as that message's data: the connection is only closed, and the server
        // drops the transaction.
        if prepared == nil { connection?.quit() }
    }

    /// Sends one message (LF or CRLF line ends) from `from` to each of `to`.
    /// - Throws: ``Failure`` when no recipient got it.
    public func send(from: String, to recipients: [String], message: String) throws -> Sent {
        try send(from: from, to: recipients, message: Self.crlf(Array(message.utf8)))
    }

    /// Sends one message's bytes, with CRLF line ends (``crlf(_:)``, done when it was
    /// queued), from `from` to each of `to`.
    ///
    /// With `next`, the message that will be sent next over this client, and a server
    /// offering PIPELINING, that message's envelope is written with this one's data, and
    /// its replies read with this one's: the next call must then be for it (otherwise the
    /// connection is dropped, and the server drops that envelope).
    ///
    /// A connection kept from an earlier message that turns out closed before the server
    /// took any of this one (it closed an idle connection, or said `421` first) is
    /// replaced by a new one, once.
    /// - Throws: ``Failure`` when no recipient got it.
    public func send(from: String, to recipients: [String], message: [UInt8], then next: Envelope? = nil) throws -> Sent {
        try send(Envelope(from: from, recipients: recipients, message: message), message: message, then: next)
    }

    /// ``send(from:to:message:then:)`` with the message's envelope made already (its
    /// header looked at once, whether it goes first or as another's `next`).
    public func send(_ envelope: Envelope, message: [UInt8], then next: Envelope? = nil) throws -> Sent {
        try Self.check(from: envelope.from, to: envelope.recipients)
        // A next message whose envelope would be refused goes alone, and is refused then.
        let next = next.flatMap { next in (try? Self.check(from: next.from, to: next.recipients)).map { next } }
        let deadline = Deadline(milliseconds: server.timeouts.total)
        while true {
            var kept = connection != nil
            var ready: [SMTPConnection.Reply]?
            if let prepared {
                self.prepared = nil
                if prepared.envelope == envelope {
                    ready = prepared.replies
                } else {
                    connection = nil
                    kept = false
                }
            }
            let connection = try self.connection ?? SMTPConnection(server)
            self.connection = connection
            let extensions = connection.extensions
            let written = try Self.written(envelope, extensions)
            // A next message with an address this server cannot be given goes alone.
            let following = extensions.pipelining ? next.flatMap { next in
                (try? Self.written(next, extensions)).flatMap { $0.refused.isEmpty ? (envelope: next, commands: $0.commands) : nil }
            } : nil
            let transaction = SMTPTransaction(connection: connection, recipients: written.recipients, deadline: deadline)
            do {
                let finished = try transaction.run(written.commands, message: message, ready: ready, following: following?.commands)
                if !finished.usable {
                    self.connection = nil
                } else if let following, let replies = finished.following {
                    prepared = (following.envelope, replies)
                }
                // The recipients refused before anything was sent are told with the server's.
                return try finished.result.map { $0.adding(written.refused) }.mapError { $0.adding(written.refused) }.get()
            } catch let interrupted as SMTPTransaction.Interrupted {
                self.connection = nil
                if kept && interrupted.beforeData { continue }
                throw interrupted.failure.adding(written.refused)
            }
        }
    }

    /// Connects, greets, upgrades to TLS and logs in as a send would, then asks `NOOP`:
    /// whether the server can be reached and takes the credentials. Returns its reply.
    /// - Throws: ``Failure`` when it cannot.
    public func probe() throws -> String {
        if prepared != nil {
            prepared = nil
            connection = nil
        }
        let connection = try self.connection ?? SMTPConnection(server)
        self.connection = connection
        let deadline = Deadline(milliseconds: server.timeouts.total)
        do {
            try connection.write(commands: ["NOOP"], until: deadline)
            let reply = try connection.reply(until: deadline)
            guard reply.positive else { throw Failure(refusing: reply, of: "NOOP", refused: []) }
            return reply.line
        } catch let broken as SMTPConnection.Broken {
            self.connection = nil
            throw Failure(broken)
        }
    }

    /// - Throws: ``Failure`` (not temporary) for no recipient, or an address with a line
    ///   break or other control character, which would write a command of its own.
    static func check(from: String, to recipients: [String]) throws(Failure) {
        guard !recipients.isEmpty else { throw Failure(temporary: false, code: 0, message: "a message with no recipient", refused: []) }
        for address in [from] + recipients where address.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F }) {
            throw Failure(temporary: false, code: 0, message: "the address \(address.debugDescription) has a control character", refused: [])
        }
    }

    /// LF line ends as CRLF, as SMTP's DATA has them; CRLF kept. Done when a message is
    /// queued, so the send finds it ready.
    ///
    /// Each line end is found by `memchr` and each line copied whole: appending byte by
    /// byte was 58,000 instructions an email, the most of any function of a run sending
    /// emails (callgrind).
    public static func crlf(_ text: [UInt8]) -> [UInt8] {
        text.withUnsafeBufferPointer { source in
            // The offsets of the LFs that no CR precedes.
            var bare: [Int] = []
            var from = 0
            while from < source.count, let found = memchr(source.baseAddress! + from, 0x0A, source.count - from) {
                let at = source.baseAddress!.distance(to: found.assumingMemoryBound(to: UInt8.self))
                if at == 0 || source[at - 1] != 0x0D { bare.append(at) }
                from = at + 1
            }
            // Messages rendered with CRLF already go as they are.
            guard !bare.isEmpty else { return text }
            return [UInt8](unsafeUninitializedCapacity: source.count + bare.count) { out, count in
                var written = 0, start = 0
                for at in bare + [source.count] {
                    (out.baseAddress! + written).initialize(from: source.baseAddress! + start, count: at - start)
                    written += at - start
                    guard at < source.count else { break }
                    out[written] = 0x0D
                    out[written + 1] = 0x0A
                    written += 2
                    start = at + 1
                }
                count = written
            }
        }
    }
}

extension SMTPClient.Failure {
    /// A reply refusing `what` (a command, "every recipient", "the message"): 4xx is worth
    /// another try, 5xx is not.
    init(refusing reply: SMTPConnection.Reply, of what: String, refused: [SMTPClient.Refusal]) {
        self.init(temporary: reply.code < 500, code: reply.code, message: "\(what) refused (server: \(reply.line))", refused: refused)
    }

    /// A connection lost or timed out before the answer came: worth another try.
    init(_ broken: SMTPConnection.Broken) {
        self.init(temporary: true, code: 0, message: broken.message, refused: [])
    }

    /// A connection libcurl could not make, classified: 4xx replies and lost connections
    /// are temporary; 5xx replies and TLS or login refusals are not. A server that said
    /// nothing before the connect timeout (a firewall dropping the packets, a listener
    /// that never greets) is unreachable, as one refusing the connection is: the run does
    /// not wait out that timeout again for each message queued behind it.
    init(connecting error: CurlError, responseCode: Int, lastReply: String) {
        // A reply below 400 as the last (a greeting, EHLO's 250): no refusal.
        let code = responseCode < 400 ? 0 : responseCode
        let reply = lastReply.isEmpty ? "" : " (server: \(lastReply))"
        let silent = error.code == Int(CURLE_OPERATION_TIMEDOUT.rawValue) && lastReply.isEmpty && responseCode == 0
        self.init(temporary: code >= 500 ? false : code >= 400 ? true : !error.isPermanent, code: code, message: error.message + reply,
                  refused: [], unreachable: error.isUnreachable || silent)
    }
}
