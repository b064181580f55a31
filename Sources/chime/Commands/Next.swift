import ArgumentParser
import ChimeCore
import ChimeRuntime

extension Chime {
    struct Next: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "next",
            abstract: "The next fire instants of a pending request, one RFC 3339 instant per line.",
            discussion: "Instants are in the trigger's own UTC offset (UTC for time intervals)."
        )

        @OptionGroup var options: GlobalOptions

        @Argument(help: "A pending request's identifier.")
        var identifier: String

        @Option(name: .long, help: "How many instants (at most 100000).")
        var count = 1

        @Flag(name: .long, help: "Print a JSON array of instants.")
        var json = false

        func validate() throws {
            guard count > 0 else { throw ValidationError("--count must be at least 1") }
            // All are worked out before the first is printed: 2^31 took 32 GiB.
            guard count <= 100_000 else { throw ValidationError("--count must be at most 100000") }
        }

        func run() throws {
            let scheduler = try options.runtime.openScheduler(existing: true)
            guard let instants = try scheduler.upcoming(identifier, count: count, now: options.instant) else {
                printError(printable("no pending request \"\(identifier)\""))
                throw ExitCode(65)
            }
            if json {
                try printJSON(instants)
            } else {
                instants.forEach { print($0) }
            }
        }
    }
}
