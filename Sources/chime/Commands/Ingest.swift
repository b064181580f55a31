import ArgumentParser
import ChimeActions
import ChimeCore
import ChimeReply
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
            let store = try openStore(options)
            let desk: (ReplyDesk, ActionDesk)
            do {
                desk = try replyDesks(options, configuration: configuration, store: store)
            } catch {
                printError("cannot read the signing key: \(error)")
                throw ExitCode(75)
            }
            let now = options.instant
            guard let maildir else {
                let bytes = [UInt8](FileHandle.standardInput.readDataToEndOfFile())
                try handle(bytes, named: "stdin", desk: desk, now: now)
                return
            }
            let new = URL(fileURLWithPath: maildir).appendingPathComponent("new")
            let cur = URL(fileURLWithPath: maildir).appendingPathComponent("cur")
            let names: [String]
            do {
                names = try FileManager.default.contentsOfDirectory(atPath: new.path).filter { !$0.hasPrefix(".") }.sorted()
            } catch {
                printError("\(new.path): not a Maildir folder (\(error.localizedDescription))")
                throw ExitCode(66)
            }
            try FileManager.default.createDirectory(at: cur, withIntermediateDirectories: true)
            for name in names {
                let file = new.appendingPathComponent(name)
                guard let data = FileManager.default.contents(atPath: file.path) else { continue }
                try handle([UInt8](data), named: name, desk: desk, now: now)
                // Moved only once handled: a run that dies leaves it in new/ for the next.
                let seen = name.contains(":2,") ? name : name + ":2,S"
                if rename(file.path, cur.appendingPathComponent(seen).path) != 0 {
                    printError("\(file.path): handled, but could not be moved to cur/")
                    throw ExitCode(75)
                }
            }
        }

        private func handle(_ bytes: [UInt8], named name: String, desk: (reader: ReplyDesk, actions: ActionDesk), now: Instant) throws {
            let reply: Reply
            do {
                reply = try desk.reader.handle(bytes, now: now)
            } catch {
                printError("\(name): not recorded, try again later: \(error)")
                throw ExitCode(75)
            }
            let record = reply.record
            var line = "\(name): \(record.outcome.rawValue)\(record.detail.isEmpty ? "" : ": " + record.detail)"
            // Recorded: what follows (hooks, the answer) is carried out once; a failure
            // here is reported, not retried by the MTA, which would only be told "replayed".
            do {
                let outcome = try desk.actions.settle(reply, now: now)
                if let status = outcome?.status, !status.isEmpty { line += " (\(status))" }
                if let answer = outcome?.answer { line += " — answered: " + answer.replacingOccurrences(of: "\n", with: " ") }
            } catch {
                printError("\(name): recorded, but carrying it out failed: \(desk.reader.configuration.redact("\(error)"))")
            }
            print(line)
        }
    }
}
