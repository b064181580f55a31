import ArgumentParser

extension Chime {
    struct Run: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Fire everything due now, once: the cron tick.",
            discussion: """
                Safe to run from cron every minute, even when runs overlap or one is killed: each \
                due notification is claimed by one run, delivered, then marked delivered. Exits 75 \
                when some due notification could not be delivered (it stays pending).
                """
        )

        @OptionGroup var options: GlobalOptions

        @Flag(name: .long, help: "List what is due; send nothing.")
        var dryRun = false

        @Option(name: .long, help: "Fire at most this many.")
        var limit: Int?

        func validate() throws {
            if let limit, limit < 1 { throw ValidationError("--limit must be at least 1") }
        }

        func run() throws {
            // The run moves floating requests itself and reports it; a dry run moves none.
            let scheduler = try openScheduler(options, followMoves: false)
            let report = try scheduler.run(now: options.instant, limit: limit, dryRun: dryRun)
            if dryRun {
                for item in report.due {
                    print("due \(localInstant(item.nextFire, zone: item.zone))  \(item.request.identifier)  \(item.request.recipient)")
                }
                print("\(report.due.count) due")
                return
            }
            var summary = "fired \(report.fired)"
            if report.coalesced > 0 { summary += ", coalesced \(report.coalesced) missed occurrence\(report.coalesced == 1 ? "" : "s")" }
            if report.recovered > 0 { summary += ", took back \(report.recovered) from an interrupted run" }
            if report.moved > 0 { summary += ", moved \(report.moved) floating to a new zone" }
            print(summary)
            let problems = report.held.map { "held \($0)" } + report.partial.map { "partly sent \($0)" }
            if !problems.isEmpty {
                printError(problems.joined(separator: "\n"))
                throw ExitCode(75)
            }
        }
    }
}
