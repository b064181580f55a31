import ChimeCore
import ChimeXML
import Foundation

/// Turns a schema-valid `chime.xml` document into the model, resolving indirection and
/// typed values; remembers which element each part came from, so the model's rules can
/// point back at the source.
struct ConfigurationReader {
    let document: XMLDocument
    let indirection: Indirection
    private(set) var diagnostics: [Diagnostic] = []
    /// Where each channel's `caFile` is named (``Configuration/caFileLocations``).
    private(set) var caFileLocations: [String: SourceLocation] = [:]
    /// Where a secret is written in the file itself (``Configuration/inlineSecrets``).
    private(set) var inlineSecrets: [SourceLocation] = []
    private(set) var elements: [ConfigurationElement: XMLElement] = [:]
    /// Channels left out because their URL was refused; addresses naming them are not
    /// reported again as naming an undefined channel.
    private(set) var refusedChannels: Set<String> = []
    /// Values read from the environment or a file: kept out of every message.
    private(set) var secrets: Set<String> = []
    /// Whether a recipient's id or zone was read through indirection.
    private(set) var recipientsReadIndirectly = false

    init(document: XMLDocument, indirection: Indirection) {
        self.document = document
        self.indirection = indirection
    }

    mutating func read() -> Configuration {
        let root = document.root
        let categories = (root.child(named: "categories")?.children(named: "category") ?? [])
            .enumerated().map { readCategory($1, index: $0) }
        var channels: [Channel] = []
        for element in root.child(named: "channels")?.children(named: "channel") ?? [] {
            guard let channel = readChannel(element) else { continue }
            elements[.channel(channels.count)] = element
            channels.append(channel)
        }
        let recipientsElement = root.child(named: "recipients")
        let recipients = (recipientsElement?.children(named: "recipient") ?? [])
            .enumerated().map { readRecipient($1, index: $0) }
        let defaultLimit = recipientsElement.flatMap { positive($0, "pendingLimit") }
        var configuration = Configuration(categories: categories, channels: channels, recipients: recipients, defaultPendingLimit: defaultLimit)
        if let concurrency = root.child(named: "channels").flatMap({ positive($0, "concurrency", most: Self.mostConcurrency) }) {
            configuration.concurrency = concurrency
        }
        if let replies = root.child(named: "replies") {
            configuration.replies = readReplies(replies)
        }
        for (k, element) in (root.child(named: "api")?.children(named: "key") ?? []).enumerated() {
            elements[.apiKey(k)] = element
            let scope = choice(element, "scope", among: APIKey.Scope.allCases.map(\.name), APIKey.Scope.init(name:)) ?? .read
            configuration.apiKeys.append(APIKey(id: identifier(element, "id"), secret: secret(element, "secret") ?? "", scope: scope,
                                                rate: positive(element, "rate")))
        }
        return configuration
    }

    private mutating func readCategory(_ element: XMLElement, index c: Int) -> NotificationCategory {
        elements[.category(c)] = element
        var options: NotificationCategory.Options = []
        for (name, option) in NotificationCategory.Options.named where flag(element, name) {
            options.insert(option)
        }
        var actions: [NotificationAction] = []
        var minimal: [String] = []
        for child in element.children {
            switch child.name {
            case "action", "textInputAction":
                elements[.action(category: c, action: actions.count)] = child
                actions.append(readAction(child))
            case "minimalActions":
                elements[.minimalActions(category: c)] = child
                minimal = child.text.split(whereSeparator: \.isWhitespace).map(String.init)
            default:
                break // the schema admits nothing else
            }
        }
        var category = NotificationCategory(
            identifier: identifier(element, "identifier"),
            actions: actions,
            minimalActionIdentifiers: minimal,
            hiddenPreviewsBodyPlaceholder: value(element, "hiddenPreviewsBodyPlaceholder"),
            categorySummaryFormat: value(element, "categorySummaryFormat"),
            options: options
        )
        if element.attribute("confirmDestructive") != nil { category.confirmsDestructive = flag(element, "confirmDestructive") }
        return category
    }

    private mutating func readReplies(_ element: XMLElement) -> ReplySettings {
        var replies = ReplySettings()
        replies.trustedAuthServIDs = (value(element, "trustedAuthServID") ?? "").split(whereSeparator: \.isWhitespace).map { $0.lowercased() }
        if let seconds = duration(element, "snooze") { replies.snooze = Int64(seconds.rounded(.up)) }
        if let seconds = duration(element, "unmatchedEvery") { replies.unmatchedEvery = Int64(seconds.rounded(.up)) }
        if let resolved = resolved(element, "linkBase") {
            let base = resolved.text
            // Written into headers (List-Unsubscribe) and pages as it is: an absolute http(s)
            // URL with nothing a header or an attribute would end at.
            if let url = URL(string: base), ["http", "https"].contains(url.scheme?.lowercased() ?? ""), url.host?.isEmpty == false,
               !base.contains(where: { $0.isWhitespace || "\"<>\\^`{|}".contains($0) }) {
                replies.linkBase = base.hasSuffix("/") ? String(base.dropLast()) : base
            } else {
                report(element, "linkBase", "linkBase must be an absolute http or https URL such as https://chime.example.org, not \(resolved.shown)")
            }
        }
        if element.attribute("answers") != nil { replies.answers = flag(element, "answers") }
        if let bytes = size(element, "maxMessageSize") { replies.maxMessageSize = bytes }
        return replies
    }

    /// An action's hooks: a command, or a webhook channel, each with its timeout.
    private mutating func readHooks(_ element: XMLElement) -> [ActionHook] {
        element.children(named: "hook").compactMap { hook in
            let timeout = duration(hook, "timeout") ?? 10
            switch (value(hook, "command"), value(hook, "channel")) {
            case (let command?, nil):
                let names = (value(hook, "env") ?? "").split(whereSeparator: \.isWhitespace).map(String.init)
                return ActionHook(.command(command), timeout: timeout, environment: names)
            case (nil, let channel?): return ActionHook(.channel(channel), timeout: timeout)
            default:
                report(hook, nil, "a hook needs exactly one of command and channel")
                return nil
            }
        }
    }

    private mutating func readAction(_ element: XMLElement) -> NotificationAction {
        var options: NotificationAction.Options = []
        for (name, option) in NotificationAction.Options.named where flag(element, name) {
            options.insert(option)
        }
        let title = value(element, "title") ?? ""
        var textInput: NotificationAction.TextInput?
        if element.name == "textInputAction" {
            textInput = .init(
                buttonTitle: value(element, "textInputButtonTitle") ?? title,
                placeholder: value(element, "textInputPlaceholder") ?? ""
            )
        }
        let aliases = (value(element, "aliases") ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        return NotificationAction(identifier: identifier(element, "identifier"), title: title, options: options, textInput: textInput,
                                  answer: value(element, "answer"), aliases: aliases, hooks: readHooks(element))
    }

    private mutating func readChannel(_ element: XMLElement) -> Channel? {
        let id = identifier(element, "id")
        guard let raw = element.attribute("url") else { return nil }
        let url: ChannelURL
        do {
            let resolved = try indirection.resolve(raw, wholeFile: false, isURL: true)
            secrets.formUnion(resolved.secrets)
            url = try ChannelURL(parsing: resolved.text, isSecret: resolved.isIndirect)
            // A password, or a webhook's token in its path, written in the file itself.
            if !resolved.isIndirect, url.password?.isEmpty == false || (url.kind.isWebhook && !url.path.isEmpty && url.kind != .json && url.kind != .jsons) {
                inlineSecrets.append(document.location(of: element, attribute: "url"))
            }
        } catch let failure as Indirection.Failure {
            report(element, "url", "channel \"\(id)\": \(failure.message)")
            refusedChannels.insert(id)
            return nil
        } catch {
            report(element, "url", "channel \"\(id)\": \(error)")
            refusedChannels.insert(id)
            return nil
        }
        // What the URL holds besides where it points is secret: the password, and a
        // webhook's path and query, which carry its token; and each long segment of the
        // path on its own, as a server's error may quote a token without the rest of the
        // path (Telegram's `bot123456:AA…`), and a Telegram token without its `bot` or
        // its bot's id (`123456:AA…`, `AA…`), as the Bot API's errors may name it. Short
        // ones (`api`, `webhooks`) are words.
        let segments = url.kind.isWebhook ? url.path.split(separator: "/") : []
        let tokens = (segments + segments.filter { $0.hasPrefix("bot") }.flatMap { [$0.dropFirst(3), $0.drop { $0 != ":" }.dropFirst()] })
            .map(String.init).filter { $0.count >= Self.tokenLength }
        for secret in [url.password, url.kind.isWebhook ? url.path : nil] + tokens + url.endpointQuery.map(\.value) {
            if let secret { secrets.formUnion(Self.echoedForms(of: secret)) }
        }
        // The password as the server saw it, in case its error quotes what it was sent:
        // SMTP's AUTH PLAIN (`\0user\0password`) and LOGIN, HTTP's Basic (`user:password`).
        if let password = url.password, !password.isEmpty {
            let user = url.user ?? ""
            for sent in ["\0\(user)\0\(password)", password, "\(user):\(password)"] {
                secrets.insert(Data(sent.utf8).base64EncodedString())
            }
        }
        return Channel(id: id, url: url, from: value(element, "from"), replyTo: value(element, "replyTo"), returnPath: value(element, "returnPath"),
                       policy: readPolicy(element, kind: url.kind), caFile: caFile(element, channel: id),
                       signingSecret: secret(element, "secret"), moveTo: value(element, "moveTo"),
                       apiToken: secret(element, "apiToken"))
    }

    /// The channel's delivery options over its kind's defaults.
    private mutating func readPolicy(_ element: XMLElement, kind: ChannelKind) -> DeliveryPolicy {
        var policy = DeliveryPolicy.defaults(for: kind)
        if let seconds = duration(element, "connectTimeout") { policy.connectTimeout = seconds }
        if let seconds = duration(element, "timeout") { policy.timeout = seconds }
        if let count = positive(element, "concurrency", most: Self.mostConcurrency) { policy.concurrency = count }
        if let rate = rate(element, "rate") { policy.rate = rate }
        if let count = positive(element, "maxAttempts") { policy.maxAttempts = count }
        if let seconds = duration(element, "maxAge") { policy.maxAge = Int64(seconds.rounded(.up)) }
        if let seconds = duration(element, "backoff") { policy.backoff = Int64(seconds.rounded(.up)) }
        if let seconds = duration(element, "maxBackoff") { policy.maxBackoff = Int64(seconds.rounded(.up)) }
        if let seconds = duration(element, "maxWait") { policy.maxWait = seconds }
        if policy.maxBackoff < policy.backoff {
            // Where maxBackoff is not written, the mistake is the backoff, said at it: said
            // at the tag, it had hidden every other error there (a missing from).
            if element.attribute("maxBackoff") != nil {
                report(element, "maxBackoff", "maxBackoff must not be shorter than backoff")
            } else {
                report(element, "backoff", "backoff must not be longer than maxBackoff, \(policy.maxBackoff) s by default here: set maxBackoff too")
            }
        }
        return policy
    }

    /// The configuration file's folder: where relative paths start.
    private var folder: String { URL(fileURLWithPath: document.path).deletingLastPathComponent().path }

    /// The channel's `caFile`, resolved, its place kept so that `chime check` can say
    /// what is wrong with the file there (``Configuration/fileProblems``).
    private mutating func caFile(_ element: XMLElement, channel id: String) -> String? {
        guard let given = value(element, "caFile") else { return nil }
        caFileLocations[id] = document.location(of: element, attribute: "caFile")
        return resolvePath(given)
    }

    /// A path relative to the configuration file's folder.
    private func resolvePath(_ path: String) -> String {
        guard !path.hasPrefix("/") else { return path }
        return URL(fileURLWithPath: folder).appendingPathComponent(path).path
    }

    private mutating func readRecipient(_ element: XMLElement, index r: Int) -> Recipient {
        elements[.recipient(r)] = element
        var addresses: [Recipient.Address] = []
        for child in element.children(named: "address") {
            elements[.address(recipient: r, address: addresses.count)] = child
            var address = ""
            do {
                let resolved = try indirection.resolve(child.text.trimmingCharacters(in: .whitespacesAndNewlines))
                secrets.formUnion(resolved.secrets)
                address = resolved.text
            } catch {
                report(child, nil, error.message)
            }
            addresses.append(.init(channel: value(child, "channel") ?? "", value: address))
        }
        var preferences: [String: DeliveryPreference] = [:]
        for child in element.children(named: "category") {
            guard let identifier = value(child, "identifier"), let preference: DeliveryPreference = choice(child, "deliver") else { continue }
            preferences[identifier] = preference
        }
        var quietHours: QuietHours?
        if let text = value(element, "quietHours") {
            quietHours = QuietHours(parsing: text)
            if quietHours == nil { report(element, "quietHours", "quietHours must be a window such as 22:00-07:00, not \"\(text)\"") }
        }
        var digestAt = 7 * 60
        if let text = value(element, "digestAt") {
            if let minute = QuietHours.minutes(text) { digestAt = minute } else { report(element, "digestAt", "digestAt must be a time such as 07:00, not \"\(text)\"") }
        }
        // fr_FR is fr-FR; a value read through indirection is kept out of messages in
        // the form they would quote too.
        let locale = resolved(element, "locale")
        let normalized = LanguageTag.normalized(locale?.text ?? "en")
        if locale?.isIndirect == true { secrets.insert(normalized) }
        return Recipient(
            id: identifier(element, "id"),
            locale: normalized,
            timeZone: value(element, "timeZone") ?? "UTC",
            showPreviews: choice(element, "showPreviews") ?? .always,
            authorization: choice(element, "authorization") ?? .authorized,
            addresses: addresses,
            pendingLimit: positive(element, "pendingLimit"),
            quietHours: quietHours,
            quietHoursMode: choice(element, "quietHoursMode") ?? .digest,
            digestAt: digestAt,
            groupWait: duration(element, "groupWait").map { Int64($0.rounded(.up)) } ?? 0,
            preferences: preferences
        )
    }

    // MARK: Attribute values

    /// An attribute with indirection resolved; nil when absent or when it failed (then a
    /// diagnostic is recorded).
    private mutating func resolved(_ element: XMLElement, _ name: String) -> Indirection.Value? {
        guard let raw = element.attribute(name) else { return nil }
        do {
            let value = try indirection.resolve(raw)
            secrets.formUnion(value.secrets)
            if value.isIndirect, element.name == "recipient", name == "id" || name == "timeZone" { recipientsReadIndirectly = true }
            return value
        } catch {
            report(element, name, error.message)
            return nil
        }
    }

    private mutating func value(_ element: XMLElement, _ name: String) -> String? {
        resolved(element, name)?.text
    }

    /// The length from which a webhook path's segment is taken for a token: Slack's
    /// secret part is 24 characters, Telegram's and Discord's tokens longer; the names
    /// around them (`services`, `sendMessage`) shorter.
    static let tokenLength = 16

    /// A secret and the forms a server's error may quote it in: percent-encoded (a path
    /// echoed as `%2F…`, Telegram's `bot123:AA…` as `bot123%3AAA…`) and with its slashes
    /// escaped as JSON writers escape them (`\/`) or as HTML entities (`&#x2F;`).
    static func echoedForms(of secret: String) -> Set<String> {
        var forms: Set<String> = [secret, secret.replacingOccurrences(of: "/", with: "\\/"), secret.replacingOccurrences(of: "/", with: "&#x2F;")]
        if let encoded = secret.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-._~"))) {
            forms.insert(encoded)
        }
        return forms
    }

    /// A value that is a secret however it was given: kept out of every message.
    private mutating func secret(_ element: XMLElement, _ name: String) -> String? {
        guard let value = resolved(element, name) else { return nil }
        secrets.insert(value.text)
        if !value.isIndirect, !value.text.isEmpty { inlineSecrets.append(document.location(of: element, attribute: name)) }
        return value.text
    }

    /// An identifier: required by the schema; white space inside is refused because lists
    /// such as `<minimalActions>` are separated by it.
    private mutating func identifier(_ element: XMLElement, _ name: String) -> String {
        let id = value(element, name) ?? ""
        if id.contains(where: \.isWhitespace) {
            report(element, name, "identifier \"\(id)\" must not contain white space")
        }
        return id
    }

    private mutating func flag(_ element: XMLElement, _ name: String) -> Bool {
        guard let value = resolved(element, name) else { return false }
        switch value.text {
        case "true", "1": return true
        case "false", "0": return false
        default:
            let shown = value.shown
            report(element, name, "\(name) must be true or false, not \(shown)")
            return false
        }
    }

    /// A whole number of at least 1 and at most `most`: past a bound, sums such as a
    /// channel's connections and the emails queued ahead of them overflowed, and
    /// `chime run` trapped on a configuration `chime check` had passed.
    private mutating func positive(_ element: XMLElement, _ name: String, most: Int = 1_000_000_000) -> Int? {
        guard let value = resolved(element, name) else { return nil }
        guard let number = Int(value.text), number > 0, number <= most else {
            let shown = value.shown
            report(element, name, "\(name) must be a whole number from 1 to \(most), not \(shown)")
            return nil
        }
        return number
    }

    /// The most connections a channel may keep open at once.
    static let mostConcurrency = 1_000

    /// A duration in seconds: `500ms`, or `90s`, `10m`, `1h30m`…
    private mutating func duration(_ element: XMLElement, _ name: String) -> Double? {
        guard let value = resolved(element, name) else { return nil }
        // Within the thousand years ``DurationText`` takes: 2^63 ms made a Double that
        // libcurl's timeout in milliseconds (an Int) could not hold, and `chime run` trapped.
        if value.text.hasSuffix("ms"), let milliseconds = Int(value.text.dropLast(2)), milliseconds > 0,
           milliseconds <= 1_000 * 366 * 86_400 * 1_000 {
            return Double(milliseconds) / 1_000
        }
        guard let seconds = DurationText.seconds(value.text) else {
            let shown = value.shown
            report(element, name, "\(name) must be a duration such as 500ms, 90s, 10m or 1h30m, not \(shown)")
            return nil
        }
        return Double(seconds)
    }

    /// Bytes from `10485760`, `512K`, `10M` or `1G`.
    private mutating func size(_ element: XMLElement, _ name: String) -> Int? {
        guard let value = resolved(element, name) else { return nil }
        let units: [Character: Int] = ["K": 1 << 10, "M": 1 << 20, "G": 1 << 30]
        let unit = value.text.last.flatMap { units[$0] }
        guard let number = Int(unit == nil ? Substring(value.text) : value.text.dropLast()), number > 0,
              number <= Int.max / (unit ?? 1) else {
            let shown = value.shown
            report(element, name, "\(name) must be a size such as 512K, 10M or 1G, not \(shown)")
            return nil
        }
        return number * (unit ?? 1)
    }

    /// Requests per second from `4/s`, `30/min`, `100/h` or a bare number.
    private mutating func rate(_ element: XMLElement, _ name: String) -> Double? {
        guard let value = resolved(element, name) else { return nil }
        let parts = value.text.split(separator: "/", maxSplits: 1)
        let per: Double? = parts.count == 1 ? 1 : ["s": 1, "min": 60, "h": 3_600][String(parts[1])]
        guard let count = parts.first.flatMap({ Double($0) }), count > 0, count.isFinite, let per else {
            let shown = value.shown
            report(element, name, "\(name) must be a number of requests such as 4/s, 30/min or 100/h, not \(shown)")
            return nil
        }
        // Slower than one an hour would hold a run for more than an hour between two
        // requests (and 1e-21/s overflowed the clock).
        guard count / per >= 1.0 / 3_600 else {
            report(element, name, "\(name) \(value.shown) is slower than 1/h: a run would wait more than an hour between two requests")
            return nil
        }
        return count / per
    }

    private mutating func choice<T: RawRepresentable & CaseIterable>(_ element: XMLElement, _ name: String) -> T?
    where T.RawValue == String {
        choice(element, name, among: T.allCases.map(\.rawValue), T.init(rawValue:))
    }

    /// One of the names `among`, as `make` reads it (the schema admits indirection too, so
    /// a value read through it is checked here).
    private mutating func choice<T>(_ element: XMLElement, _ name: String, among names: [String], _ make: (String) -> T?) -> T? {
        guard let value = resolved(element, name) else { return nil }
        guard let result = make(value.text) else {
            report(element, name, "\(name) must be one of \(names.joined(separator: ", ")), not \(value.shown)")
            return nil
        }
        return result
    }

    private mutating func report(_ element: XMLElement, _ attribute: String?, _ message: String) {
        diagnostics.append(Diagnostic(.error, at: document.location(of: element, attribute: attribute), message))
    }
}
