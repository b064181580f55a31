import ArgumentParser
import ChimeCore
import ChimeRuntime
import Foundation

extension Chime {
    struct Recipients: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "recipients",
            abstract: "List recipients and their addresses, with the ones marked undeliverable; clear a mark.",
            discussion: """
                An email address is marked undeliverable by a delivery report (a hard bounce) that came back to the \
                VERP return path of a message sent to that very address; nothing is sent to it until the mark is \
                cleared: by --clear, or by a genuine reply from the address (what was queued for it meanwhile fails, \
                and chime retry sends it once the mark is cleared). Marks of addresses no longer in the \
                configuration are listed under "-".
                """
        )

        @OptionGroup var options: GlobalOptions

        @Flag(name: .long, help: "Print JSON: one object per address: recipient, channel, address, undeliverable (null, or at and reason).")
        var json = false

        @Option(name: .long, help: ArgumentHelp("Clear the undeliverable mark of this email address.", valueName: "address"))
        var clear: String?

        struct Line: Encodable {
            var recipient: String
            var channel: String
            var address: String
            var undeliverable: UndeliverableMark?

            // `undeliverable` is always there, null when unmarked, as --help and the
            // API's settings say (the synthesized coding left it out).
            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encode(recipient, forKey: .recipient)
                try container.encode(channel, forKey: .channel)
                try container.encode(address, forKey: .address)
                try container.encode(undeliverable, forKey: .undeliverable)
            }

            private enum CodingKeys: String, CodingKey { case recipient, channel, address, undeliverable }
        }

        func run() throws {
            let configuration = try options.runtime.loadConfiguration()
            let store = try options.runtime.openStore(existing: true)
            if let clear {
                let address = Mailbox.key(of: clear)
                guard !(try store.clearUndeliverable([address])).isEmpty else {
                    printError("\(printable(address)) is not marked undeliverable")
                    throw ExitCode(65)
                }
                print("cleared \(printable(address)): mail goes to it again")
                return
            }
            var marks = Dictionary(try store.undeliverableMarks().map { ($0.address, $0) }) { first, _ in first }
            var lines: [Line] = []
            for recipient in configuration.recipients {
                for address in recipient.addresses {
                    let email = configuration.channel(address.channel)?.url.kind.isEmail ?? false
                    let key = Mailbox.key(of: address.value)
                    lines.append(Line(recipient: recipient.id, channel: address.channel, address: address.value,
                                      undeliverable: email ? marks[key] : nil))
                }
            }
            for recipient in configuration.recipients {
                for address in recipient.addresses { marks[Mailbox.key(of: address.value)] = nil }
            }
            lines += marks.values.sorted { $0.address < $1.address }.map { Line(recipient: "-", channel: "-", address: $0.address, undeliverable: $0) }
            if json {
                try printJSON(lines)
                return
            }
            for line in lines {
                var text = "\(line.recipient)  \(line.channel)  \(line.address.isEmpty ? "-" : line.address)"
                if let mark = line.undeliverable { text += "  undeliverable since \(mark.at) (\(mark.reason))" }
                print(printable(text))
            }
        }
    }
}
