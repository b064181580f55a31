import ArgumentParser
import ChimeCore
import Foundation

extension Chime {
    struct Ingest: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Act on email replies: one RFC 5322 message on stdin (an MTA pipe), or every new message of a Maildir.",
            discussion: """
                Each message is checked (auto-replies and bounces are never acted on; the reply token must be ours, \
                unexpired, and the sender the person it was sent to), its new text read, and the action it names recorded \
                once (`chime responses`) and carried out (snooze, done, the action's hooks), or its confirmation link sent \
                when it needs proof; the person is answered in their thread. What became of every message is listed by `chime replies`. \
                Exits 0 when a message was handled or deliberately ignored, a reply that matched nothing included (an MTA \
                must not bounce it); 75 when it could not be recorded now, so that an MTA pipe tries again later.
                """
        )

        @OptionGroup var options: GlobalOptions

        @Option(name: .long, help: "A Maildir: every message in its new/ is handled, then moved to cur/.")
        var maildir: String?

        func run() throws {
            let configuration = try loadConfiguration(options)
            let intake = try MailIntake(options, configuration: configuration, store: try openStore(options))
            guard let maildir else {
                print(try intake.take([UInt8](FileHandle.standardInput.readDataToEndOfFile()), named: "stdin"))
                return
            }
            let new = maildir + "/new", cur = maildir + "/cur"
            let names: [String]
            do {
                names = try FileManager.default.contentsOfDirectory(atPath: new).filter { !$0.hasPrefix(".") }.sorted()
            } catch {
                printError("\(new): not a Maildir folder (\(error.localizedDescription))")
                throw ExitCode(66)
            }
            try FileManager.default.createDirectory(atPath: cur, withIntermediateDirectories: true)
            // Replies are taken in batches, by as many workers as there are cores (the
            // store takes one write at a time; reading a reply is most of the work). The
            // answers of a batch are synced to disk at once, then its replies moved to
            // cur/. A run that dies leaves the batch's replies in new/, and the next takes
            // them again: recorded once, answered as replays.
            intake.batch()
            let workers = max(1, min(ProcessInfo.processInfo.activeProcessorCount, 4))
            for start in stride(from: 0, to: names.count, by: Self.batchSize) {
                let batch = Array(names[start..<min(start + Self.batchSize, names.count)])
                let outcomes = Outcomes(count: batch.count)
                DispatchQueue.concurrentPerform(iterations: workers) { worker in
                    for index in stride(from: worker, to: batch.count, by: workers) {
                        guard let data = FileManager.default.contents(atPath: new + "/" + batch[index]) else {
                            outcomes.set(index, .success(nil))
                            continue
                        }
                        do {
                            outcomes.set(index, .success(try intake.take([UInt8](data), named: batch[index])))
                        } catch {
                            outcomes.set(index, .failure(error))
                            return
                        }
                    }
                }
                // In the Maildir's order; whatever was handled is kept handled, even past
                // a failure.
                var failure: (any Error)?
                for result in outcomes.results {
                    switch result {
                    case .success(let line?)?: print(line)
                    case .failure(let error)?: failure = failure ?? error
                    default: break
                    }
                }
                try intake.publish()
                for (index, name) in batch.enumerated() {
                    guard case .success(let line)? = outcomes.results[index], line != nil else { continue }
                    let seen = name.contains(":2,") ? name : name + ":2,S"
                    if rename(new + "/" + name, cur + "/" + seen) != 0 {
                        printError("\(new)/\(name): handled, but could not be moved to cur/")
                        throw ExitCode(75)
                    }
                }
                if let failure { throw failure }
            }
        }

        /// Replies handled between two syncs of their answers.
        static let batchSize = 500
    }
}

/// What became of each message of a batch, filled in by several workers.
private final class Outcomes: @unchecked Sendable { // guarded by lock
    private let lock = NSLock()
    private var stored: [Result<String?, any Error>?]

    init(count: Int) {
        stored = Array(repeating: nil, count: count)
    }

    func set(_ index: Int, _ result: Result<String?, any Error>) {
        lock.withLock { stored[index] = result }
    }

    var results: [Result<String?, any Error>?] { lock.withLock { stored } }
}
