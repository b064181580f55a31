import ArgumentParser
import ChimeCore
import Foundation

/// The JSON of one recorded response.
struct ResponseJSON: Encodable {
    var id: Int64
    var identifier: String
    var recipient: String
    var deliveryID: String
    /// The category's action identifier, or Apple's default and dismiss identifiers.
    var actionIdentifier: String
    var userText: String?
    var channel: String
    var responder: String
    var at: Instant
    /// `carried out`, or `awaiting confirmation`.
    var status: String

    init(_ response: StoredResponse) {
        id = response.id
        identifier = response.identifier
        recipient = response.recipient
        deliveryID = response.deliveryID
        actionIdentifier = response.action
        userText = response.userText
        channel = response.channel
        responder = response.responder
        at = response.at
        status = response.status
    }
}

extension Chime {
    struct Responses: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List recorded responses, oldest first.")

        @OptionGroup var options: GlobalOptions

        @Flag(name: .long, help: "Print JSON: id, identifier, recipient, deliveryID, actionIdentifier, userText, channel, responder, at, status.")
        var json = false

        func run() throws {
            let responses = try openStore(options).responses()
            if json {
                try printJSON(responses.map(ResponseJSON.init))
                return
            }
            for response in responses {
                var line = "\(response.id)  \(response.at)  \(response.identifier)  \(response.recipient)  \(response.action)"
                if let text = response.userText { line += "  \"\(text.replacingOccurrences(of: "\n", with: " "))\"" }
                line += "  via \(response.channel) from \(response.responder)  \(response.status)"
                print(line)
            }
        }
    }

    struct Replies: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List every inbound message and what became of it, oldest first.",
            discussion: "Outcomes: responded, replayed, auto-reply, bounce, no-token, forged-token, expired-token, forged-sender, unknown-notification, unmatched, unreadable."
        )

        @OptionGroup var options: GlobalOptions

        @Flag(name: .long, help: "Print JSON: id, at, messageID, sender, outcome, detail, deliveryID.")
        var json = false

        func run() throws {
            let records = try openStore(options).inbound()
            if json {
                try printJSON(records)
                return
            }
            for record in records {
                print("\(record.id)  \(record.at)  \(record.sender.isEmpty ? "-" : record.sender)  \(record.outcome.rawValue)\(record.detail.isEmpty ? "" : "  " + record.detail)")
            }
        }
    }
}
