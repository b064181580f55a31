import ArgumentParser
import ChimeCore
import ChimeRuntime
import Foundation

extension Chime {
    struct Ingest: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "ingest",
            abstract: "Act on email replies: one RFC 5322 message on stdin (an MTA pipe), or every new message of a Maildir.",
            discussion: """
                Each message is checked (auto-replies and bounces are never acted on; the reply token must be ours, \
                unexpired, and the sender the person it was sent to), its new text read, and the action it names recorded \
                once (`chime responses`) and carried out (snooze, done, the action's hooks), or its confirmation link sent \
                when it needs proof; the person is answered in their thread. What became of every message is listed by `chime replies`. \
                Exits 0 when a message was handled or deliberately ignored, a reply that matched nothing included (an MTA \
                must not bounce it); 75 when it could not be recorded now (the store unavailable, or the same answer being \
                carried out at that moment), or when the command line, the configuration, the environment file or the \
                store cannot be used (an option misspelt, a folder missing, no store there yet, another program's \
                database), so that an MTA pipe keeps the message and tries again later.
                """
        )

        @OptionGroup var options: GlobalOptions

        @Option(name: .long, help: "A Maildir: every message in its new/ is handled, then moved to cur/.")
        var maildir: String?

        func run() throws {
            let configuration = try options.runtime.loadConfiguration(failureCode: Self.setupFailureCode)
            let intake = try Self.intake(options, configuration: configuration)
            guard let maildir else {
                print(try intake.takeStandardInput())
                return
            }
            try intake.takeMaildir(maildir)
        }

        /// The intake over the store, or 75 when the store cannot be opened or the key
        /// cannot be used (said on standard error as by any command): a folder missing,
        /// another program's database, a mistyped `--store` in the MTA's pipe, a short
        /// `CHIME_SECRET_KEY` are the operator's to mend, and a reply bounced on 73, 65 or
        /// 64 was lost to its writer.
        static func intake(_ options: GlobalOptions, configuration: Configuration) throws -> MailIntake {
            do {
                return try MailIntake(options.runtime, configuration: configuration, store: try options.runtime.openStore(existing: true))
            } catch is RuntimeFailure {
                throw RuntimeFailure(setupFailureCode(.invalid))
            }
        }
    }
}
