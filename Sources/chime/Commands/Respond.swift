import ArgumentParser
import ChimeActions
import ChimeCore
import ChimeRuntime
import Foundation

extension Chime {
    struct Respond: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "respond",
            abstract: "Record a response by hand and carry it out, as if the recipient had answered; or carry out again one that failed.",
            discussion: """
                ID is a delivered notification's identifier; ACTION one of its category's action identifiers, or \
                default, dismiss, snooze (--text says how long: 10m, 2h, 15:00) or done. Hooks run (in the state \
                folder, --state-dir) and snoozes are scheduled as for a reply; nothing is sent to the recipient. Exits 65 \
                when the notification was not delivered or the category has no such action; answering the same \
                notification with the same action again is reported and not carried out twice, unless its carrying out \
                failed or was cut short: then it is carried out again; so is one awaiting confirmation, with this \
                command's --text instead of the text that waits (the operator's answer stands). \
                --retry RESPONSE_ID (the id `chime responses` prints first) carries out again a recorded response whose \
                carrying out failed (a hook's exit, a timeout) or was cut short (still `carrying out` ten minutes after \
                it was taken: its process was killed), with the same id, text and JSON for its hooks; one that \
                succeeded, is being carried out or awaits confirmation is not. Exits 75 when carrying out fails (again): try later.
                """
        )

        @OptionGroup var options: GlobalOptions

        @Argument(help: "The delivered notification's identifier.")
        var identifier: String?

        @Argument(help: "The action identifier, or default, dismiss, snooze, done, quietly, off, keep.")
        var action: String?

        @Option(name: .long, help: "The text of a text-input action (or the snooze's duration).")
        var text: String?

        @Option(name: .long, help: ArgumentHelp("Carry out again the recorded response with this id, whose carrying out failed or was cut short.", valueName: "response-id"))
        var retry: Int64?

        func validate() throws {
            if retry != nil {
                guard identifier == nil, action == nil, text == nil else {
                    throw ValidationError("--retry takes a response id alone: give no ID, ACTION or --text with it")
                }
            } else if identifier == nil || action == nil {
                throw ValidationError("give a notification's ID and an ACTION, or --retry RESPONSE_ID")
            }
        }

        func run() throws {
            let configuration = try options.runtime.loadConfiguration()
            let store = try options.runtime.openStore(existing: true)
            let desk = try options.runtime.actionDesk(configuration: configuration, store: store)
            if let retry {
                try again(retry, desk: desk, store: store)
                return
            }
            let (identifier, action) = (identifier ?? "", action ?? "")
            guard let delivered = try store.delivered(recipient: nil).first(where: { $0.request.identifier == identifier }) else {
                printError(printable("no delivered notification \"\(identifier)\""))
                throw ExitCode(65)
            }
            let request = delivered.request
            guard let chosen = desk.action(named: action, in: request) else {
                let category = configuration.category(request.content.categoryIdentifier)
                // The built-in actions this request takes: confirm belongs to opt-in requests only.
                let builtIn = BuiltInAction.allCases.filter { desk.action(named: $0.rawValue, in: request) != nil }
                let known = (category?.actions.map(\.identifier) ?? []) + builtIn.map(\.shortName)
                printError(printable("\"\(request.content.categoryIdentifier)\" has no action \"\(action)\"; one of: \(known.joined(separator: ", "))"))
                throw ExitCode(65)
            }
            let now = options.instant
            // A reply's unreadable snooze falls back to the default, since its writer cannot
            // be asked again; the operator can, before anything is recorded (recorded, a
            // second `respond` would be "already recorded").
            if chosen == BuiltInAction.snooze.rawValue, let text, !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty,
               desk.snoozeSeconds(text, request: request, now: now) == nil {
                printError(printable("--text \"\(text)\" names no time to snooze for (10m, 2h, 1h30m, 15:00, 3pm); nothing recorded"))
                throw ExitCode(65)
            }
            var response = StoredResponse(
                deliveryID: delivered.deliveryID, identifier: request.identifier, recipient: request.recipient, action: chosen,
                userText: text, channel: "cli", responder: ProcessInfo.processInfo.environment["USER"] ?? "cli", at: now,
                status: StoredResponse.carryingOut)
            let recorded: Int64?
            do {
                recorded = try store.record(response, from: nil)
            } catch let inFlight as ResponseInFlight {
                print(printable("\(identifier): \(chosen) is being carried out (since \(inFlight.since)); not carried out twice"))
                return
            }
            guard let id = recorded else {
                print(printable("\(identifier): \(chosen) was already recorded; not carried out again"))
                return
            }
            response.id = id
            try carryOut(response, request: request, desk: desk)
        }

        /// `--retry`: the failed (or cut short) response taken again and carried out, else why not.
        private func again(_ id: Int64, desk: ActionDesk, store: any NotificationStore) throws {
            guard let recorded = try store.responses().first(where: { $0.id == id }) else {
                printError("no response \(id) (chime responses lists them, each with its id first)")
                throw ExitCode(65)
            }
            guard let request = try store.request(ofDelivery: recorded.deliveryID) else {
                printError(printable("response \(id): its notification \"\(recorded.identifier)\" is no longer known; it cannot be carried out"))
                throw ExitCode(65)
            }
            guard let response = try store.retake(response: id, now: options.instant) else {
                if recorded.status == StoredResponse.awaitingConfirmation {
                    printError("response \(id) awaits confirmation by its link; it did not fail")
                    throw ExitCode(65)
                }
                if recorded.status == StoredResponse.carryingOut {
                    print(printable("\(recorded.identifier): \(recorded.action) is being carried out (since \(recorded.at)); not carried out twice"))
                    return
                }
                print(printable("\(recorded.identifier): \(recorded.action) was carried out already; not carried out again"))
                return
            }
            try carryOut(response, request: request, desk: desk)
        }

        /// Carries a recorded response out and says how it went: exits 75 when it failed
        /// (recorded; `chime respond --retry ID` tries again), a sysexits code as every
        /// other exit of chime's, where it was 1.
        private func carryOut(_ response: StoredResponse, request: NotificationRequest, desk: ActionDesk) throws {
            let outcome = try desk.carryOut(response, request: request, now: options.instant)
            let line = printable("\(response.identifier): \(response.action) \(outcome.status)\(outcome.result.isEmpty ? "" : ": " + outcome.result)")
            // A failure on standard error, as `run` and `digest` say theirs.
            guard outcome.status != StoredResponse.failed else {
                printError(line)
                throw ExitCode(75)
            }
            print(line)
        }
    }
}
