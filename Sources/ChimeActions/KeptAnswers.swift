import ChimeCore
import ChimeTransport
import Foundation

/// Maildirs opened once each: their folders made once, and their file names counted in
/// one sequence, so that two answers written in the same microsecond do not collide.
final class MaildirFolders: @unchecked Sendable { // open and batching guarded by lock
    private let lock = NSLock()
    private var open: [String: MaildirFolder] = [:]
    /// Whether answers are kept for ``publish(_:)`` instead of being written and synced one by one.
    private var batching = false

    /// Writes an answer into the Maildir at `path`, or keeps it for ``publish(_:)``. Only
    /// finding the folder is done under the lock: the folder takes messages from several
    /// threads at once.
    /// - Returns: whether it was written now (false: kept).
    func add(_ message: [UInt8], to path: String) throws -> Bool {
        let (folder, batching) = try lock.withLock {
            let folder = try open[path] ?? MaildirFolder(path: path)
            open[path] = folder
            return (folder, self.batching)
        }
        if batching {
            folder.stage(message)
        } else {
            try folder.add(message)
        }
        return !batching
    }

    func batch() {
        lock.withLock { batching = true }
    }

    /// What each folder staged so far, taken out.
    func takeStaged() -> [(MaildirFolder, MaildirFolder.Staged)] {
        lock.withLock { Array(open.values) }.map { ($0, $0.takeStaged()) }
    }

    /// Publishes what was taken out, folder by folder, outside the lock, while answers go
    /// on being staged.
    func publish(_ answers: KeptAnswers) throws {
        for (folder, staged) in answers.folders { try folder.publish(staged) }
    }
}

/// The replies whose answers ``MaildirFolders`` keeps for publishing, until they are
/// marked answered in the store once published: the same message twice in one `chime
/// ingest --maildir` (a retry delivered beside the first) is answered once, though the
/// store does not know of the first answer yet.
final class KeptAnswerMarks: @unchecked Sendable { // untaken and unmarked guarded by lock
    private let lock = NSLock()
    /// The replies of answers kept since the last ``take()``.
    private var untaken: [AnsweredMessage] = []
    /// The replies of answers kept and not yet marked in the store.
    private var unmarked: Set<AnsweredMessage> = []

    /// An answer to `reply` was kept (after it was staged).
    func kept(_ reply: AnsweredMessage) {
        lock.withLock {
            untaken.append(reply)
            unmarked.insert(reply)
        }
    }

    /// The replies of the answers kept since the last take, taken out.
    func take() -> [AnsweredMessage] {
        lock.withLock {
            defer { untaken.removeAll() }
            return untaken
        }
    }

    /// Whether an answer to `reply` is kept, not yet published and marked in the store.
    func contains(_ reply: AnsweredMessage) -> Bool {
        lock.withLock { unmarked.contains(reply) }
    }

    /// The replies of answers published, now marked in the store.
    func marked(_ replies: [AnsweredMessage]) {
        guard !replies.isEmpty else { return }
        lock.withLock { unmarked.subtract(replies) }
    }
}

/// Answers kept for Maildirs and taken out together (``ActionDesk/takeAnswers()``).
public struct KeptAnswers: Sendable {
    let folders: [(MaildirFolder, MaildirFolder.Staged)]
    /// The replies they answer, marked answered once they are published.
    let answered: [AnsweredMessage]

    /// No answers.
    public static let none = KeptAnswers(folders: [], answered: [])

    /// These answers, then `later`'s, each folder's published with one sync.
    public func merging(_ later: KeptAnswers) -> KeptAnswers {
        var folders = self.folders
        for (folder, staged) in later.folders {
            if let index = folders.firstIndex(where: { $0.0 === folder }) {
                folders[index].1 = folders[index].1 + staged
            } else {
                folders.append((folder, staged))
            }
        }
        return KeptAnswers(folders: folders, answered: answered + later.answered)
    }
}
