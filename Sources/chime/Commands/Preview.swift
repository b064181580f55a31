import ArgumentParser
import ChimeCore
import ChimeLocalization
import ChimeMIME
import ChimeRendering
import Foundation

extension Chime {
    struct Preview: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print exactly what would be sent: the raw RFC 5322 message for email, the HTTP body for a webhook.",
            discussion: "Links and the reply token carry a stand-in delivery id, unsigned, where `chime run` puts the signed token; their shape is the same."
        )

        @OptionGroup var options: GlobalOptions

        @Option(name: .long, help: "A pending or delivered request's identifier.")
        var id: String?

        @Option(name: .long, help: ArgumentHelp("A request JSON file (its first request), or - for standard input.", valueName: "file"))
        var json: String?

        @Option(name: .long, help: "The channel to render for.")
        var channel: String

        @Option(name: .long, help: "Render in this locale instead of the recipient's.")
        var locale: String?

        @Option(name: .long, help: "Render with this showPreviews setting: always, whenAuthenticated or never.")
        var previews: Recipient.ShowPreviews?

        func validate() throws {
            guard (id == nil) != (json == nil) else { throw ValidationError("give --id or --json") }
        }

        func run() throws {
            let configuration = try loadConfiguration(options)
            guard let channel = configuration.channel(channel) else {
                printError("no channel \"\(self.channel)\" in \(options.configPath)")
                throw ExitCode(65)
            }
            let (request, fireDate) = try readRequest()
            guard var recipient = configuration.recipient(request.recipient) else {
                printError("unknown recipient \"\(request.recipient)\"")
                throw ExitCode(65)
            }
            if let locale { recipient.locale = locale }
            if let previews { recipient.showPreviews = previews }
            let address = recipient.addresses.first { $0.channel == channel.id } ?? .init(channel: channel.id)
            let notification = OutgoingNotification(
                request: request, recipient: recipient, address: address, channel: channel,
                fireDate: fireDate, deliveryID: "preview.\(fireDate.seconds)", coalesced: 0)
            let category = configuration.category(request.content.categoryIdentifier)
            let localizer = try Localizer(directory: options.templatesPath)
            switch channel.url.kind {
            case .smtp, .smtps, .maildir:
                let composer = EmailComposer(localizer: localizer, templates: try TemplateSet(directory: options.templatesPath))
                print(MIMEComposer.compose(try composer.compose(notification, category: category)), terminator: "")
            case .file:
                print(String(decoding: try JSONEncoder().encode(request), as: UTF8.self))
            default:
                let message = try ChatComposer(localizer: localizer, templates: try TemplateSet(directory: options.templatesPath)).compose(notification, category: category)
                print(String(decoding: ChatPayload.encode(ChatPayload.body(for: channel.url.kind, message)), as: UTF8.self))
            }
        }

        private func readRequest() throws -> (NotificationRequest, Instant) {
            if let id {
                let store = try openStore(options)
                if let pending = try store.pending(identifier: id) { return (pending.request, pending.nextFire) }
                if let delivered = try store.delivered(recipient: nil).first(where: { $0.request.identifier == id }) {
                    return (delivered.request, delivered.fireDate)
                }
                printError("no pending or delivered request \"\(id)\"")
                throw ExitCode(65)
            }
            let path = json ?? "-"
            let data: Data
            if path == "-" {
                data = FileHandle.standardInput.readDataToEndOfFile()
            } else if let contents = FileManager.default.contents(atPath: path) {
                data = contents
            } else {
                printError("\(path): error: no such file")
                throw ExitCode(66)
            }
            do {
                guard let first = try RequestDecoder.decode(data).first else {
                    printError("\(path): error: no request")
                    throw ExitCode(65)
                }
                return (first, options.instant)
            } catch let failure as RequestDecoder.Failure {
                printError("\(path): error: \(failure)")
                throw ExitCode(65)
            }
        }
    }
}

extension Recipient.ShowPreviews: ExpressibleByArgument {}
