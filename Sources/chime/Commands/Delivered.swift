import ArgumentParser
import ChimeConfig
import ChimeCore
import ChimeRuntime
import Foundation

extension Chime {
    struct Delivered: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "delivered",
            abstract: "List notifications fired and not removed, newest first.",
            discussion: "Each line: the instant it fired in the recipient's zone (--utc: in UTC), identifier, recipient, title."
        )

        @OptionGroup var options: GlobalOptions

        @Flag(name: .long, help: "Print JSON: the request fields, date, deliveredAt, deliveryID, coalesced.")
        var json = false

        @Option(name: .long, help: "Only this recipient's notifications.")
        var recipient: String?

        @Flag(name: .long, help: "Write instants in UTC rather than in each recipient's zone.")
        var utc = false

        func run() throws {
            let delivered = try options.runtime.openStore(existing: true).delivered(recipient: recipient)
            if json {
                try printJSON(delivered.map(DeliveredJSON.init))
                return
            }
            // The zones come from the configuration, when it can be read; listing needs none.
            let clock = ListingClock(utc: utc, configuration: try? ConfigurationLoader().load(path: options.configPath))
            for item in delivered {
                print(printable("\(clock.text(item.fireDate, recipient: item.request.recipient))  \(item.request.identifier)  \(item.request.recipient)  \(item.request.content.listingTitle)"))
            }
        }
    }
}
