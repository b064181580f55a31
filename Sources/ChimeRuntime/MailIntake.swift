import Foundation
import Logging
import ChimeActions
import ChimeCore
import ChimeReply

/// How `chime ingest` and `chime fetch` take one message: read and record it, carry out
/// what it asks, answer, and print one line saying what became of it.
public struct MailIntake: Sendable {
    /// Each message taken, by its status, request and recipient (info).
    public static var logger: Logger { Logger(label: "chime.ingest") }

    public var reader: ReplyDesk
    public var actions: ActionDesk
    public var now: Instant

    /// - Parameter failureCode: the exit code of a configuration that cannot take a
    ///   message (a key too short, strings that cannot be read): 75 for `chime ingest`,
    ///   so that the MTA keeps the message until it is mended; 65 for `chime fetch`, whose
    ///   messages wait in their mailbox anyway, and whose cron wrapper would take 75 for
    ///   "try again later".
    public init(_ runtime: Runtime, configuration: Configuration, store: any NotificationStore, failureCode: Int32 = 75) throws {
        do {
            (reader, actions) = try runtime.replyDesks(configuration: configuration, store: store, failureCode: failureCode)
        } catch is RuntimeFailure {
            // Said already.
            throw RuntimeFailure(failureCode)
        } catch {
            printError("cannot read the signing key: \(error)")
            throw RuntimeFailure(failureCode)
        }
        now = runtime.instant
    }

    /// Answers wait for ``publish(_:)`` from now on (see ``ActionDesk/batchAnswers()``).
    /// For ``takeMaildir(_:)``.
    public func batch() {
        actions.batchAnswers()
    }

    /// Makes answers taken out (``ActionDesk/takeAnswers()``) durable and visible.
    /// - Throws: `RuntimeFailure(75)` when they cannot be written.
    public func publish(_ answers: KeptAnswers) throws {
        do {
            try actions.publishAnswers(answers)
        } catch {
            printError("answers could not be written, try again later: \(error)")
            throw RuntimeFailure(75)
        }
    }

    /// Takes the message on standard input (an MTA pipe): read up to the size limit, the
    /// rest of a larger one read and dropped (the MTA is told it was taken).
    public func takeStandardInput() throws -> String {
        let limit = reader.configuration.replies.maxMessageSize
        var bytes: [UInt8] = [], size = 0
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = read(0, &buffer, buffer.count)
            if count < 0, errno == EINTR { continue }
            // Standard input left non-blocking by the process that started chime: waited for.
            if count < 0, errno == EAGAIN || errno == EWOULDBLOCK {
                var ready = pollfd(fd: 0, events: Int16(POLLIN), revents: 0)
                _ = poll(&ready, 1, -1)
                continue
            }
            // A read that failed is not the message's end: the MTA keeps it for another try.
            if count < 0 {
                printError("stdin: could not be read, try again later: \(String(cString: strerror(errno)))")
                throw RuntimeFailure(75)
            }
            guard count > 0 else { break }
            size += count
            if size <= limit { bytes += buffer[..<count] } else if !bytes.isEmpty { bytes = [] }
        }
        return try take(size > limit ? nil : bytes, size: size, named: "stdin")
    }

    /// Takes one message and returns the line that says what became of it, `name`
    /// standing for the message. Safe to call from several threads at once.
    public func take(_ bytes: [UInt8], named name: String) throws -> String {
        try take(bytes, size: bytes.count, named: name)
    }

    /// Takes one message of `size` bytes, or records it as too large (`bytes` nil, or
    /// over the limit) without reading it.
    /// - Throws: `RuntimeFailure(75)` when it could not be recorded now: the message must be
    ///   kept for another try.
    public func take(_ bytes: [UInt8]?, size: Int, named name: String) throws -> String {
        do {
            return try takeOrDefer(bytes, size: size, named: name)
        } catch is InFlight {
            throw RuntimeFailure(75)
        }
    }

    /// ``take(_:size:named:)``, throwing ``InFlight`` for a message whose answer another
    /// process is carrying out, so that a mailbox's run goes on past it.
    func takeOrDefer(_ bytes: [UInt8]?, size: Int, named name: String) throws -> String {
        try take(prepare(bytes, size: size), named: name)
    }

    /// A message of `size` bytes read as far as it can be without the store
    /// (``ReplyDesk/prepare(_:)``, which leaves one over the limit unread), or left unread
    /// (`bytes` nil). Safe on any thread.
    func prepare(_ bytes: [UInt8]?, size: Int) -> PreparedMessage {
        bytes.map(reader.prepare) ?? .unread(size: size)
    }

    /// Takes a message ``prepare(_:size:)`` read.
    /// - Throws: `RuntimeFailure(75)` when it could not be recorded now.
    func take(_ message: PreparedMessage, named name: String) throws -> String {
        settle(try record(message, named: name), named: name)
    }

    /// Reads and records a message ``prepare(_:size:)`` read: the first half of
    /// ``take(_:named:)``, whose second is ``settle(_:named:)``.
    /// - Throws: `RuntimeFailure(75)` when it could not be recorded now.
    func record(_ message: PreparedMessage, named name: String) throws -> Reply {
        do {
            return try reader.handle(message, now: now)
        } catch {
            printError("\(name): not recorded, try again later: \(error)")
            throw error is ResponseInFlight ? InFlight() : RuntimeFailure(75)
        }
    }

    /// A message whose answer is being carried out by another process now (a hook
    /// running): left for the next run, as any message not recorded is, while the others
    /// of a Maildir or a mailbox are still taken (the run stopped at it, and every reply
    /// after it waited for the hook's whole timeout). The run exits 75 all the same.
    struct InFlight: Error {}

    /// Carries out a reply just recorded and answers it; the line that says what became of
    /// it. What fails here is said on standard error, not retried: the reply is recorded.
    func settle(_ reply: Reply, named name: String) -> String {
        let record = reply.record
        var line = "\(name): \(record.outcome.rawValue)\(record.detail.isEmpty ? "" : ": " + record.detail)"
        // Recorded: what follows (hooks, the answer) is carried out once; a failure
        // here is reported, not retried by the MTA, which would only be told "replayed".
        do {
            let outcome = try actions.settle(reply, now: now)
            if let status = outcome?.status, !status.isEmpty { line += " (\(status))" }
            // One line: each line feed a space. Byte by byte (Foundation's
            // `replacingOccurrences` bridged the answer, 18,000 instructions a reply).
            if let answer = outcome?.answer {
                line += " — answered: " + String(decoding: answer.utf8.map { $0 == 0x0A ? 0x20 : $0 }, as: UTF8.self)
            }
        } catch {
            printError("\(name): recorded, but carrying it out failed: \(reader.configuration.redact("\(error)"))")
        }
        var metadata: Logger.Metadata = ["reply.status": .string(record.outcome.rawValue), "reply.message": .string(name)]
        if let request = reply.request {
            metadata["notification.id"] = .string(request.identifier)
            metadata["recipient.id"] = .string(request.recipient)
        }
        if let action = reply.response?.action { metadata["action"] = .string(action) }
        Self.logger.info("reply taken", metadata: metadata)
        // What a message said goes to the MTA's log: no control character of its reaches it.
        return printable(line)
    }
}
