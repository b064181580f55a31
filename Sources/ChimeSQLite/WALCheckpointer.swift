import Foundation
import GRDB
import GRDBSQLite

/// Checkpoints a store's write-ahead log on a thread of its own, so that the thread
/// writing does not wait for the disk.
///
/// SQLite checkpoints by itself at the end of the commit that takes the log past 1,000
/// pages (its `wal_autocheckpoint`), on the committing thread, and a checkpoint syncs
/// both the log and the database file. Firing 10,000 notifications into `file:` from a
/// million pending on ext4, that was 28 `fdatasync` calls, 174 ms of the firing thread's
/// 1,100 (`strace -T`). Here the commit only tells this thread, which runs passive
/// checkpoints (ones that never hold up a writer or a reader) on a connection of its
/// own; the firing thread is left 4 calls, 12 ms. Only once the log passes `longestLog`
/// frames does the writer wait, for one checkpoint between its transactions that lets
/// the log start again (once a 10,000-due run, 10–24 ms). Durability is unchanged: a
/// commit is durable once in the log (`synchronous = NORMAL`, on a kill of the process as
/// before); a checkpoint only moves pages from the log into the database file.
///
/// The thread is started by the first commit that needs a checkpoint, so a short command
/// (a tick with nothing due, `chime status`) never starts it. Errors are ignored, as
/// SQLite ignores its own automatic checkpoint's: the next commit asks again, and the last
/// connection to close checkpoints what is left. Written by hand: GRDB runs checkpoints
/// when asked, not in the background.
final class WALCheckpointer: @unchecked Sendable { // state guarded by condition
    /// Pages of the log not yet checkpointed that ask for a checkpoint: 2,000 (8 MiB),
    /// twice SQLite's own `wal_autocheckpoint`. A checkpoint moves each page once
    /// however often it was written since the last, and a run writes the same pages over
    /// and over (the outbox's, its indexes', the pages its delivered bodies free and the
    /// next ones take), so fewer, larger checkpoints move fewer pages: sending 5,000
    /// emails at 4,000, 12 checkpoints instead of 25 at 1,000, 5,500 `pread`s instead of
    /// 9,600 and 14% fewer `pwrite`s, all threads together (`strace -c`). But a run ends
    /// waiting for the checkpoint under way (``stop()``) and its `fdatasync` of the pages
    /// it moved: firing 10,000 due from a million pending, 40–60 ms at 4,000 against
    /// 15–40 ms at 2,000 or 1,000, and a median of 0.545 s against 0.58 s in 20
    /// alternating runs of each, with no change in the CPU per email that the sending
    /// benchmark could show (121–138 µs at 2,000, 123–146 µs at 4,000, 4 runs each).
    static let threshold = 2_000
    /// The frames past which the log is made to start again (the writer waiting for it):
    /// 32 MiB at most on disk.
    static let longestLog = 8_000
    /// Passive checkpoints run after the first when it left pages behind.
    static let catchingUp = 2
    /// The frames not yet checkpointed past which the writer checkpoints itself, at the
    /// end of its commit, as SQLite's own automatic checkpoint does: the thread beside it
    /// has not kept up (a machine too busy to run it; the log grew past 48 MiB in a full
    /// test run). Never reached while the thread keeps up, which restarts the log past
    /// ``longestLog``.
    static let overdue = 10_000

    private let path: String
    private let condition = NSCondition()
    /// A checkpoint was asked for and has not started.
    private var wanted = false
    /// Frames of the log the last checkpoint had moved; the log starts again from frame
    /// 0 once everything in it was moved and a writer comes.
    private var checkpointed = 0
    private var thread: Thread?
    /// The store's own connection, for the checkpoint that lets the log start again.
    private weak var store: DatabaseQueue?
    private var stopping = false
    private var finished = false

    init(path: String) {
        self.path = path
    }

    /// Gives the store's connection, once it is open.
    func checkpointsBetweenTransactions(of store: DatabaseQueue) {
        condition.lock()
        self.store = store
        condition.unlock()
    }

    /// Installs the hook asking for checkpoints on `db`, in place of SQLite's automatic
    /// checkpoint (a connection has one WAL hook, and the automatic checkpoint is one).
    /// The hook holds this checkpointer unretained: the store's configuration, which the
    /// connection keeps, holds it for as long as the connection is open.
    func watch(_ db: Database) {
        sqlite3_wal_hook(db.sqliteConnection, { context, connection, name, frames in
            let checkpointer = Unmanaged<WALCheckpointer>.fromOpaque(context!).takeUnretainedValue()
            if checkpointer.committed(frames: Int(frames)) {
                // Overdue (``overdue``): a passive checkpoint here, which fails (busy) only
                // when the thread beside is running one.
                var log: Int32 = 0, moved: Int32 = 0
                if sqlite3_wal_checkpoint_v2(connection, name, SQLITE_CHECKPOINT_PASSIVE, &log, &moved) == SQLITE_OK {
                    checkpointer.moved(frames: Int(moved))
                }
            }
            return SQLITE_OK
        }, Unmanaged.passUnretained(self).toOpaque())
    }

    /// Called by SQLite after each commit, on the committing thread, with the frames now
    /// in the log; whether the commit should checkpoint itself (``overdue``).
    private func committed(frames: Int) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        if frames < checkpointed { checkpointed = 0 } // the log started again
        if !stopping, frames - checkpointed > Self.overdue { return true }
        guard !stopping, !wanted, frames - checkpointed >= Self.threshold else { return false }
        wanted = true
        if thread == nil {
            let thread = Thread { [self] in work() }
            thread.name = "chime.sqlite.checkpoint"
            self.thread = thread
            thread.start()
        }
        condition.signal()
        return false
    }

    /// A checkpoint the writer ran itself moved the log's first `frames`.
    private func moved(frames: Int) {
        condition.lock()
        checkpointed = max(checkpointed, frames)
        condition.unlock()
    }

    private func work() {
        // Its own connection, opened by the first checkpoint: the store's is busy writing.
        // Should it not open (no file descriptor left), SQLite's own automatic checkpoint
        // is put back on the store's connection, as it was before this thread: without
        // either, the log would grow for as long as the process writes.
        var connection = try? DatabaseQueue(path: path)
        if connection == nil {
            condition.lock()
            let store = self.store
            condition.unlock()
            store?.writeWithoutTransaction { db in _ = sqlite3_wal_autocheckpoint(db.sqliteConnection, Int32(Self.threshold)) }
        }
        while true {
            condition.lock()
            while !wanted, !stopping { condition.wait() }
            if stopping {
                connection = nil // closed before ``stop()`` returns
                finished = true
                condition.broadcast()
                condition.unlock()
                return
            }
            wanted = false
            let store = self.store
            condition.unlock()
            // The log starts again only when a writer begins with everything in it moved,
            // which a checkpoint beside a busy writer seldom leaves: the store's connection
            // is in a transaction most of a run (claims, marks, settling), and with one
            // checkpoint a request firing 10,000 grew the log to 65 MB (6.5 MB with
            // SQLite's own). So the checkpoint runs again while it leaves pages behind,
            // each time over the few committed meanwhile; and past `longestLog` frames a
            // last one runs on the store's connection, between its transactions, so that
            // the next one starts the log again. The writer waits for that one only, which
            // has what was committed since the one before to move.
            var log = Self.passiveCheckpoint(on: connection)
            for _ in 0..<Self.catchingUp {
                guard let moved = log, moved.checkpointedFrameCount < moved.walFrameCount, !isStopping else { break }
                log = Self.passiveCheckpoint(on: connection)
            }
            let between = store != nil && (log?.walFrameCount ?? 0) > Self.longestLog && !isStopping
            if between { log = Self.passiveCheckpoint(on: store) }
            condition.lock()
            if let moved = log?.checkpointedFrameCount, moved >= 0 { checkpointed = moved }
            // Commits made while it waited asked for a checkpoint of what it has just moved.
            if between { wanted = false }
            condition.unlock()
        }
    }

    /// A passive checkpoint on `connection`: the frames in the log and those moved, nil
    /// when it failed (another process checkpointing, say).
    private static func passiveCheckpoint(on connection: DatabaseQueue?) -> (walFrameCount: Int, checkpointedFrameCount: Int)? {
        try? connection?.writeWithoutTransaction { try $0.checkpoint(.passive) }
    }

    /// Whether ``stop()`` was called: the store is closing, and its close checkpoints what
    /// is left, so a checkpoint under way does not run again.
    private var isStopping: Bool {
        condition.lock()
        defer { condition.unlock() }
        return stopping
    }

    /// Stops the thread, waiting for a checkpoint it is running, and closes its connection.
    func stop() {
        condition.lock()
        defer { condition.unlock() }
        stopping = true
        guard thread != nil else { return }
        condition.broadcast()
        while !finished { condition.wait() }
    }
}
