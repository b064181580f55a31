import ArgumentParser
import ChimeCore
import ChimeSQLite
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

/// The JSON of one delivered notification.
struct DeliveredJSON: Encodable {
    var identifier: String
    var recipient: String
    var content: NotificationContent
    var trigger: NotificationTrigger
    /// The occurrence that fired, as `UNNotification.date`.
    var date: Instant
    var deliveredAt: Instant
    var deliveryID: String
    var coalesced: Int
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
                print("\(localInstant(item.nextFire, zone: item.zone))  \(item.request.identifier)  \(item.request.recipient)  \(category)  \(item.request.content.title)\(mark)")
            }
        }
    }

    struct Cancel: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Remove pending requests.")

        @OptionGroup var removal: Removal

        func run() throws {
            try removal.run(verb: "cancelled", missing: "not pending", one: { try $0.cancel($1) }, all: { try $0.cancelAll() })
        }
    }

    struct Delivered: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List notifications fired and not removed, newest first.")

        @OptionGroup var options: GlobalOptions

        @Flag(name: .long, help: "Print JSON: the request fields, date, deliveredAt, deliveryID, coalesced.")
        var json = false

        @Option(name: .long, help: "Only this recipient's notifications.")
        var recipient: String?

        func run() throws {
            let delivered = try openStore(options).delivered(recipient: recipient)
            if json {
                try printJSON(delivered.map {
                    DeliveredJSON(identifier: $0.request.identifier, recipient: $0.request.recipient, content: $0.request.content,
                                  trigger: $0.request.trigger, date: $0.fireDate, deliveredAt: $0.deliveredAt,
                                  deliveryID: $0.deliveryID, coalesced: $0.coalesced)
                })
                return
            }
            for item in delivered {
                print("\(item.fireDate)  \(item.request.identifier)  \(item.request.recipient)  \(item.request.content.title)")
            }
        }
    }

    struct RemoveDelivered: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "remove-delivered", abstract: "Remove delivered notifications.")

        @OptionGroup var removal: Removal

        func run() throws {
            try removal.run(verb: "removed", missing: "not delivered", one: { try $0.removeDelivered($1) }, all: { try $0.removeAllDelivered() })
        }
    }

    struct Next: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "The next fire instants of a pending request, one RFC 3339 instant per line.",
            discussion: "Instants are in the trigger's own UTC offset (UTC for time intervals)."
        )

        @OptionGroup var options: GlobalOptions

        @Argument(help: "A pending request's identifier.")
        var identifier: String

        @Option(name: .long, help: "How many instants.")
        var count = 1

        @Flag(name: .long, help: "Print a JSON array of instants.")
        var json = false

        func validate() throws {
            guard count > 0 else { throw ValidationError("--count must be at least 1") }
        }

        func run() throws {
            let scheduler = try openScheduler(options)
            guard let instants = try scheduler.upcoming(identifier, count: count, now: options.instant) else {
                printError("no pending request \"\(identifier)\"")
                throw ExitCode(65)
            }
            if json {
                try printJSON(instants)
            } else {
                instants.forEach { print($0) }
            }
        }
    }

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

/// `ID… | --all`, shared by `cancel` and `remove-delivered`.
struct Removal: ParsableArguments {
    @OptionGroup var options: GlobalOptions

    @Argument(help: "Identifiers.")
    var identifiers: [String] = []

    @Flag(name: .long, help: "Remove every one.")
    var all = false

    func validate() throws {
        guard all != !identifiers.isEmpty else { throw ValidationError("give identifiers or --all") }
    }

    /// Prints `VERB N`, and the identifiers that were not there on standard error.
    func run(verb: String, missing: String, one: (SQLiteStore, [String]) throws -> [String], all removeAll: (SQLiteStore) throws -> Int) throws {
        let store = try openStore(options)
        if all {
            print("\(verb) \(try removeAll(store))")
            return
        }
        let removed = try one(store, identifiers)
        print("\(verb) \(removed.count)")
        let absent = identifiers.filter { !removed.contains($0) }
        if !absent.isEmpty { printError("\(missing): \(absent.joined(separator: " "))") }
    }
}
