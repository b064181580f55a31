import ArgumentParser
import ChimeCore
import ChimeRuntime
import Foundation

/// Lists deliveries in one state (or all), as text or JSON.
private func listDeliveries(_ options: GlobalOptions, state: DeliveryState?, json: Bool) throws {
    let deliveries = try options.runtime.openStore(existing: true).deliveries(state: state)
    if json {
        try printJSON(deliveries.map(DeliveryJSON.init))
        return
    }
    for delivery in deliveries {
        let to = delivery.address.isEmpty ? delivery.channel : "\(delivery.address) via \(delivery.channel)"
        var line = "\(delivery.id)  \(delivery.state.rawValue)  \(delivery.identifier)  \(delivery.recipient)  \(to)"
        line += "  \(delivery.attempts) attempt\(delivery.attempts == 1 ? "" : "s")"
        if delivery.state == .queued { line += ", next \(delivery.nextAttempt)" }
        if let last = delivery.lastAttempt, last.outcome != .delivered { line += "  \(last.message)" }
        print(printable(line))
    }
}

extension Chime {
    struct Deliveries: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "deliveries",
            abstract: "List deliveries over SMTP and webhooks, oldest first, each with its attempts.",
            discussion: "Each network destination of a fired notification is one delivery: queued (waiting for its first try or a retry), delivered, or failed."
        )

        @OptionGroup var options: GlobalOptions

        @Option(name: .long, help: "Only deliveries in this state: queued, delivered or failed.")
        var state: String?

        @Flag(name: .long, help: "Print JSON: id, identifier, recipient, channel, address, deliveryID, state, attempts, queuedAt, nextAttempt, history.")
        var json = false

        func validate() throws {
            if let state, DeliveryState(rawValue: state) == nil {
                throw ValidationError("--state must be one of queued, delivered, failed")
            }
        }

        func run() throws {
            try listDeliveries(options, state: state.flatMap(DeliveryState.init), json: json)
        }
    }

    struct Failed: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "failed",
            abstract: "List deliveries that gave up: refused for good, or out of retries.",
            discussion: "`chime retry ID…` or `chime retry --all` queues them again for the next `chime run`."
        )

        @OptionGroup var options: GlobalOptions

        @Flag(name: .long, help: "Print JSON, as `chime deliveries --json`.")
        var json = false

        func run() throws {
            try listDeliveries(options, state: .failed, json: json)
        }
    }

    struct Retry: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "retry",
            abstract: "Queue failed deliveries again; the next `chime run` sends them.",
            discussion: "Each gets a fresh retry budget; its earlier attempts stay in its history. Exits 65, queuing nothing, when an ID is not a failed delivery."
        )

        @OptionGroup var options: GlobalOptions

        @Argument(help: "Delivery ids, as `chime failed` lists them.")
        var ids: [Int64] = []

        @Flag(name: .long, help: "Every failed delivery.")
        var all = false

        func validate() throws {
            if all == !ids.isEmpty { throw ValidationError("give delivery ids or --all, not both or neither") }
        }

        func run() throws {
            let (queued, notFailed) = try options.runtime.openStore(existing: true).retry(all ? nil : ids, now: options.instant)
            guard notFailed.isEmpty else {
                printError("retry: not a failed delivery: \(notFailed.map(String.init).joined(separator: ", ")) (see chime failed)")
                throw ExitCode(65)
            }
            print("queued \(queued.count) deliver\(queued.count == 1 ? "y" : "ies") again")
        }
    }
}
