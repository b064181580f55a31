import Foundation

/// A channel's `url` attribute, parsed and checked: scheme known, host present where one
/// is needed, options valid.
///
/// The URL often holds a secret (an SMTP password, a webhook token in the path), so its
/// ``description`` and every error leave out the user information, path and query.
public struct ChannelURL: Hashable, Sendable, CustomStringConvertible {
    /// Why a channel URL was refused. The message never contains the URL itself.
    public struct ParseError: Error, Hashable, Sendable, CustomStringConvertible {
        public var message: String
        public var description: String { message }

        public init(message: String) {
            self.message = message
        }
    }

    /// How `smtp://` uses STARTTLS.
    public enum StartTLS: String, Sendable {
        /// Upgrade when the server offers it (the default).
        case opportunistic
        /// Refuse to send unless the connection is upgraded.
        case required
    }

    public var kind: ChannelKind
    public var host: String?
    public var port: Int?
    public var user: String?
    public var password: String?
    /// For local kinds, the file or folder; for the others, the endpoint's path.
    public var path: String
    /// The query items that are not Chime's own options, passed on to the endpoint.
    public var endpointQuery: [URLQueryItem]
    /// The path and those items as the URL wrote them, percent-encoded: what is sent.
    /// Decoded and encoded again, a token's `%2B` went as `+` (a space to the server)
    /// and `%2F` as `/`, and the platform refused it.
    var encodedPath = ""
    var encodedEndpointQuery: [URLQueryItem] = []
    public var startTLS: StartTLS
    /// Skip TLS certificate verification. For tests against self-signed servers only.
    public var insecure: Bool
    /// For `smtp://` and `smtps://`: pipeline commands (RFC 2920) when the server offers
    /// it (the default); `?pipelining=false` sends one command at a time whatever it offers.
    public var pipelining = true

    /// Parses and checks a channel URL.
    /// - Parameters:
    ///   - text: the URL.
    ///   - isSecret: the URL came from the environment or a file; then not even its
    ///     scheme is quoted in an error, since a mistyped secret could begin it.
    /// - Throws: ``ParseError`` naming what is wrong, without repeating the URL.
    public init(parsing text: String, isSecret: Bool = false) throws {
        var trimmed = text.trimmingCharacters(in: .whitespaces)
        guard let schemeEnd = trimmed.firstIndex(of: ":"), schemeEnd != trimmed.startIndex else {
            throw ParseError(message: "the URL has no scheme (expected one of \(ChannelKind.schemeList))")
        }
        var scheme = trimmed[..<schemeEnd].lowercased()
        // The platform's own URL, pasted as the platform gave it: its kind from its host.
        if scheme == "https" || scheme == "http" {
            let host = URLComponents(string: trimmed)?.host?.lowercased() ?? ""
            guard scheme == "https", let platform = Self.platform(ofHost: host) else {
                throw ParseError(message: scheme == "http"
                    ? "an http:// URL is not a channel kind: write json:// for a generic JSON webhook over http"
                    : "this https:// URL is no platform's known webhook host: write mattermost:// for Mattermost (its host is yours), jsons:// for a generic JSON webhook, or the platform's kind (\(ChannelKind.allCases.filter(\.isWebhook).map(\.rawValue).joined(separator: ", "))) in place of https")
            }
            trimmed = platform.rawValue + trimmed[schemeEnd...]
            scheme = platform.rawValue
        }
        let colon = trimmed.firstIndex(of: ":")!
        guard let kind = ChannelKind(rawValue: scheme) else {
            let shown = !isSecret && scheme.count <= 20 && scheme.allSatisfy { $0.isLetter || $0.isNumber || "+-.".contains($0) }
                ? "\"\(scheme)\"" : "of the URL"
            throw ParseError(message: "unknown URL scheme \(shown) (expected one of \(ChannelKind.schemeList))")
        }
        self.kind = kind
        if kind.isLocal {
            var rest = String(trimmed[trimmed.index(after: colon)...])
            if rest.hasPrefix("//") { rest.removeFirst(2) }
            guard !rest.isEmpty else {
                throw ParseError(message: "a \(scheme): URL needs a path, as in \(scheme):./outbox")
            }
            self.path = rest.removingPercentEncoding ?? rest
            self.host = nil
            self.port = nil
            self.user = nil
            self.password = nil
            self.endpointQuery = []
            self.startTLS = .opportunistic
            self.insecure = false
            return
        }
        guard let components = URLComponents(string: trimmed) else {
            throw ParseError(message: "the \(scheme):// URL is not well formed")
        }
        guard let host = components.host, !host.isEmpty else {
            throw ParseError(message: "a \(scheme):// URL needs a host, as in \(scheme)://\(Self.exampleHost(kind))")
        }
        self.host = host
        self.port = components.port
        if let port = components.port, !(1...65535).contains(port) {
            throw ParseError(message: "port \(port) is out of range 1-65535")
        }
        self.user = components.user
        self.password = components.password
        self.path = components.path
        encodedPath = components.percentEncodedPath
        var startTLS = StartTLS.opportunistic
        var insecure = false
        var pipelining = true
        var passedOn: [URLQueryItem] = []
        var encodedPassedOn: [URLQueryItem] = []
        for (item, encoded) in zip(components.queryItems ?? [], components.percentEncodedQueryItems ?? []) {
            switch item.name {
            case "insecure":
                guard let value = item.value, let flag = Bool(value) else {
                    throw ParseError(message: "insecure must be true or false")
                }
                insecure = flag
            case "starttls" where kind.upgradesWithSTARTTLS:
                guard let value = item.value, let mode = StartTLS(rawValue: value) else {
                    throw ParseError(message: "starttls must be required or opportunistic")
                }
                startTLS = mode
            case "pipelining" where kind.isEmail:
                guard let value = item.value, let flag = Bool(value) else {
                    throw ParseError(message: "pipelining must be true or false")
                }
                pipelining = flag
            default:
                if kind.isEmail || kind.isInbound {
                    let name = isSecret ? "" : " \"\(item.name)\""
                    let known = (kind.upgradesWithSTARTTLS ? ["starttls"] : []) + (kind.isEmail ? ["pipelining"] : []) + ["insecure"]
                    throw ParseError(message: "unknown option\(name) for a \(scheme):// URL (known: \(known.joined(separator: ", ")))")
                }
                passedOn.append(item)
                encodedPassedOn.append(encoded)
            }
        }
        self.startTLS = startTLS
        self.insecure = insecure
        self.pipelining = pipelining
        self.endpointQuery = passedOn
        encodedEndpointQuery = encodedPassedOn
        if kind.isWebhook && kind != .json && kind != .jsons && (path.isEmpty || path == "/") {
            throw ParseError(message: "a \(scheme):// URL needs the path the platform gave, as in \(scheme)://\(Self.exampleHost(kind))")
        }
    }

    /// For a webhook, the real endpoint: the kind replaced by `https` (`http` for `json://`);
    /// Discord's with `with_components=true`.
    /// A Telegram channel's bot id: the digits before the `:` of `/bot<ID>:<secret>/…`
    /// in its path, the `from.id` of every message that bot sends; nil when the path has
    /// no such token.
    public var telegramBotID: String? {
        guard kind == .telegram, let token = path.split(separator: "/").first(where: { $0.hasPrefix("bot") }),
              let colon = token.firstIndex(of: ":") else { return nil }
        let id = token.dropFirst(3)[..<colon]
        return !id.isEmpty && id.allSatisfy(\.isASCII) && id.allSatisfy(\.isNumber) ? String(id) : nil
    }

    public var endpoint: URL? {
        guard let scheme = kind.transportScheme, let host else { return nil }
        var components = URLComponents()
        components.scheme = scheme
        components.host = host
        components.port = port
        components.user = user
        components.password = password
        components.percentEncodedPath = encodedPath
        var query = encodedEndpointQuery
        // A webhook no application owns drops a message's components (its buttons)
        // silently unless asked to keep them; an application's keeps them either way.
        if kind == .discord, !endpointQuery.contains(where: { $0.name == "with_components" }) {
            query.append(URLQueryItem(name: "with_components", value: "true"))
        }
        components.percentEncodedQueryItems = query.isEmpty ? nil : query
        return components.url
    }

    /// The mailbox of an IMAP channel: the URL's path, `INBOX` when it has none.
    public var mailbox: String {
        let name = path.hasPrefix("/") ? String(path.dropFirst()) : path
        return name.isEmpty ? "INBOX" : name
    }

    /// `kind://host:port/…`: enough to recognise the channel, nothing secret.
    public var description: String {
        if kind.isLocal { return "\(kind.rawValue):\(path)" }
        var text = "\(kind.rawValue)://\(host ?? "")"
        if let port { text += ":\(port)" }
        if !path.isEmpty && path != "/" { text += "/…" }
        return text
    }

    /// The chat platform a webhook host belongs to: Slack's, Discord's, Microsoft Teams'
    /// (Office 365 connectors and Power Automate workflows) and Telegram's. Mattermost
    /// runs on its users' own hosts, so it has none.
    static func platform(ofHost host: String) -> ChannelKind? {
        func under(_ domain: String) -> Bool { host == domain || host.hasSuffix("." + domain) }
        if host == "hooks.slack.com" { return .slack }
        if under("discord.com") || under("discordapp.com") { return .discord }
        if under("webhook.office.com") || under("logic.azure.com") || under("powerautomate.com") || under("powerplatform.com") { return .msteams }
        if host == "api.telegram.org" { return .telegram }
        return nil
    }

    private static func exampleHost(_ kind: ChannelKind) -> String {
        switch kind {
        case .smtp, .smtps: "mail.example.org:587"
        case .imap, .imaps: "chime:${IMAP_PASSWORD}@imap.example.org/INBOX"
        case .slack: "hooks.slack.com/services/T000/B000/XXXX"
        case .discord: "discord.com/api/webhooks/ID/TOKEN"
        case .mattermost: "chat.example.org/hooks/KEY"
        case .msteams: "example.webhook.office.com/webhookb2/…"
        case .telegram: "api.telegram.org/botTOKEN/sendMessage?chat_id=42"
        default: "hooks.example.org/path"
        }
    }
}
