import ArgumentParser
import ChimeActions
import ChimeCore
import Foundation

extension Chime {
    struct Respond: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Record a response by hand and carry it out, as if the recipient had answered.",
            discussion: """
                ID is a delivered notification's identifier; ACTION one of its category's action identifiers, or \
                default, dismiss, snooze (--text says how long: 10m, 2h, 15:00) or done. Hooks run and snoozes are \
                scheduled as for a reply; nothing is sent to the recipient. Exits 65 when the notification was not \
                delivered or the category has no such action; answering the same notification with the same action again \
                is reported and not carried out twice.
                """
        )

        @OptionGroup var options: GlobalOptions

        @Argument(help: "The delivered notification's identifier.")
        var identifier: String

        @Argument(help: "The action identifier, or default, dismiss, snooze, done, quietly, off, keep.")
        var action: String

        @Option(name: .long, help: "The text of a text-input action (or the snooze's duration).")
        var text: String?

        func run() throws {
            let configuration = try loadConfiguration(options)
            let store = try openStore(options)
            guard let delivered = try store.delivered(recipient: nil).first(where: { $0.request.identifier == identifier }) else {
                printError("no delivered notification \"\(identifier)\"")
                throw ExitCode(65)
            }
            let request = delivered.request
            let desk = actionDesk(options, configuration: configuration, store: store)
            guard let chosen = desk.action(named: action, in: request) else {
                let category = configuration.category(request.content.categoryIdentifier)
                let known = (category?.actions.map(\.identifier) ?? []) + BuiltInAction.allCases.map(\.shortName)
                printError("\"\(request.content.categoryIdentifier)\" has no action \"\(action)\"; one of: \(known.joined(separator: ", "))")
                throw ExitCode(65)
            }
            let now = options.instant
            var response = StoredResponse(
                deliveryID: delivered.deliveryID, identifier: request.identifier, recipient: request.recipient, action: chosen,
                userText: text, channel: "cli", responder: ProcessInfo.processInfo.environment["USER"] ?? "cli", at: now,
                status: StoredResponse.carriedOut)
            guard let id = try store.record(response, from: nil) else {
                print("\(identifier): \(chosen) was already recorded; not carried out again")
                return
            }
            response.id = id
            let outcome = try desk.carryOut(response, request: request, now: now)
            print("\(identifier): \(chosen) \(outcome.status)\(outcome.result.isEmpty ? "" : ": " + outcome.result)")
            if outcome.status == StoredResponse.failed { throw ExitCode(1) }
        }
    }
}
