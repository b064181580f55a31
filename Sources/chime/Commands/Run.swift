import ArgumentParser
import ChimeRuntime
import ChimeCore
import ChimeScheduler

extension Chime {
    struct Run: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "run",
            abstract: "Fire everything due now, once: the cron tick.",
            discussion: """
                Safe to run from cron every minute, even when runs overlap or one is killed: each \
                due notification is claimed by one run and fired once. Local channels (Maildir, \
                file) are written at once; messages for SMTP and webhooks are queued in the store \
                with the fire, then sent, and marked delivered only once the server took them. \
                Temporary failures are retried by later runs with backoff; deliveries that give \
                up are listed by `chime failed`. A tick with nothing to do stops after one question to \
                the store, without loading the configuration unless the file changed since the \
                last run that did. Exits 75 when something waits for a later run \
                (a notification held, a delivery to retry, or one not tried: its server \
                unreachable or asking to wait past the run, its channel's rate without a start \
                free), 69 when a delivery gave up this run.
                """
        )

        @OptionGroup var options: GlobalOptions

        @Flag(name: .long, help: "List what is due; send nothing.")
        var dryRun = false

        @Option(name: .long, help: "Fire at most this many.")
        var limit: Int?

        @Flag(name: .long, help: "Print one JSON object instead of the summary line: fired, delivered, routes (sent, digest, grouped, suppressed, held), held, retrying, failed and the other counts; a dry run's due requests. The exit code is the same.")
        var json = false

        func validate() throws {
            if let limit, limit < 1 { throw ValidationError("--limit must be at least 1") }
        }

        func run() throws {
            let report: Scheduler.RunReport
            if dryRun {
                // A dry run lists what is due and moves no floating request.
                report = try options.runtime.openScheduler(followMoves: false, existing: true).run(now: options.instant, limit: limit, dryRun: true)
            } else if let scheduler = try options.runtime.schedulerForRun(now: options.instant) {
                // The run moves floating requests itself and reports it.
                report = try scheduler.run(now: options.instant, limit: limit)
            } else {
                report = Scheduler.RunReport() // nothing to do: "fired 0"
            }
            if json {
                if dryRun { return try printJSON(DueSummary(report.due)) }
                try printJSON(RunSummary(report))
                return try Self.exit(report)
            }
            if dryRun {
                for item in report.due {
                    print("due \(localInstant(item.nextFire, zone: item.zone))  \(item.request.identifier)  \(item.request.recipient)")
                }
                print("\(report.due.count) due")
                return
            }
            var summary = "fired \(report.fired)"
            let delivery = report.delivery
            if delivery.delivered > 0 || !delivery.retrying.isEmpty || !delivery.failed.isEmpty || delivery.notTried > 0 {
                summary += ", delivered \(delivery.delivered)"
                if !delivery.retrying.isEmpty { summary += ", \(delivery.retrying.count) to retry" }
                if delivery.deferred > 0 { summary += ", \(delivery.deferred) not tried (server unreachable)" }
                if delivery.waitingPastRun > 0 { summary += ", \(delivery.waitingPastRun) not tried (the server asked to wait past this run)" }
                if delivery.waitingForPace > 0 { summary += ", \(delivery.waitingForPace) not tried (the channel's rate has no start for them within maxWait)" }
                if !delivery.failed.isEmpty { summary += ", \(delivery.failed.count) failed" }
            }
            if report.digested > 0 { summary += ", \(report.digested) kept for the digest" }
            if report.suppressed > 0 { summary += ", \(report.suppressed) turned off" }
            if report.awaitingOptIn > 0 { summary += ", \(report.awaitingOptIn) awaiting opt-in" }
            if report.optInsAsked > 0 { summary += ", \(report.optInsAsked) asked to opt in" }
            if report.postponed > 0 { summary += ", \(report.postponed) held for quiet hours" }
            if report.grouped > 0 { summary += ", \(report.grouped) waiting for their thread" }
            if !report.groupsSent.isEmpty {
                let threads = report.groupsSent.count, total = report.groupsSent.reduce(0, +)
                summary += threads == 1 ? ", 1 thread sent as one message (\(total) notification\(total == 1 ? "" : "s"))"
                    : ", \(threads) threads sent as one message each (\(total) notifications)"
            }
            if report.coalesced > 0 { summary += ", coalesced \(report.coalesced) missed occurrence\(report.coalesced == 1 ? "" : "s")" }
            if report.recovered > 0 { summary += ", took back \(report.recovered) from an interrupted run" }
            if report.moved > 0 { summary += ", moved \(report.moved) floating to a new zone" }
            print(summary)
            let problems = report.held.map { "held \($0)" } + report.partial.map { "partly sent \($0)" } + delivery.problems
            if !problems.isEmpty { printError(problems.map(printable).joined(separator: "\n")) }
            try Self.exit(report)
        }

        /// 69 when a delivery gave up, 75 when something waits for a later run.
        static func exit(_ report: Scheduler.RunReport) throws {
            try report.delivery.exit(waiting: !report.held.isEmpty || !report.partial.isEmpty)
        }
    }
}
