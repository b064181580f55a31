import Foundation

/// Where the store's async work runs: a few threads of its own, neither Swift's
/// cooperative pool nor Dispatch's shared worker threads.
///
/// The store waits for that work on the calling thread (see ``PostgresStore``), and its
/// callers block threads of both pools: a test function or an async command blocks a
/// cooperative thread; `chime serve` runs each store call on a Dispatch worker thread
/// (`blocking { … }`), and carries actions out on them. Were the work queued to either
/// pool, every thread of it could be waiting for work queued behind them: Dispatch adds a
/// worker thread about once a second when none is runnable (so calls stalled for seconds
/// under a burst), and not past 255 (so a long enough burst never recovered). These
/// threads only run the short stretches between two awaits of PostgresNIO's calls, never
/// wait on anything but their queue, and so are always there to finish what a caller
/// waits for. Written by hand: no well-kept library offers a plain thread-pool
/// `TaskExecutor`.
final class StoreExecutor: TaskExecutor, @unchecked Sendable { // jobs guarded by condition
    static let shared = StoreExecutor(threads: 4)

    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private var head = 0

    init(threads: Int) {
        for index in 0..<threads {
            let thread = Thread { [self] in work() }
            thread.name = "chime.postgres.\(index)"
            thread.start()
        }
    }

    func enqueue(_ job: UnownedJob) {
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    private func work() {
        let executor = asUnownedTaskExecutor()
        while true {
            condition.lock()
            while head == jobs.count { condition.wait() }
            let job = jobs[head]
            head += 1
            // Taken jobs are dropped once they are most of the array, so it stays small.
            if head >= 1024, head * 2 >= jobs.count {
                jobs.removeFirst(head)
                head = 0
            }
            condition.unlock()
            job.runSynchronously(on: executor)
        }
    }
}
