import Foundation

/// Emails sent on threads of their own, each thread keeping one connection per server open
/// from one message to the next; what they send is collected with the pool's other
/// transfers (``HTTPPool/collectCompletions(waitingUpTo:)``).
///
/// Why not the multi handle itself: each message's transaction is spoken over its
/// connection by ``SMTPClient``, which waits for each reply on that connection (libcurl's
/// own SMTP, used before, waited too: for the reply to the end of the data, inside its
/// "done" phase, `smtp_done` → `smtp_block_statemach` in lib/smtp.c, which blocked a
/// whole multi handle). A thread per message in flight pays a relay's latency once per
/// message per connection. A thread is started when a message finds none waiting, so
/// there are as many as messages were ever sent at once.
///
/// A queue (one channel's messages, all to its one server) takes at most its
/// `connections` at once; its messages beyond them wait in it here, and a thread done with
/// one of its messages takes up the next at once, over the same connection. Two channels
/// on one server share its connections' reuse, not their count. The pool is woken only
/// once that queue is down to one message per connection (or a thread goes idle): a
/// message handed from the pool's thread to a sender's and its end handed back cost two
/// wakeups each, which were as much CPU as the rest of the courier's work per email (perf,
/// `chime-bench --smtp`).
final class MailSenders: @unchecked Sendable { // every field under `condition`
    typealias Outcome = Result<SMTPClient.Sent, SMTPClient.Failure>

    private let condition = NSCondition()
    /// Threads waiting for a message, the last to finish last.
    private var idle: [Sender] = []
    /// Messages done since the last take; a nil outcome: not tried, its server could not
    /// be reached by the message before it.
    private var finished: [(tag: Int, outcome: Outcome?)] = []
    /// By name: the threads sending each queue's messages now, and those waiting for one.
    private var queues: [String: Queue] = [:]
    /// Servers a message found it could not reach: their later messages are not tried.
    private var unreachable: Set<String> = []
    private var threads = 0
    private var closed = false
    /// The pool is about to wait or waiting: a message done wakes it (else it finds the
    /// message before it waits, and no wakeup is spent).
    private var pollWaiting = false
    /// Called from a sender's thread when a message is done: wakes the pool's poll.
    private let wake: @Sendable () -> Void

    init(wake: @escaping @Sendable () -> Void) {
        self.wake = wake
    }

    /// Hands a message to a waiting thread that has a connection to its server, else to
    /// one with none yet, else to any waiting one, else to a new thread; when the queue it
    /// goes in (`name`) has `connections` threads sending already, it waits there.
    func submit(_ mail: MailRequest, tag: Int, connections: Int, queue name: String) {
        let job = Job(tag: tag, mail: mail, envelope: SMTPClient.Envelope(from: mail.from, recipients: mail.recipients, message: mail.message),
                      key: Self.key(mail.server), queue: name)
        condition.lock()
        guard !unreachable.contains(job.key) else {
            finished.append((tag, nil))
            condition.unlock()
            return
        }
        var queue = queues[name] ?? Queue()
        guard queue.sending < max(1, connections) else {
            queue.waiting.append(job)
            queues[name] = queue
            condition.unlock()
            return
        }
        queue.sending += 1
        queues[name] = queue
        let chosen = idle.lastIndex { $0.servers.contains(job.key) } ?? idle.lastIndex { $0.servers.isEmpty } ?? idle.indices.last
        let sender = chosen.map { idle.remove(at: $0) }
        if sender == nil { threads += 1 }
        condition.unlock()
        if let sender {
            sender.give(job)
        } else {
            let sender = Sender(job: job)
            let thread = Thread { [self] in run(sender) }
            thread.stackSize = 1 << 20
            thread.start()
        }
    }

    /// The messages done since the last call (a nil outcome: not tried).
    func takeFinished() -> [(tag: Int, outcome: Outcome?)] {
        condition.lock()
        defer { condition.unlock() }
        let done = finished
        finished = []
        return done
    }

    /// Takes back the messages waiting in the queues for a connection, none of them begun
    /// (a message whose envelope already went ahead of the one before it is no longer
    /// waiting): their tags. They are not collected.
    func withdrawWaiting() -> [Int] {
        condition.lock()
        defer { condition.unlock() }
        var tags: [Int] = []
        for (name, queue) in queues where !queue.waiting.isEmpty {
            tags += queue.waiting.map(\.tag)
            queues[name]!.waiting = []
        }
        return tags
    }

    /// Whether the pool may wait: true (and a message done from now on wakes it) when
    /// none is done and untaken.
    func prepareToWait() -> Bool {
        condition.lock()
        defer { condition.unlock() }
        pollWaiting = finished.isEmpty
        return pollWaiting
    }

    /// The pool's wait is over.
    func doneWaiting() {
        condition.lock()
        pollWaiting = false
        condition.unlock()
    }

    /// Stops the threads once their messages are done, and waits for them (their
    /// connections close as their clients go).
    func close() {
        condition.lock()
        closed = true
        for sender in idle { sender.give(nil) }
        idle = []
        while threads > 0 { condition.wait() }
        condition.unlock()
    }

    /// One thread: sends what it is given, each message over its client for that server,
    /// then the messages waiting in that message's queue, if any. The queue's next
    /// message is taken before the one in hand is sent, so that its envelope goes with
    /// that one's data (``SMTPClient/send(from:to:message:then:)``).
    private func run(_ sender: Sender) {
        var clients: [String: SMTPClient] = [:]
        var given = sender.take()
        while let job = given {
            condition.lock()
            var following: Job?
            if !closed, !unreachable.contains(job.key), var queue = queues[job.queue], !queue.waiting.isEmpty {
                following = queue.waiting.removeFirst()
                queues[job.queue] = queue
            }
            condition.unlock()
            let outcome = send(job, then: following?.envelope, clients: &clients)
            condition.lock()
            finished.append((job.tag, outcome))
            sender.servers.insert(job.key)
            if closed {
                if let following { finished.append((following.tag, nil)) }
                condition.unlock()
                break
            }
            var queue = queues[job.queue]!
            // The server cannot be reached: the messages waiting for it go back untried,
            // in this queue and (as their threads find it) in any other to that server,
            // and so do those given later (the pool's caller may still be handing them).
            if case .failure(let failure) = outcome, failure.unreachable { unreachable.insert(job.key) }
            if unreachable.contains(job.key) {
                finished += ([following].compactMap { $0 } + queue.waiting).map { ($0.tag, nil) }
                following = nil
                queue.waiting = []
            }
            let next = following ?? (queue.waiting.isEmpty ? nil : queue.waiting.removeFirst())
            if next == nil {
                queue.sending -= 1
                idle.append(sender)
            }
            // Woken while one message per connection still waits, the pool hands out more
            // before this queue's connections run out of them.
            if pollWaiting && queue.waiting.count <= queue.sending {
                pollWaiting = false
                wake()
            }
            queues[job.queue] = queue.sending == 0 ? nil : queue
            condition.unlock()
            given = next ?? sender.take()
        }
        clients.removeAll()
        condition.lock()
        threads -= 1
        condition.broadcast()
        condition.unlock()
    }

    private func send(_ job: Job, then next: SMTPClient.Envelope?, clients: inout [String: SMTPClient]) -> Outcome {
        let mail = job.mail
        do {
            let client = try clients[job.key] ?? SMTPClient(mail.server)
            clients[job.key] = client
            return .success(try client.send(job.envelope, message: mail.message, then: next))
        } catch let failure as SMTPClient.Failure {
            return .failure(failure)
        } catch let error as CurlError {
            return .failure(SMTPClient.Failure(temporary: !error.isPermanent, code: 0, message: error.message, refused: [],
                                               unreachable: error.isUnreachable))
        } catch {
            return .failure(SMTPClient.Failure(temporary: true, code: 0, message: "\(error)", refused: []))
        }
    }

    /// What tells two servers apart for a connection's reuse.
    private static func key(_ server: MailServer) -> String {
        [server.url, server.username ?? "", server.password ?? "", server.caFile ?? "",
         "\(server.verifyTLS)", "\(server.startTLS == .required)", "\(server.pipelining)"].joined(separator: "\u{0}")
    }

    private struct Job {
        let tag: Int
        let mail: MailRequest
        /// Its envelope, made once: it is asked for again when the job before it writes
        /// it ahead (pipelining).
        let envelope: SMTPClient.Envelope
        /// Its server (``key(_:)``).
        let key: String
        /// The name of its queue (its channel's id).
        let queue: String
    }

    /// One queue's threads sending now, and its messages waiting for one, oldest first
    /// (a few: the caller keeps at most a handful ahead of the connections).
    private struct Queue {
        var sending = 0
        var waiting: [Job] = []
    }

    /// One sender thread's mailbox: the message it is given (nil: stop).
    private final class Sender: @unchecked Sendable { // `job` and `given` under `condition`; `servers` under the senders' lock
        private let condition = NSCondition()
        private var job: Job?
        private var given = false
        /// The servers it keeps a connection to.
        var servers: Set<String> = []

        init(job: Job) {
            self.job = job
            given = true
        }

        func give(_ job: Job?) {
            condition.lock()
            self.job = job
            given = true
            condition.signal()
            condition.unlock()
        }

        func take() -> Job? {
            condition.lock()
            defer { condition.unlock() }
            while !given { condition.wait() }
            given = false
            defer { job = nil }
            return job
        }
    }
}
