import ArgumentParser
import ChimeCore
import ChimeScheduler
import ChimeRuntime
import Foundation

extension Chime {
    struct Schedule: RequestFileCommand {
        static let configuration = CommandConfiguration(
            commandName: "schedule",
            abstract: "Add or replace requests, from JSON or from flags.",
            discussion: """
                chime schedule --json FILE|-   one request object or an array (docs/requests.md)
                chime schedule --id ID --to RECIPIENT [--category C] [--title T] [--subtitle S] [--body B] \
                [--thread T] (--at LOCAL_DATETIME [--tz ZONE | --floating] | --in DURATION [--repeats])

                --at takes a wall time such as 2026-11-24T09:00 (seconds are :00 unless given), in \
                --tz's zone or, by default and with --floating, the recipient's zone. DURATION is \
                like 90s, 10m, 2h, 1d or 1h30m. A request with the identifier of a pending one \
                replaces it. Attachment paths are stored absolute (a relative one is read from \
                the request file's folder) and each file must exist and be at most 10 MiB; a \
                titleLocKey or bodyLocKey must be in some locale of the templates unless the \
                request has literal text; a targetContentIdentifier must be an absolute http(s) URL (buttons and \
                links open it as it is). Invalid requests exit 65 and nothing is stored; JSON that is not valid, or a field of \
                the wrong type or unknown, is reported as FILE:LINE:COL: error: message.
                """
        )

        @OptionGroup var options: GlobalOptions

        @Option(name: .long, help: ArgumentHelp("Read requests from a JSON file, or - for standard input.", valueName: "file"))
        var json: String?

        @Option(name: .long, help: "The request identifier.")
        var id: String?

        @Option(name: .long, help: ArgumentHelp("The recipient id.", valueName: "recipient"))
        var to: String?

        @Option(name: .long, help: "The category identifier.")
        var category: String?

        @Option(name: .long, help: "The title.")
        var title: String?

        @Option(name: .long, help: "The subtitle.")
        var subtitle: String?

        @Option(name: .long, help: "The body.")
        var body: String?

        @Option(name: .long, help: "The thread identifier.")
        var thread: String?

        @Option(name: .long, help: ArgumentHelp("Fire at this wall time, e.g. 2026-11-24T09:00.", valueName: "local-datetime"))
        var at: String?

        @Option(name: .long, help: ArgumentHelp("The zone of --at, e.g. Europe/Paris.", valueName: "zone"))
        var tz: String?

        @Flag(name: .long, help: "--at follows the recipient's zone, wherever they are (the default).")
        var floating = false

        // Taken whatever it starts with: "--in -5m" is then told what a duration is, where
        // the parser read -5m as an option and said the value was missing.
        @Option(name: .long, parsing: .unconditional, help: ArgumentHelp("Fire after this long, e.g. 10m.", valueName: "duration"))
        var `in`: String?

        @Flag(name: .long, help: "With --in: repeat at that interval (at least 60 s).")
        var repeats = false

        func validate() throws {
            if json != nil {
                let flags = [id, to, category, title, subtitle, body, thread, at, tz, self.in].compactMap { $0 }
                guard flags.isEmpty, !floating, !repeats else {
                    throw ValidationError("--json takes no other request options")
                }
                return
            }
            guard id != nil, to != nil else { throw ValidationError("give --json FILE, or --id and --to") }
            guard (at == nil) != (self.in == nil) else { throw ValidationError("give one of --at and --in") }
            if at != nil, repeats { throw ValidationError("--repeats goes with --in") }
            if self.in != nil, tz != nil || floating { throw ValidationError("--tz and --floating go with --at") }
            if tz != nil, floating { throw ValidationError("give --tz or --floating, not both") }
            if let at, LocalDateTime(parsing: at) == nil {
                throw ValidationError(LocalDateTime.impossibility(in: at).map { "--at \(at): \($0)" }
                    ?? "--at needs a wall time such as 2026-11-24T09:00, not \"\(at)\"")
            }
            if let duration = self.in, DurationText.seconds(duration) == nil {
                throw ValidationError("--in needs a duration such as 90s, 10m, 2h, 1d or 1h30m, not \"\(duration)\"")
            }
        }

        func run() throws {
            let (read, text) = try readRequests()
            let requests = try withAttachmentsResolved(read, text: text)
            let scheduler = try options.runtime.openScheduler()
            try checkLocalizationKeys(requests, configuration: scheduler.configuration, text: text)
            let report: Scheduler.ScheduleReport
            do {
                report = try scheduler.schedule(requests, now: options.instant)
            } catch let error as SchedulingError {
                printError(error.lines(in: source, text: text))
                throw ExitCode(65)
            }
            let replaced = Set(report.replaced)
            for added in report.added {
                let verb = replaced.contains(added.identifier) ? "replaced" : "scheduled"
                print(printable("\(verb) \(added.identifier): fires \(added.firstFire.rfc3339(in: added.zone))"))
            }
            if !report.setAside.isEmpty {
                print(printable("set aside (beyond the recipient's pending limit; kept, fires when within it): \(report.setAside.joined(separator: " "))"))
            }
        }

        /// The requests, with the JSON text they were read from (nil for flags).
        private func readRequests() throws -> ([NotificationRequest], [UInt8]?) {
            guard let json else { return ([try flagRequest()], nil) }
            let data = try readInputFile(json)
            do {
                return (try RequestDecoder.decode(data), Array(data))
            } catch {
                printError("\(error.location(in: source)): error: \(error)")
                throw ExitCode(65)
            }
        }

        private func flagRequest() throws -> NotificationRequest {
            var content = NotificationContent(title: title ?? "", subtitle: subtitle ?? "", body: body ?? "",
                                              categoryIdentifier: category ?? "", threadIdentifier: thread ?? "")
            content.sound = "default"
            let trigger: NotificationTrigger
            if let at, let local = LocalDateTime(parsing: at) {
                trigger = .date(fireDate: local, timeZone: tz, repeatInterval: nil)
            } else {
                trigger = .timeInterval(seconds: Double(DurationText.seconds(self.in ?? "") ?? 0), repeats: repeats)
            }
            return NotificationRequest(identifier: id ?? "", recipient: to ?? "", content: content, trigger: trigger)
        }
    }
}
