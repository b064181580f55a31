import ChimeCore
import ChimeLocalization
import ChimeRendering
import ChimeReply
import Foundation

/// Messages rendered from the templates folder (the compiled-in templates and the strings
/// of whatever locales the folder has). A folder that cannot be read holds every message
/// back, saying which file is wrong (`chime check` reports it too).
/// Links and reply addresses are signed with the store's key (``SigningKey``).
extension Runtime {
    func templateRenderer(configuration: Configuration, store: any NotificationStore) throws -> TemplateRenderer {
        let localizer = try Localizer(directory: templatesPath)
        let links = SignedLinks(key: try signingKey(store), base: configuration.replies.linkBase)
        let composer = EmailComposer(localizer: localizer, templates: try TemplateSet(directory: templatesPath), links: links)
        return TemplateRenderer(composer: composer, configuration: configuration)
    }
}

/// A renderer made on first use, once.
final class LazyRenderer: MessageRenderer, @unchecked Sendable {
    private let lock = NSLock()
    private let make: () throws -> any MessageRenderer
    private var made: (any MessageRenderer)?

    init(_ make: @escaping () throws -> any MessageRenderer) {
        self.make = make
    }

    func email(_ notification: OutgoingNotification) throws -> String {
        try renderer().email(notification)
    }

    func payload(_ notification: OutgoingNotification) throws -> [UInt8] {
        try renderer().payload(notification)
    }

    func groupEmail(_ items: [OutgoingNotification], id: String, date: Instant, kind: GroupKind) throws -> String {
        try renderer().groupEmail(items, id: id, date: date, kind: kind)
    }

    func groupPayload(_ items: [OutgoingNotification], kind: GroupKind) throws -> [UInt8] {
        try renderer().groupPayload(items, kind: kind)
    }

    func optInEmail(_ notification: OutgoingNotification) throws -> String {
        try renderer().optInEmail(notification)
    }

    private func renderer() throws -> any MessageRenderer {
        try lock.withLock {
            if let made { return made }
            let renderer = try make()
            made = renderer
            return renderer
        }
    }
}
