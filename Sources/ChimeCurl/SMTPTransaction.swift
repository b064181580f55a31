import Glibc

/// One message's transaction over an ``SMTPConnection`` (RFC 5321 §3.3): MAIL, each RCPT
/// and DATA, all written at once when the server offers PIPELINING (RFC 2920) or one at a
/// time when not; then the data, dot-stuffed; every reply read in its turn.
struct SMTPTransaction {
    typealias Failure = SMTPClient.Failure

    let connection: SMTPConnection
    let recipients: [String]
    let deadline: Deadline

    /// The connection is unusable now (lost, timed out, or the server said 421).
    struct Interrupted: Error {
        var failure: Failure
        /// None of the message's data was written and the connection was found closed (or
        /// closing): nothing can have been delivered, so a new connection may try again.
        var beforeData: Bool
    }

    /// How a transaction ended, when the connection lasted that long.
    struct Finished {
        var result: Result<SMTPClient.Sent, Failure>
        /// The replies to `following`'s envelope, when it was written with the data.
        var following: [SMTPConnection.Reply]?
        /// False: the connection broke or is closing after this message's end was known.
        var usable: Bool
    }

    /// Runs the transaction: `commands` are MAIL, one RCPT per recipient, DATA.
    /// - Parameters:
    ///   - ready: the replies to `commands`, when they were written with the message
    ///     before's data (its `following`) and read then.
    ///   - following: the next message's envelope, written with this one's data when the
    ///     server offers PIPELINING (RFC 2920 allows the data first in a group): one round
    ///     trip a message rather than two, when messages follow one another.
    /// - Throws: ``Interrupted`` when the connection broke before this message's end was
    ///   known.
    func run(_ commands: [String], message: [UInt8], ready: [SMTPConnection.Reply]? = nil, following: [String]? = nil) throws -> Finished {
        var dataSent = false
        func ended(_ failure: Failure) -> Finished { Finished(result: .failure(failure), following: nil, usable: true) }
        do {
            let replies = try ready ?? envelope(commands)
            let mail = replies[0]
            guard mail.positive else {
                try endUnaccepted(replies)
                return ended(Failure(refusing: mail, of: "MAIL FROM", refused: []))
            }
            var accepted: [String] = [], refused: [SMTPClient.Refusal] = []
            for (recipient, reply) in zip(recipients, replies.dropFirst()) {
                if reply.positive { accepted.append(recipient) } else { refused.append(.init(recipient: recipient, code: reply.code, reply: reply.line)) }
            }
            guard !accepted.isEmpty else {
                try endUnaccepted(replies)
                try reset()
                // Worth another try when any recipient's refusal was temporary.
                let worst = refused.first { $0.code < 500 } ?? refused.last!
                return ended(Failure(refusing: .init(code: worst.code, line: worst.reply), of: "every recipient", refused: refused))
            }
            let data = replies[commands.count - 1]
            guard data.code == 354 else {
                try reset()
                return ended(Failure(refusing: data, of: "DATA", refused: refused))
            }
            dataSent = true
            try connection.write(Self.dataBlock(message) + SMTPConnection.lines(following ?? []), until: deadline)
            let end = try connection.reply(until: deadline)
            try closing(end, dataSent: true)
            let result: Result<SMTPClient.Sent, Failure> = end.positive
                ? .success(SMTPClient.Sent(accepted: accepted, refused: refused, reply: end.line))
                : .failure(Failure(refusing: end, of: "the message", refused: refused))
            guard let following else { return Finished(result: result, following: nil, usable: true) }
            // This message's end is known; the next one's envelope may still break.
            do {
                var replies: [SMTPConnection.Reply] = []
                for _ in following {
                    replies.append(try connection.reply(until: deadline))
                    if replies.last!.code == 421 { return Finished(result: result, following: nil, usable: false) }
                }
                return Finished(result: result, following: replies, usable: true)
            } catch {
                return Finished(result: result, following: nil, usable: false)
            }
        } catch let broken as SMTPConnection.Broken {
            throw Interrupted(failure: Failure(broken), beforeData: !dataSent && broken.lost)
        }
    }

    /// The envelope's replies: MAIL's, then each RCPT's, then DATA's. Without pipelining
    /// each command waits for the reply before it, and those after a refused MAIL, or
    /// DATA after every RCPT refused, are not sent (their replies are missing).
    private func envelope(_ commands: [String]) throws -> [SMTPConnection.Reply] {
        var replies: [SMTPConnection.Reply] = []
        replies.reserveCapacity(commands.count)
        if connection.extensions.pipelining {
            try connection.write(commands: commands, until: deadline)
            for _ in commands {
                replies.append(try connection.reply(until: deadline))
                try closing(replies.last!, dataSent: false)
            }
            return replies
        }
        for command in commands {
            try connection.write(commands: [command], until: deadline)
            replies.append(try connection.reply(until: deadline))
            try closing(replies.last!, dataSent: false)
            if !replies[0].positive { break }
            if replies.count == commands.count - 1 && !replies.dropFirst().contains(where: \.positive) { break }
        }
        return replies
    }

    /// A pipelined DATA that the server went ahead with (354) although nobody was
    /// accepted gets its data ended at once, empty, as RFC 2920 §3.1 says. (Without
    /// pipelining, DATA is not sent then: its reply is missing.)
    private func endUnaccepted(_ replies: [SMTPConnection.Reply]) throws {
        guard replies.count == recipients.count + 2, replies.last!.code == 354 else { return }
        try connection.write(commands: ["."], until: deadline)
        try closing(try connection.reply(until: deadline), dataSent: true)
    }

    /// Ends a transaction that MAIL opened and that goes no further (RSET), so the next
    /// message starts clean.
    private func reset() throws {
        try connection.write(commands: ["RSET"], until: deadline)
        let reply = try connection.reply(until: deadline)
        try closing(reply, dataSent: false)
        guard reply.positive else {
            // The connection's state is not known: it goes, and the message is tried again.
            var failure = Failure(refusing: reply, of: "RSET", refused: [])
            failure.temporary = true
            throw Interrupted(failure: failure, beforeData: false)
        }
    }

    /// A 421: the server is closing the connection.
    private func closing(_ reply: SMTPConnection.Reply, dataSent: Bool) throws {
        guard reply.code == 421 else { return }
        throw Interrupted(failure: Failure(temporary: true, code: 421, message: "the server is closing the connection (server: \(reply.line))", refused: []),
                          beforeData: !dataSent)
    }

    /// The message as DATA sends it (RFC 5321 §4.5.2): a line starting with "." gets one
    /// more, and the data ends with CRLF "." CRLF. `message` has CRLF line ends.
    static func dataBlock(_ message: [UInt8]) -> [UInt8] {
        var block: [UInt8] = []
        block.reserveCapacity(message.count + 8)
        message.withUnsafeBufferPointer { source in
            var start = 0, lineStart = 0
            while lineStart < source.count {
                if source[lineStart] == 0x2E {
                    block.append(contentsOf: source[start..<lineStart])
                    block.append(0x2E)
                    start = lineStart
                }
                guard let found = memchr(source.baseAddress! + lineStart, 0x0A, source.count - lineStart) else { break }
                lineStart = source.baseAddress!.distance(to: found.assumingMemoryBound(to: UInt8.self)) + 1
            }
            block.append(contentsOf: source[start...])
        }
        if !(block.count >= 2 && block[block.count - 2] == 0x0D && block[block.count - 1] == 0x0A) && !block.isEmpty {
            block += [0x0D, 0x0A]
        }
        block += [0x2E, 0x0D, 0x0A]
        return block
    }
}
