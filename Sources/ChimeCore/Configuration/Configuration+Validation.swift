import Foundation

extension Configuration {
    /// Every rule the configuration breaks, in document order; empty when it is sound.
    ///
    /// The rules are iOS's where iOS has them: identifiers non-empty and unique (an action
    /// identifier across the whole configuration), at most four actions in the default
    /// context and two in the minimal one, minimal actions taken from the same category,
    /// and the built-in action identifiers reserved.
    public func problems() -> [ConfigurationProblem] {
        categoryProblems() + channelProblems() + recipientProblems() + apiKeyProblems()
    }

    private func categoryProblems() -> [ConfigurationProblem] {
        var problems: [ConfigurationProblem] = []
        var categoryIDs = Set<String>()
        var actionOwners: [String: String] = [:]
        for (c, category) in categories.enumerated() {
            let id = category.identifier
            problems += Self.identifierProblems(id, named: "category identifier", at: .category(c), attribute: "identifier", seen: &categoryIDs)
            if id == OptIn.category {
                problems.append(.init(.category(c), attribute: "identifier", "category identifier \"\(id)\" is reserved for opt-in requests"))
            }
            if category.actions.count > NotificationCategory.maximumDefaultActions {
                problems.append(.init(.category(c), "category \"\(id)\" has \(category.actions.count) actions; at most \(NotificationCategory.maximumDefaultActions) fit the default context"))
            }
            for (a, action) in category.actions.enumerated() {
                problems += actionProblems(action, at: .action(category: c, action: a), in: id, owners: &actionOwners)
            }
            problems += minimalActionProblems(category, at: c)
            problems += formatProblems(category, at: c)
        }
        return problems
    }

    /// A summary format or a hidden-preview placeholder written here that cannot be
    /// written with what Chime gives it (a count and the names; a count): found here, not
    /// when every grouped message and digest of the category is held for it at each run,
    /// or a placeholder sent with its `%u` showing. A value that names a strings key is
    /// checked as well: a key is a plain word, which formats as itself.
    private func formatProblems(_ category: NotificationCategory, at c: Int) -> [ConfigurationProblem] {
        let values: [(attribute: String, value: String?, arguments: [FormatArgument], given: String)] = [
            ("categorySummaryFormat", category.categorySummaryFormat, [.integer(2), .string("Ann and Bob")], "a count (%u) and the names (%@)"),
            ("hiddenPreviewsBodyPlaceholder", category.hiddenPreviewsBodyPlaceholder, [.integer(2)], "a count (%u)"),
        ]
        return values.compactMap { attribute, value, arguments, given in
            guard let value else { return nil }
            do {
                _ = try StringFormat.format(value, arguments)
                return nil
            } catch {
                return .init(.category(c), attribute: attribute,
                             "\(attribute) of category \"\(category.identifier)\" cannot be written with \(given): \(error); a percent sign is written %%")
            }
        }
    }

    private func actionProblems(
        _ action: NotificationAction, at element: ConfigurationElement, in category: String,
        owners: inout [String: String]
    ) -> [ConfigurationProblem] {
        let id = action.identifier
        if id.isEmpty {
            return [.init(element, attribute: "identifier", "action identifier must not be empty")]
        }
        if let builtIn = BuiltInAction(reserving: id) {
            return [.init(element, attribute: "identifier", "action identifier \"\(id)\" is reserved for the built-in \(builtIn.shortName) action")]
        }
        if let owner = owners[id] {
            let place = owner == category ? "in this category" : "in category \"\(owner)\""
            return [.init(element, attribute: "identifier", "duplicate action identifier \"\(id)\" (already used \(place)); action identifiers are unique across all categories")]
        }
        owners[id] = category
        if action.title.isEmpty {
            return [.init(element, attribute: "title", "action \"\(id)\" needs a title")]
        }
        // A hook's channel must take a JSON POST.
        return action.hooks.compactMap { hook in
            guard case .channel(let name) = hook.kind else { return nil }
            guard let target = self.channel(name) else {
                return .init(element, "action \"\(id)\": hook channel \"\(name)\" is not defined")
            }
            return target.url.kind == .json || target.url.kind == .jsons ? nil
                : .init(element, "action \"\(id)\": hook channel \"\(name)\" must be a json:// or jsons:// channel")
        }
    }

    private func minimalActionProblems(_ category: NotificationCategory, at c: Int) -> [ConfigurationProblem] {
        let names = category.minimalActionIdentifiers
        var problems: [ConfigurationProblem] = []
        if names.count > NotificationCategory.maximumMinimalActions {
            problems.append(.init(.minimalActions(category: c), "category \"\(category.identifier)\" has \(names.count) minimal actions; at most \(NotificationCategory.maximumMinimalActions) fit the minimal context"))
        }
        var seen = Set<String>()
        for name in names {
            if !seen.insert(name).inserted {
                problems.append(.init(.minimalActions(category: c), "minimal action \"\(name)\" is listed twice"))
            } else if category.action(name) == nil {
                let elsewhere = categories.first { $0.identifier != category.identifier && $0.action(name) != nil }
                let hint = elsewhere.map { " (it belongs to category \"\($0.identifier)\")" } ?? ""
                problems.append(.init(.minimalActions(category: c), "minimal action \"\(name)\" is not an action of category \"\(category.identifier)\"\(hint)"))
            }
        }
        return problems
    }

    private func channelProblems() -> [ConfigurationProblem] {
        var problems: [ConfigurationProblem] = []
        var ids = Set<String>()
        for (i, channel) in channels.enumerated() {
            problems += Self.identifierProblems(channel.id, named: "channel id", at: .channel(i), attribute: "id", seen: &ids)
            if channel.url.kind.isEmail, channel.from == nil, channel.url.kind != .maildir {
                problems.append(.init(.channel(i), attribute: "from", "email channel \"\(channel.id)\" needs a from address"))
            }
            // Each address attribute must be a mailbox, or mail goes out with an empty header.
            for (attribute, value) in [("from", channel.from), ("replyTo", channel.replyTo), ("returnPath", channel.returnPath)] {
                guard let value else { continue }
                if !Mailbox.isValid(value.replacingOccurrences(of: "{token}", with: "t")) {
                    problems.append(.init(.channel(i), attribute: attribute,
                                          "channel \"\(channel.id)\": \(attribute) \"\(value)\" is not an email address (write bot@example.org or Name <bot@example.org>)"))
                } else if value.contains("{token}"), !Self.isPlusToken(Mailbox.address(of: value)) {
                    // Replies and bounces find their token only as a plus-address.
                    problems.append(.init(.channel(i), attribute: attribute,
                                          "channel \"\(channel.id)\": \(attribute) \"\(value)\" puts {token} where replies and bounces cannot be read back by it: write it once, as local+{token}@domain (e.g. bot+{token}@example.org)"))
                }
            }
            if !channel.url.kind.isEmail, channel.from != nil || channel.replyTo != nil {
                problems.append(.init(.channel(i), "from and replyTo apply to email channels only, and \"\(channel.id)\" is \(channel.url.kind.rawValue)"))
            }
            if !channel.url.kind.isInbound, channel.moveTo != nil {
                problems.append(.init(.channel(i), attribute: "moveTo", "moveTo applies to imap:// and imaps:// channels only, and \"\(channel.id)\" is \(channel.url.kind.rawValue)"))
            } else if let folder = channel.moveTo, let problem = Self.mailboxNameProblem(folder) {
                problems.append(.init(.channel(i), attribute: "moveTo", "channel \"\(channel.id)\": moveTo \"\(folder)\" \(problem)"))
            }
            if channel.url.kind != .mattermost, channel.apiToken != nil {
                problems.append(.init(.channel(i), attribute: "apiToken", "apiToken applies to mattermost:// channels only, and \"\(channel.id)\" is \(channel.url.kind.rawValue)"))
            }
            if let secret = channel.signingSecret, Self.isTooShort(secret) {
                // Not shown: a secret stays out of every message, even a short one.
                problems.append(.init(.channel(i), attribute: "secret", "channel \"\(channel.id)\": secret is \(secret.isEmpty ? "empty" : "too short (\(secret.utf8.count) characters)"); it needs at least \(Self.shortestSecret) characters, or remove it"))
            }
            else if let secret = channel.signingSecret, let problem = Self.platformSecretProblem(secret, channel.url.kind) {
                problems.append(.init(.channel(i), attribute: "secret", "channel \"\(channel.id)\": secret \(problem)"))
            }
            if channel.returnPath != nil, channel.url.kind != .smtp, channel.url.kind != .smtps {
                problems.append(.init(.channel(i), attribute: "returnPath", "returnPath applies to smtp:// and smtps:// channels only, and \"\(channel.id)\" is \(channel.url.kind.rawValue)"))
            }
        }
        return problems
    }

    /// Why a chat platform could never prove a callback with `secret`, nil when it could.
    /// Discord signs with the application's Ed25519 key, whose public half (the secret) is
    /// 64 hexadecimal digits; Telegram's `setWebhook` takes a `secret_token` of 1 to 256
    /// letters, digits, `_` and `-` only. Any other secret turned the buttons interactive
    /// and then refused every press (Discord's first PING included) with 401. The secret
    /// itself is never shown.
    static func platformSecretProblem(_ secret: String, _ kind: ChannelKind) -> String? {
        let bytes = secret.utf8
        func isHexDigit(_ byte: UInt8) -> Bool {
            (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte | 0x20)
        }
        func isTokenCharacter(_ byte: UInt8) -> Bool {
            (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
                || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
        }
        switch kind {
        case .discord where bytes.count != 64 || !bytes.allSatisfy(isHexDigit):
            return "must be the Discord application's public key: 64 hexadecimal digits (its General Information page)"
        case .telegram where bytes.count > 256 || !bytes.allSatisfy(isTokenCharacter):
            return "must be 1 to 256 letters (A–Z, a–z), digits, \"_\" and \"-\": Telegram's setWebhook refuses any other secret_token"
        default:
            return nil
        }
    }

    /// Why `name` cannot be an IMAP mailbox to move messages to, nil when it can: empty,
    /// or holding a control character, which no IMAP string carries (a line break in it
    /// would end `chime fetch`'s command and start another of the file's choosing).
    static func mailboxNameProblem(_ name: String) -> String? {
        if name.isEmpty || name.allSatisfy({ $0 == "/" }) { return "names no mailbox" }
        if name.unicodeScalars.contains(where: { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }) {
            return "holds a control character (a line break?), which no IMAP mailbox name can"
        }
        return nil
    }

    /// Whether `address` holds `{token}` once, as a plus-address: `local+{token}@domain`,
    /// the local part before it ending as the reader of replies and bounces looks for
    /// (``Mailbox/mayPrecedePlus(_:)``).
    static func isPlusToken(_ address: String) -> Bool {
        guard address.components(separatedBy: "{token}").count == 2,
              let marker = address.utf8.firstRange(of: "+{token}@".utf8), marker.lowerBound > address.utf8.startIndex else { return false }
        return Mailbox.mayPrecedePlus(address.utf8[address.utf8.index(before: marker.lowerBound)])
    }

    /// The fewest characters a channel's `secret` may have: a shorter one can be guessed
    /// (every platform's own secrets are longer: Slack's 32, Discord's key 64).
    public static let shortestSecret = 16

    /// Whether a channel's or an API key's secret is refused as too short.
    static func isTooShort(_ secret: String) -> Bool { secret.utf8.count < shortestSecret }

    /// The channels' and API keys' secrets that ``problems()`` refuses as too short.
    public var secretsTooShort: [String] { (channels.compactMap(\.signingSecret) + apiKeys.map(\.secret)).filter(Self.isTooShort) }

    /// API keys: distinct ids, secrets as long as a channel's and each used by one key.
    private func apiKeyProblems() -> [ConfigurationProblem] {
        var problems: [ConfigurationProblem] = []
        var ids = Set<String>(), secrets = Set<String>()
        for (k, key) in apiKeys.enumerated() {
            problems += Self.identifierProblems(key.id, named: "API key id", at: .apiKey(k), attribute: "id", seen: &ids)
            if Self.isTooShort(key.secret) {
                // Not shown: a secret stays out of every message, even a short one.
                problems.append(.init(.apiKey(k), attribute: "secret", "API key \"\(key.id)\": secret is \(key.secret.isEmpty ? "empty" : "too short (\(key.secret.utf8.count) characters)"); it needs at least \(Self.shortestSecret) characters"))
            } else if !secrets.insert(key.secret).inserted {
                problems.append(.init(.apiKey(k), attribute: "secret", "API key \"\(key.id)\": its secret is another key's; give each key its own"))
            }
        }
        return problems
    }

    private func recipientProblems() -> [ConfigurationProblem] {
        var problems: [ConfigurationProblem] = []
        var ids = Set<String>()
        for (r, recipient) in recipients.enumerated() {
            problems += Self.identifierProblems(recipient.id, named: "recipient id", at: .recipient(r), attribute: "id", seen: &ids)
            if TimeZone(identifier: recipient.timeZone) == nil {
                problems.append(.init(.recipient(r), attribute: "timeZone", "unknown time zone \"\(recipient.timeZone)\" (use an IANA name such as Europe/Paris)"))
            }
            if let problem = LanguageTag.problem(recipient.locale) {
                problems.append(.init(.recipient(r), attribute: "locale", problem))
            }
            for (a, address) in recipient.addresses.enumerated() {
                guard let channel = channel(address.channel) else {
                    problems.append(.init(.address(recipient: r, address: a), attribute: "channel", "recipient \"\(recipient.id)\" names channel \"\(address.channel)\", which is not defined"))
                    continue
                }
                if channel.url.kind.isInbound {
                    problems.append(.init(.address(recipient: r, address: a), attribute: "channel", "recipient \"\(recipient.id)\" names channel \"\(channel.id)\", a mailbox replies are read from: nothing can be sent to it"))
                }
                if channel.url.kind.isEmail, !Mailbox.isValid(address.value) {
                    problems.append(.init(.address(recipient: r, address: a), address.value.isEmpty
                        ? "recipient \"\(recipient.id)\" needs an email address on channel \"\(channel.id)\""
                        : "recipient \"\(recipient.id)\": \"\(address.value)\" is not an email address (write alice@example.org or Alice <alice@example.org>)"))
                }
            }
            // Double opt-in is by email: someone who cannot be asked would never get anything.
            if recipient.authorization == .notDetermined,
               !recipient.addresses.contains(where: { channel($0.channel)?.url.kind.isEmail ?? false }) {
                problems.append(.init(.recipient(r), attribute: "authorization", "recipient \"\(recipient.id)\" is notDetermined but has no email address to ask to opt in"))
            }
            for identifier in recipient.preferences.keys.sorted() where category(identifier) == nil {
                problems.append(.init(.recipient(r), "recipient \"\(recipient.id)\" sets delivery for category \"\(identifier)\", which is not defined"))
            }
        }
        return problems
    }

    /// An identifier must be non-empty and not seen before; `seen` remembers it.
    private static func identifierProblems(
        _ id: String, named noun: String, at element: ConfigurationElement, attribute: String, seen: inout Set<String>
    ) -> [ConfigurationProblem] {
        if id.isEmpty {
            return [.init(element, attribute: attribute, "\(noun) must not be empty")]
        }
        if !seen.insert(id).inserted {
            return [.init(element, attribute: attribute, "duplicate \(noun) \"\(id)\"")]
        }
        return []
    }

    /// `local@domain`, without spaces or angle brackets: the address alone.
}
