import ChimeCore

/// Opens one transport per channel, once per run, and keeps it for every message.
public final class TransportFactory {
    private var open: [String: Transport] = [:]
    private let renderer: any MessageRenderer

    public init(renderer: any MessageRenderer) {
        self.renderer = renderer
    }

    /// The transport of a local channel; nil for the network kinds, whose messages go
    /// through the outbox.
    /// - Throws: when the channel's destination cannot be opened.
    public func transport(for channel: Channel) throws -> Transport? {
        if let existing = open[channel.id] { return existing }
        let made: Transport?
        switch channel.url.kind {
        case .maildir: made = try MaildirTransport(path: channel.url.path, renderer: renderer)
        case .file: made = try JSONLinesTransport(path: channel.url.path, renderer: renderer)
        default: made = nil
        }
        open[channel.id] = made
        return made
    }

    /// The Maildir of a `maildir:` channel, opened once per run like its transport; nil
    /// for other kinds.
    public func maildir(for channel: Channel) throws -> MaildirFolder? {
        guard channel.url.kind == .maildir else { return nil }
        return (try transport(for: channel) as? MaildirTransport)?.folder
    }
}
