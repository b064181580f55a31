import ArgumentParser
import ChimeCore
import Foundation

/// The JSON of one pending request: the request's own fields, then the schedule.
struct PendingJSON: Encodable {
    var identifier: String
    var recipient: String
    var content: NotificationContent
    var trigger: NotificationTrigger
    /// The next fire instant, in the trigger's zone's offset.
    var nextTriggerDate: String
    var added: Instant
    /// Beyond the recipient's pending limit: kept, not fired while so.
    var setAside: Bool
}

/// `2026-11-24T09:00:00+01:00`: an instant in the offset of the zone it was computed in.
func localInstant(_ instant: Instant, zone name: String) -> String {
    instant.rfc3339(in: TimeZone(identifier: name) ?? TimeZone(identifier: "UTC")!)
}

extension Chime {
    struct Pending: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List requests scheduled and not yet fired, soonest first.",
            discussion: "Set-aside requests (beyond a recipient's pendingLimit) are listed and marked."
        )

        @OptionGroup var options: GlobalOptions

        @Flag(name: .long, help: "Print JSON: the request fields, nextTriggerDate, added, setAside.")
        var json = false

        @Option(name: .long, help: "Only this recipient's requests.")
        var recipient: String?

        func run() throws {
            let scheduler = try openScheduler(options)
            let pending = try scheduler.store.pending(recipient: recipient, limits: scheduler.configuration.pendingLimits)
            if json {
                try printJSON(pending.map {
                    PendingJSON(identifier: $0.request.identifier, recipient: $0.request.recipient, content: $0.request.content,
                                trigger: $0.request.trigger, nextTriggerDate: localInstant($0.nextFire, zone: $0.zone),
                                added: $0.added, setAside: $0.isSetAside)
                })
                return
            }
            for item in pending {
                let category = item.request.content.categoryIdentifier.isEmpty ? "-" : item.request.content.categoryIdentifier
                let mark = item.isSetAside ? "  (set aside: beyond the pending limit)" : ""
                print(printable("\(localInstant(item.nextFire, zone: item.zone))  \(item.request.identifier)  \(item.request.recipient)  \(category)  \(item.request.content.title)\(mark)"))
            }
        }
    }
}
