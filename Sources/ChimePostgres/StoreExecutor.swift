import Dispatch

/// Where the store's async work runs: Dispatch threads of its own, not Swift's
/// cooperative pool.
///
/// The store waits for that work on the calling thread (see ``PostgresStore``). Were the
/// work on the cooperative pool, callers that block threads of that pool (a test
/// function, an async command calling the store, more of them than cores) would leave it
/// no thread to run on, and every caller would wait forever. Jobs here are the short
/// stretches between two awaits of PostgresNIO's calls; a concurrent queue runs them as
/// they come.
final class StoreExecutor: TaskExecutor {
    static let shared = StoreExecutor()

    private let queue = DispatchQueue(label: "chime.postgres", attributes: .concurrent)

    func enqueue(_ job: UnownedJob) {
        let executor = asUnownedTaskExecutor()
        queue.async { job.runSynchronously(on: executor) }
    }
}
