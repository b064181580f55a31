import ChimeCore
import Foundation

extension MailIntake {
    /// Replies handled between two syncs of their answers.
    static let batchSize = 500

    /// Takes every message in a Maildir's `new/`, printing a line for each in the
    /// Maildir's order, and moves each to `cur/` once handled.
    ///
    /// Replies are taken in batches, by as many workers as there are cores (the store
    /// takes one write at a time; reading a reply is most of the work). The answers of a
    /// batch are synced to disk at once, then its replies moved to `cur/`. A run that dies
    /// leaves the batch's replies in `new/`, and the next takes them again: recorded once,
    /// answered as replays.
    /// - Throws: `RuntimeFailure(66)` when there is no such Maildir; `RuntimeFailure(75)` when a reply
    ///   could not be recorded now (those handled before it are kept handled).
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
        let workers = max(1, min(ProcessInfo.processInfo.activeProcessorCount, 4))
        for start in stride(from: 0, to: names.count, by: Self.batchSize) {
            let batch = Array(names[start..<min(start + Self.batchSize, names.count)])
            let outcomes = Outcomes(count: batch.count)
            DispatchQueue.concurrentPerform(iterations: workers) { worker in
                for index in stride(from: worker, to: batch.count, by: workers) {
                    // A message gone since the listing is left alone; one over the size
                    // limit is recorded without being read.
                    guard let (size, bytes) = Self.readMessage(new + "/" + batch[index], limit: reader.configuration.replies.maxMessageSize) else { continue }
                    do {
                        outcomes.set(index, .success(try take(bytes, size: size, named: batch[index])))
                    } catch {
                        outcomes.set(index, .failure(error))
                        return
                    }
                }
            }
            // Whatever was handled is kept handled, even past a failure.
            var handled: [String] = [], failure: (any Error)?
            for (name, result) in zip(batch, outcomes.results) {
                switch result {
                case .success(let line)?:
                    print(line)
                    handled.append(name)
                case .failure(let error)?: failure = failure ?? error
                case nil: break
                }
            }
            try publish()
            for name in handled {
                // Searched as bytes: Foundation's `contains` bridged each name.
                let seen = name.containsBytes(":2,") ? name : name + ":2,S"
                if rename(new + "/" + name, cur + "/" + seen) != 0 {
                    printError("\(new)/\(name): handled, but could not be moved to cur/")
                    throw RuntimeFailure(75)
                }
            }
            if let failure { throw failure }
        }
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

/// What became of each message of a batch, filled in by several workers.
private final class Outcomes: @unchecked Sendable { // guarded by lock
    private let lock = NSLock()
    private var stored: [Result<String, any Error>?]

    init(count: Int) {
        stored = Array(repeating: nil, count: count)
    }

    func set(_ index: Int, _ result: Result<String, any Error>) {
        lock.withLock { stored[index] = result }
    }

    var results: [Result<String, any Error>?] { lock.withLock { stored } }
}
