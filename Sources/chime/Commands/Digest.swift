import ArgumentParser
import ChimeRuntime
import ChimeCore
import ChimeScheduler

extension Chime {
    struct Digest: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "digest",
            abstract: "Send each recipient's digest once its daily time has come: the hourly cron job.",
            discussion: """
                A digest holds what fired since the recipient's last one and was kept for it: \
                passive notifications, provisional recipients, categories set to Deliver \
                Quietly, and (by default) what fired in quiet hours. It goes to each email \
                and chat address of the recipient (not a file: feed) once its `digestAt` (07:00 unless set) has come in the \
                recipient's own zone, so an hourly cron reaches everyone at their morning. Each \
                notification is in one digest only, even when runs overlap or one is killed \
                (the next run finishes it, replacing rather than repeating it); nothing is sent \
                to a recipient with nothing kept. Exits 75 when a digest could not go (kept for \
                the next run) or its delivery waits for a later run (a server unreachable, a \
                temporary refusal), 69 when its delivery gave up.
                """
        )

        @OptionGroup var options: GlobalOptions

        @Flag(name: .long, help: "Print what would go out; claim and send nothing.")
        var dryRun = false

        @Option(name: .long, help: "Only this recipient's digest.")
        var recipient: String?

        @Flag(name: .long, help: "Print one JSON object: digests (recipient, notifications), recovered, held. The exit code is the same.")
        var json = false

        func run() throws {
            let scheduler = try options.runtime.openScheduler(followMoves: false, existing: true)
            if let recipient, scheduler.configuration.recipient(recipient) == nil {
                // Bad input (65), as `schedule --to` takes it, not a usage error.
                printError(printable("no recipient \"\(recipient)\" in \(options.configPath)"))
                throw ExitCode(65)
            }
            let report = try scheduler.digest(now: options.instant, only: recipient, dryRun: dryRun)
            if json {
                let digests = dryRun
                    ? report.due.map { DigestSummary.Digest(recipient: $0.recipient, notifications: $0.items.count, identifiers: $0.items.map(\.request.identifier)) }
                    : report.sent.map { DigestSummary.Digest(recipient: $0.recipient, notifications: $0.count) }
                let delivery = report.delivery
                try printJSON(DigestSummary(digests: digests, recovered: report.recovered, held: report.held,
                                            retrying: delivery.retrying, failed: delivery.failed, deferred: delivery.notTried))
                if !dryRun { try Self.exit(report) }
                return
            }
            if dryRun {
                for (recipient, items) in report.due {
                    print("\(recipient): \(items.count) notification\(items.count == 1 ? "" : "s")")
                    for item in items {
                        let content = item.request.content
                        print(printable("  \(item.fireDate.description)  \(item.request.identifier)  \(PreviewSurfaces.lead(title: content.title, body: content.body))"))
                    }
                }
                print("\(report.due.count) digest\(report.due.count == 1 ? "" : "s") due")
                return
            }
            for (recipient, count) in report.sent {
                print("digest \(recipient): \(count) notification\(count == 1 ? "" : "s")")
            }
            var summary = "sent \(report.sent.count) digest\(report.sent.count == 1 ? "" : "s")"
            if report.recovered > 0 { summary += ", finished \(report.recovered) of an interrupted run" }
            let delivery = report.delivery
            if !delivery.retrying.isEmpty { summary += ", \(delivery.retrying.count) to retry" }
            if delivery.notTried > 0 { summary += ", \(delivery.notTried) not tried" }
            if !delivery.failed.isEmpty { summary += ", \(delivery.failed.count) failed" }
            print(summary)
            let problems = report.held.map { "held \($0)" } + delivery.problems
            if !problems.isEmpty { printError(problems.map(printable).joined(separator: "\n")) }
            try Self.exit(report)
        }

        /// As `chime run`: 69 when a digest's delivery gave up, 75 when a digest or its
        /// delivery waits for a later run.
        static func exit(_ report: Scheduler.DigestReport) throws {
            try report.delivery.exit(waiting: !report.held.isEmpty)
        }
    }
}
