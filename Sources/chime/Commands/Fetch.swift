import ArgumentParser
import ChimeRuntime
import ChimeCore
import ChimeCurl
import ChimeDelivery

extension Chime {
    struct Fetch: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "fetch",
            abstract: "Act on email replies waiting in an IMAP mailbox: every unseen message of each imap:// or imaps:// channel.",
            discussion: """
                Each unseen message is fetched and handled as `chime ingest` handles one (checked, recorded once, \
                carried out, answered), then flagged \\Seen, or moved to the channel's moveTo mailbox. A message is \
                marked ChimeFetching before it is fetched and unmarked once handled, so a run killed in between takes it \
                up again next time; one process at a time reads a mailbox (another run finding it held leaves it alone). \
                Mailbox names may be in any language (sent in IMAP's modified UTF-7), a / standing for the server's \
                hierarchy delimiter. A message the server fails to send (an error, a timeout) is left unseen for the next \
                run and the others are still taken. Exits 69 when a mailbox cannot be reached or refuses the credentials, \
                a message could not be fetched, or a handled message could not be moved to moveTo; 75 when a message \
                could not be recorded now (it is left unseen for the next run); 65 when the configuration cannot take \
                replies (the signing key, the templates).
                """
        )

        @OptionGroup var options: GlobalOptions

        @Option(name: .long, help: "Only this IMAP channel (default: every imap:// and imaps:// channel).")
        var channel: String?

        func run() throws {
            let configuration = try options.runtime.loadConfiguration()
            var channels = configuration.channels.filter { $0.url.kind.isInbound }
            if let id = channel {
                guard let named = configuration.channel(id) else {
                    printError("no channel \"\(id)\" in \(options.configPath)")
                    throw ExitCode(65)
                }
                guard named.url.kind.isInbound else {
                    printError("channel \"\(id)\" is \(named.url.kind.rawValue), not an imap:// or imaps:// mailbox")
                    throw ExitCode(65)
                }
                channels = [named]
            }
            guard !channels.isEmpty else {
                printError("no imap:// or imaps:// channel in \(options.configPath): nothing to fetch from")
                throw ExitCode(65)
            }
            let intake = try MailIntake(options.runtime, configuration: configuration, store: try options.runtime.openStore(existing: true), failureCode: 65)
            var unreachable = false, deferred = false
            for channel in channels {
                do {
                    if try !intake.fetch(from: channel, say: { print($0) }) {
                        // Said, so that a run by hand after a crash does not do nothing
                        // silently; on standard output, which cron discards: runs
                        // overlapping is no error to mail anyone about every minute.
                        print("\(channel.id): being read by another chime process; left to it (one that died reading it is taken over after \(MailIntake.fetchAbandonedAfter / 60) minutes)")
                    }
                } catch let error as CurlError {
                    printError("\(channel.id): \(configuration.redact(error.description))")
                    unreachable = true
                } catch let failure as RuntimeFailure where failure.exitCode == 75 {
                    // A message left for the next run (said): the other mailboxes still read.
                    deferred = true
                }
            }
            if unreachable { throw ExitCode(69) }
            if deferred { throw ExitCode(75) }
        }
    }
}
