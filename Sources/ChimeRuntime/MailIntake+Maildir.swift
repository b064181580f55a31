import ChimeActions
import ChimeCore
import ChimeReply
import Foundation

extension MailIntake {
    /// Replies handled between two syncs of their answers.
    static let batchSize = 500

    /// Replies recorded and carried out in one transaction of the store: the store is held
    /// for about 30 ms at a time.
    static let repliesPerTransaction = 100

    /// A message of a batch as ``ReadAhead`` left it, prepared; nil when it is gone.
    private func message(_ read: ReadAhead.Read?, named name: String, in folder: String) -> PreparedMessage? {
        switch read {
        case .prepared(let prepared)?: return prepared
        // Past the batch's budget: read now, on this thread.
        case .later?:
            guard let (size, bytes) = Self.readMessage(folder + "/" + name, limit: reader.configuration.replies.maxMessageSize) else { return nil }
            return prepare(bytes, size: size)
        // Gone since the listing: left alone.
        case nil: return nil
        }
    }

    /// Takes every message in a Maildir's `new/`, printing a line for each in the
    /// Maildir's order, and moves each to `cur/` once handled.
    ///
    /// Three steps run at once, on batches of messages: while one thread records and
    /// carries out the replies of a batch, one at a time and in the Maildir's order, the
    /// other cores read the next batch's messages as far as they can be read without the
    /// store (``ReplyDesk/prepare(_:)``), and a thread of its own finishes the batch before:
    /// its answers written and synced to disk at once, then its replies moved to `cur/`.
    /// (Workers that each took a reply from end to end spent as much time handing the
    /// store to one another as they saved: 1.78 s for 5,000 replies on two cores against
    /// 1.92 s on one.) A run that dies leaves the replies of the batches not yet finished
    /// in `new/`, and the next takes them again: recorded once, answered as replays.
    /// - Throws: `RuntimeFailure(66)` when there is no such Maildir; `RuntimeFailure(75)` when a reply
    ///   could not be recorded now (those handled before it are kept handled), or its
    ///   answers not written.
    public func takeMaildir(_ maildir: String) throws {
        let new = maildir + "/new", cur = maildir + "/cur"
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: new).filter { !$0.hasPrefix(".") }.sorted()
        } catch {
            printError("\(new): not a Maildir folder (\(error.localizedDescription))")
            throw RuntimeFailure(66)
        }
        try FileManager.default.createDirectory(atPath: cur, withIntermediateDirectories: true)
        batch()
        let batches = stride(from: 0, to: names.count, by: Self.batchSize).map { Array(names[$0..<min($0 + Self.batchSize, names.count)]) }
        let cores = ProcessInfo.processInfo.activeProcessorCount
        let finisher = Finisher()
        var failure: (any Error)?
        var deferred = false
        // The first batch is read by every core, there being nothing else to do yet.
        var ahead = batches.first.map { ReadAhead(reading: $0, in: new, by: cores, of: self) }
        for (number, batch) in batches.enumerated() {
            // A batch whose answers could not be written stops the run.
            guard let read = ahead, finisher.failure == nil else { break }
            let messages = read.messages()
            ahead = number + 1 < batches.count
                ? ReadAhead(reading: batches[number + 1], in: new, by: max(1, cores - 1), of: self, waiting: false) : nil
            var handled: [(name: String, line: String)] = []
            var answers = KeptAnswers.none
            var items = zip(batch, messages).makeIterator()
            var more = true
            while more, failure == nil {
                // Up to `repliesPerTransaction` replies are recorded and carried out in one
                // transaction, each in a savepoint of its own: one lock and one commit
                // where each reply took two (a sixth of its time went to them: perf).
                var taken: [(name: String, line: String)] = []
                var commanding: (name: String, reply: Reply)?
                do {
                    try actions.store.together {
                        while taken.count < Self.repliesPerTransaction {
                            guard let (name, read) = items.next() else { more = false; return }
                            guard let message = message(read, named: name, in: new) else { continue }
                            let reply: Reply
                            do {
                                reply = try record(message, named: name)
                            } catch is InFlight {
                                // Left in new/ for the next run; the others still taken.
                                deferred = true
                                continue
                            } catch {
                                // Whatever was handled is kept handled, even past a failure.
                                failure = error
                                return
                            }
                            // A command hook does not run while the store is held: after the commit.
                            if actions.runsCommand(settling: reply) {
                                commanding = (name, reply)
                                return
                            }
                            taken.append((name, settle(reply, named: name)))
                        }
                    }
                } catch {
                    // SQLite rolled all of it back (a full disk): the replies stay in new/,
                    // their answers unwritten.
                    _ = actions.takeAnswers()
                    printError("\(new): replies not recorded, try again later: \(error)")
                    failure = RuntimeFailure(75)
                    break
                }
                if let (name, reply) = commanding { taken.append((name, settle(reply, named: name))) }
                handled += taken
                answers = answers.merging(actions.takeAnswers())
            }
            let (moved, kept) = (handled.map(\.name), answers)
            finisher.finish(printing: handled.map(\.line)) { [self] in
                try publish(kept)
                for name in moved {
                    // Searched as bytes: Foundation's `contains` bridged each name.
                    let seen = name.containsBytes(":2,") ? name : name + ":2,S"
                    // One moved meanwhile by someone else is theirs now.
                    if rename(new + "/" + name, cur + "/" + seen) != 0, errno != ENOENT {
                        printError("\(new)/\(name): handled, but could not be moved to cur/")
                        throw RuntimeFailure(75)
                    }
                }
            }
            if failure != nil { break }
        }
        _ = ahead?.messages()
        if let error = finisher.wait() ?? failure { throw error }
        if deferred { throw RuntimeFailure(75) }
    }
}

/// The messages of a batch, read ahead (``MailIntake/prepare(_:size:)``) by `workers`
/// threads: on the calling thread and others until they are read, or (not `waiting`) on
/// others while the caller goes on.
///
/// What a batch keeps read is bounded by ``budget`` bytes of messages: past it (a Maildir
/// of large messages, up to `<replies maxMessageSize>` each), a message is left to be read
/// when its turn comes, so that no more than about two batches' budgets are held at once.
private final class ReadAhead: @unchecked Sendable { // read and kept guarded by lock; done by group
    /// A message of the batch: prepared, or to be read when taken.
    enum Read {
        case prepared(PreparedMessage)
        case later
    }

    /// Bytes of messages one batch keeps prepared.
    static let budget = 16 << 20

    private let lock = NSLock()
    private let group = DispatchGroup()
    private var read: [Read?]
    private var kept = 0

    init(reading names: [String], in folder: String, by workers: Int, of intake: MailIntake, waiting: Bool = true) {
        read = Array(repeating: nil, count: names.count)
        let limit = intake.reader.configuration.replies.maxMessageSize
        let work: @Sendable () -> Void = { [self] in
            DispatchQueue.concurrentPerform(iterations: workers) { worker in
                for index in stride(from: worker, to: names.count, by: workers) {
                    // Nil when gone since the listing; over the size limit, left unread.
                    guard let (size, bytes) = MailIntake.readMessage(folder + "/" + names[index], limit: limit) else { continue }
                    let fits = lock.withLock {
                        guard kept + (bytes?.count ?? 0) <= Self.budget else { return false }
                        kept += bytes?.count ?? 0
                        return true
                    }
                    let message: Read = fits ? .prepared(intake.prepare(bytes, size: size)) : .later
                    lock.withLock { read[index] = message }
                }
            }
        }
        if waiting {
            work()
        } else {
            DispatchQueue.global().async(group: group, execute: work)
        }
    }

    /// Each message of the batch, in order, once all are read; nil for one gone.
    func messages() -> [Read?] {
        group.wait()
        return lock.withLock { read }
    }
}

/// Finishes batches one after another on a thread of its own, while the next is taken;
/// a batch is handed over only once the one before is finished, so that no more than one
/// batch waits (its answers in memory) and a failure stops the run a batch later at most.
/// After a batch's finishing fails, the later batch's lines are still printed (its replies
/// were recorded and carried out), and nothing more is finished: its replies stay in
/// `new/`, taken again by the next run, which answers them as replays.
private final class Finisher: @unchecked Sendable { // failed guarded by lock
    private let queue = DispatchQueue(label: "chime.ingest.finish")
    /// Taken by a batch handed over, given back once it is finished.
    private let slot = DispatchSemaphore(value: 1)
    private let lock = NSLock()
    private var failed: (any Error)?

    /// The first failure of a batch's finishing so far.
    var failure: (any Error)? { lock.withLock { failed } }

    /// Prints a batch's lines, then runs `body` unless a batch before it failed; after
    /// the batches before it.
    func finish(printing lines: [String], _ body: @escaping @Sendable () throws -> Void) {
        slot.wait()
        queue.async { [self] in
            defer { slot.signal() }
            for line in lines { print(line) }
            guard failure == nil else { return }
            do {
                try body()
            } catch {
                lock.withLock { failed = error }
            }
        }
    }

    /// Waits for every batch to be finished; the first failure.
    func wait() -> (any Error)? {
        queue.sync {}
        return failure
    }
}

extension MailIntake {
    /// A message file's size and, when it is at most `limit` bytes, its bytes; nil when it
    /// cannot be read (gone since the listing). One open, fstat and read: Foundation's
    /// attributes and contents had cost a stat and an open more, and a copy.
    static func readMessage(_ path: String, limit: Int) -> (size: Int, bytes: [UInt8]?)? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return nil }
        let size = Int(info.st_size)
        guard size <= limit else { return (size, nil) }
        var bytes = [UInt8](repeating: 0, count: size)
        var done = 0
        while done < size {
            let count = bytes.withUnsafeMutableBytes { read(descriptor, $0.baseAddress! + done, size - done) }
            if count < 0, errno == EINTR { continue }
            if count < 0 { return nil }
            if count == 0 { break }
            done += count
        }
        bytes.removeLast(size - done)
        return (size, bytes)
    }
}
