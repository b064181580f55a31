import ArgumentParser
import ChimeCore
import ChimeRuntime
import Foundation

extension Chime {
    struct Responses: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "responses", abstract: "List recorded responses, oldest first.")

        @OptionGroup var options: GlobalOptions

        @Flag(name: .long, help: "Print JSON: id, identifier, recipient, deliveryID, actionIdentifier, userText, channel, responder, at, status, result.")
        var json = false

        func run() throws {
            let responses = try options.runtime.openStore(existing: true).responses()
            if json {
                try printJSON(responses)
                return
            }
            for response in responses {
                var line = "\(response.id)  \(response.at)  \(response.identifier)  \(response.recipient)  \(response.action)"
                if let text = response.userText { line += "  \"\(text.replacingOccurrences(of: "\n", with: " "))\"" }
                line += "  via \(response.channel) from \(response.responder)  \(response.status)"
                if !response.result.isEmpty { line += " (\(response.result))" }
                print(printable(line))
            }
        }
    }

    struct Replies: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "replies",
            abstract: "List every inbound message and what became of it, oldest first.",
            discussion: """
                Outcomes: responded, replayed, auto-reply, bounce, receipt, too-large, no-token, forged-token, expired-token, \
                forged-sender, unknown-notification, unmatched, unreadable. Text from the messages is shown with control \
                characters escaped (\\u{1b}); --json gives it as it came.
                """
        )

        @OptionGroup var options: GlobalOptions

        @Flag(name: .long, help: "Print JSON: id, at, messageID, sender, outcome, detail, deliveryID.")
        var json = false

        func run() throws {
            let records = try options.runtime.openStore(existing: true).inbound()
            if json {
                try printJSON(records)
                return
            }
            for record in records {
                print(printable("\(record.id)  \(record.at)  \(record.sender.isEmpty ? "-" : record.sender)  \(record.outcome.rawValue)\(record.detail.isEmpty ? "" : "  " + record.detail)"))
            }
        }
    }
}
