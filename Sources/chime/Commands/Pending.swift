import ArgumentParser
import ChimeCore
import ChimeRuntime
import Foundation

/// How `pending` and `delivered` write instants for a person: each in its recipient's
/// zone (the configuration's), so one recipient's lines read alike whatever zones their
/// triggers name; or all in UTC (`--utc`), which a recipient the configuration no longer
/// has gets too.
struct ListingClock {
    var utc: Bool
    var zones: [String: String]

    init(utc: Bool, configuration: Configuration?) {
        self.utc = utc
        zones = Dictionary((configuration?.recipients ?? []).map { ($0.id, $0.timeZone) }, uniquingKeysWith: { first, _ in first })
    }

    func text(_ instant: Instant, recipient: String) -> String {
        guard !utc, let zone = zones[recipient] else { return instant.rfc3339(offset: 0) }
        return localInstant(instant, zone: zone)
    }
}

extension Chime {
    struct Pending: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "pending",
            abstract: "List requests scheduled and not yet fired, soonest first.",
            discussion: """
                Each line: the next fire instant in the recipient's zone (--utc: in UTC), identifier, recipient, category, \
                title. Set-aside requests (beyond a recipient's pendingLimit) are listed and marked. --json keeps \
                nextTriggerDate in the trigger's own offset.
                """
        )

        @OptionGroup var options: GlobalOptions

        @Flag(name: .long, help: "Print JSON: the request fields, nextTriggerDate, added, setAside.")
        var json = false

        @Option(name: .long, help: "Only this recipient's requests.")
        var recipient: String?

        @Flag(name: .long, help: "Write instants in UTC rather than in each recipient's zone.")
        var utc = false

        func run() throws {
            let scheduler = try options.runtime.openScheduler(existing: true)
            let pending = try scheduler.store.pending(recipient: recipient, limits: scheduler.configuration.pendingLimits)
            if json {
                try printJSON(pending.map(PendingJSON.init))
                return
            }
            let clock = ListingClock(utc: utc, configuration: scheduler.configuration)
            for item in pending {
                let category = item.request.content.categoryIdentifier.isEmpty ? "-" : item.request.content.categoryIdentifier
                let mark = item.isSetAside ? "  (set aside: beyond the pending limit)" : ""
                print(printable("\(clock.text(item.nextFire, recipient: item.request.recipient))  \(item.request.identifier)  \(item.request.recipient)  \(category)  \(item.request.content.listingTitle)\(mark)"))
            }
        }
    }
}
