import ArgumentParser
import ChimeCore
import ChimeLocalization
import ChimeMIME
import ChimeRendering
import ChimeReply
import ChimeRuntime
import ChimeScheduler
import ChimeTransport
import Foundation

extension Chime {
    struct Preview: RequestFileCommand {
        static let configuration = CommandConfiguration(
            commandName: "preview",
            abstract: "Print exactly what would be sent: the raw RFC 5322 message for email, the HTTP body for a webhook.",
            discussion: """
                Links are on the configuration's linkBase and carry tokens of the length `chime run` writes, signed for a \
                stand-in delivery (they act on nothing): the headers are exactly as long, and folded, as they will be. \
                A request from --json is checked as `chime schedule` checks it and shown at its first fire.
                """
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
            let configuration = try options.runtime.loadConfiguration()
            guard let channel = configuration.channel(channel) else {
                printError("no channel \"\(self.channel)\" in \(options.configPath)")
                throw ExitCode(65)
            }
            let (request, fireDate) = try readRequest(configuration: configuration)
            guard var recipient = configuration.recipient(request.recipient) else {
                printError("unknown recipient \"\(request.recipient)\"")
                throw ExitCode(65)
            }
            if let locale {
                // Refused as chime.xml refuses it, rather than rendered in English unasked.
                let tag = LanguageTag.normalized(locale)
                if let problem = LanguageTag.problem(tag) {
                    printError("--locale: \(problem)")
                    throw ExitCode(64)
                }
                recipient.locale = tag
            }
            if let previews { recipient.showPreviews = previews }
            let address = recipient.addresses.first { $0.channel == channel.id } ?? .init(channel: channel.id)
            let notification = OutgoingNotification(
                request: request, recipient: recipient, address: address, channel: channel,
                fireDate: fireDate, deliveryID: "\(Self.standIn).\(fireDate.seconds)", coalesced: 0)
            let category = configuration.category(request.content.categoryIdentifier)
            do {
                try show(notification, category: category, configuration: configuration)
            } catch {
                // The request does not fit the templates (a key missing, a word for %d) or
                // the templates cannot be read: bad input, as chime schedule says it.
                printError("chime: error: \(error)")
                throw ExitCode(65)
            }
        }

        private func show(_ notification: OutgoingNotification, category: NotificationCategory?, configuration: Configuration) throws {
            let channel = notification.channel
            let localizer = try Localizer(directory: options.templatesPath)
            let links = SignedLinks(key: previewKey(), base: configuration.replies.linkBase)
            switch channel.url.kind {
            case .smtp, .smtps, .maildir:
                let composer = EmailComposer(localizer: localizer, templates: try TemplateSet(directory: options.templatesPath), links: links)
                print(MIMEComposer.compose(try composer.compose(notification, category: category)), terminator: "")
            case .file:
                // The line `chime run` appends: the notification around the generic JSON message.
                let composer = EmailComposer(localizer: localizer, templates: try TemplateSet(directory: options.templatesPath), links: links)
                let line = try JSONLinesTransport.line(for: notification, renderer: TemplateRenderer(composer: composer, configuration: configuration))
                print(String(decoding: line, as: UTF8.self), terminator: "")
            default:
                let message = try ChatComposer(localizer: localizer, templates: try TemplateSet(directory: options.templatesPath), links: links)
                    .compose(notification, category: category)
                print(String(decoding: ChatPayload.encode(ChatPayload.body(for: channel.url.kind, message, interactive: channel.takesPresses)),
                             as: UTF8.self))
            }
        }

        /// The generation of the stand-in delivery: shaped as a real one (a UUID), so that
        /// tokens are as long as `chime run` writes them.
        static let standIn = "00000000-0000-4000-8000-000000000000"

        /// A key of its own: a preview's links are of the real length and shape, and no
        /// link of one acts (its delivery is a stand-in anyway).
        private func previewKey() -> SigningKey {
            var generator = SystemRandomNumberGenerator()
            return SigningKey(bytes: (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) })
        }

        private func readRequest(configuration: Configuration) throws -> (NotificationRequest, Instant) {
            if let id {
                let store = try options.runtime.openStore(existing: true)
                if let pending = try store.pending(identifier: id) { return (pending.request, pending.nextFire) }
                if let delivered = try store.delivered(recipient: nil).first(where: { $0.request.identifier == id }) {
                    return (delivered.request, delivered.fireDate)
                }
                printError("no pending or delivered request \"\(id)\"")
                throw ExitCode(65)
            }
            let data = try readInputFile(json ?? "-")
            do {
                guard let first = try RequestDecoder.decode(data).first else {
                    printError("\(source): error: no request")
                    throw ExitCode(65)
                }
                // As `chime schedule` would take it: checked the same (its attachments
                // from the file's folder, its keys in the templates), and shown at its
                // first fire rather than at now.
                let text = Array(data)
                let checked = try withAttachmentsResolved([first], text: text)
                try checkLocalizationKeys(checked, configuration: configuration, text: text)
                let planned = try Scheduler.plan(checked, configuration: configuration, now: options.instant)
                return (checked[0], planned[0].nextFire)
            } catch let failure as RequestDecoder.Failure {
                printError("\(failure.location(in: source)): error: \(failure)")
                throw ExitCode(65)
            } catch let error as SchedulingError {
                printError(error.lines(in: source, text: Array(data)))
                throw ExitCode(65)
            }
        }
    }
}

extension Recipient.ShowPreviews: ExpressibleByArgument {}
