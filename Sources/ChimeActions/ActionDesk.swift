import ChimeCore
import ChimeLocalization
import ChimeRendering
import ChimeReply
import ChimeTransport
import Foundation

/// Carries out responses (the built-in snooze, done, dismiss and default; a category's
/// actions with their hooks) and tells the person what happened, in their language, in
/// the thread they answered in.
public struct ActionDesk: Sendable {
    public let configuration: Configuration
    public let store: any NotificationStore
    /// The templates' strings; nil answers in English.
    public let localizer: Localizer?
    /// The state folder, where command hooks run: a folder the service may write (the
    /// configuration's folder may not be, under systemd's `ProtectSystem=strict` or in a
    /// container).
    public let stateDirectory: String
    /// The Maildirs answers go to, each opened once.
    let folders = MaildirFolders()
    /// The replies of the answers `folders` keeps, until they are published and marked.
    let keptMarks = KeptAnswerMarks()

    /// - Parameter stateDirectory: where command hooks run (`chime --state-dir`, else the
    ///   store's folder).
    public init(configuration: Configuration, store: any NotificationStore, localizer: Localizer?, stateDirectory: String) {
        self.configuration = configuration
        self.store = store
        self.localizer = localizer
        self.stateDirectory = stateDirectory
    }

    /// From now on, answers to Maildirs are kept for ``publishAnswers(_:)``, which writes
    /// them: one sync for a batch of replies instead of one per answer, and the writing
    /// on the thread that publishes.
    public func batchAnswers() {
        folders.batch()
    }

    /// Takes out the answers kept so far, for ``publishAnswers(_:)``: those kept after
    /// wait for the next take.
    public func takeAnswers() -> KeptAnswers {
        // The replies first: one whose answer is staged between the two is marked with
        // the next take's, never before its answer is published.
        let answered = keptMarks.take()
        return KeptAnswers(folders: folders.takeStaged(), answered: answered)
    }

    /// Writes answers taken out by ``takeAnswers()``, and makes them durable and visible
    /// (`new/`), then marks the replies they answer answered. May run while other answers
    /// are being kept.
    public func publishAnswers(_ answers: KeptAnswers) throws {
        try folders.publish(answers)
        try store.markAnswered(answers.answered)
        keptMarks.marked(answers.answered)
    }

    /// The response action a name stands for: one of the request's category's action
    /// identifiers, else a built-in's identifier or short name (`snooze`, `done`…) that
    /// answers such a request (an opt-in request takes `confirm` only, and only it does).
    public func action(named name: String, in request: NotificationRequest) -> String? {
        let category = request.content.categoryIdentifier
        if let action = configuration.category(category)?.action(name) { return action.identifier }
        guard let builtIn = BuiltInAction(identifierOrShortName: name) else { return nil }
        let optIn = category == OptIn.category
        return (builtIn == .confirm) == optIn ? builtIn.rawValue : nil
    }

    /// The request's recipient as they are now: the configuration's, with what they chose
    /// on the preferences page (their language, their previews) over it.
    public func recipient(of request: NotificationRequest) -> Recipient? {
        recipient(request.recipient)
    }

    /// A configured recipient, with the settings they chose applied.
    public func recipient(_ id: String) -> Recipient? {
        configuration.recipient(id)?.applying(try? store.recipientSettings()[id])
    }

    /// How long a snooze `text` asks for, read as a reply's is, in the request's
    /// recipient's zone (`15:00`); nil when it names no time Chime reads.
    public func snoozeSeconds(_ text: String, request: NotificationRequest, now: Instant) -> Int64? {
        SnoozeText.seconds(text, now: now, zone: Self.zone(of: recipient(of: request)))
    }

    /// Whether a snooze `text` names a time Chime reads at all (at `now`, in UTC): what the
    /// reply matcher asks of the words after one of snooze's other words ("Remind me in 2
    /// hours", not "Remind me 3 bananas"; ``ActionMatcher``'s `namesTime`).
    public static func snoozeNamesTime(_ text: String, now: Instant) -> Bool {
        SnoozeText.seconds(text, now: now, zone: SnoozeText.utc) != nil
    }

    /// The recipient's time zone: UTC for none, or for a zone this machine does not know.
    static func zone(of recipient: Recipient?) -> TimeZone {
        recipient.flatMap { TimeZone(identifier: $0.timeZone) } ?? SnoozeText.utc
    }

    /// The language everything said to the request's recipient is in.
    public func locale(of request: NotificationRequest) -> String {
        recipient(of: request)?.locale ?? "en"
    }

    /// The reminder as its recipient knows it (``ReminderTitle``): its title as their
    /// message shows it, or the placeholder their previews show instead.
    public func reminderTitle(of request: NotificationRequest) -> String {
        let category = configuration.category(request.content.categoryIdentifier)
        if let localizer, let recipient = recipient(of: request) {
            return ReminderTitle.text(of: request, for: recipient, category: category, localizer: localizer)
        }
        let content = request.content
        let lead = PreviewSurfaces.lead(title: content.title, body: content.body)
        return lead.isEmpty ? "Notification" : lead
    }

    /// A category's name in a language: its `category.ID` string, else its identifier.
    public func categoryName(_ identifier: String, locale: String) -> String {
        // Reminders without a category, as one: Turn Off and Deliver Quietly on one of
        // them apply to them all, and the preferences page lists them so.
        guard !identifier.isEmpty else { return localizer?.string("prefs.uncategorized", locale: locale)?.text ?? "Uncategorized" }
        return localizer?.string("category.\(identifier)", locale: locale)?.text ?? identifier
    }

    /// An action's title in the recipient's language (a built-in's reply word, "Confirm",
    /// else its short name).
    public func title(of action: String, in request: NotificationRequest) -> String {
        let locale = locale(of: request)
        if let title = configuration.category(request.content.categoryIdentifier)?.action(action)?.title {
            return localizer?.localized(title, locale: locale) ?? title
        }
        guard let builtIn = BuiltInAction(rawValue: action) else { return action }
        return localizer?.word(for: builtIn, locale: locale) ?? builtIn.shortName
    }

    /// What carrying out a response did.
    public struct Outcome: Sendable {
        public var status = StoredResponse.carriedOut
        /// What it gave, as `chime responses` shows it.
        public var result = ""
        /// What to tell the person; nil says nothing.
        public var answer: String?

        public init(status: String = StoredResponse.carriedOut, result: String = "", answer: String? = nil) {
            self.status = status
            self.result = result
            self.answer = answer
        }
    }

    /// Carries out a response just recorded, and records how it went.
    public func carryOut(_ response: StoredResponse, request: NotificationRequest, now: Instant) throws -> Outcome {
        try carryOut(response, request: request, recipient: recipient(of: request), now: now)
    }

    /// ``carryOut(_:request:now:)`` for the request's recipient as ``recipient(of:)`` gave
    /// it (read once per reply: it reads the store).
    func carryOut(_ response: StoredResponse, request: NotificationRequest, recipient: Recipient?, now: Instant) throws -> Outcome {
        let locale = recipient?.locale ?? "en"
        let zone = Self.zone(of: recipient)
        var outcome = Outcome()
        let target = request.content.targetContentIdentifier
        switch BuiltInAction(rawValue: response.action) {
        case .snooze?:
            let asked = response.userText.flatMap { SnoozeText.seconds($0, now: now, zone: zone) }
            let seconds = asked ?? configuration.replies.snooze
            let until = now + seconds
            var again = request
            again.trigger = .timeInterval(seconds: Double(seconds), repeats: false)
            // A repeating request still pending keeps its own schedule beside the snooze.
            if try store.pending(identifier: request.identifier) != nil { again.identifier += Self.snoozedSuffix }
            try store.upsert([PendingNotification(request: again, added: now, nextFire: until, anchor: now, zone: "UTC",
                                                  generation: UUID().uuidString.lowercased())])
            outcome.result = "\(again.identifier) fires at \(until.rfc3339(in: zone))"
            // A text that names no time Chime reads (or one past a thousand years) is not
            // taken silently: the record says the default stood in for it.
            if asked == nil, let text = response.userText, !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
                outcome.result += " (the default snooze: \"\(text.prefix(64))\" names no time Chime reads)"
            }
            // With its year when that is not this one's: "until 20 November", said on the
            // 21st, is next year's, not yesterday's.
            let when = DateText.dayAndTime(until, locale: locale, zone: zone, yearUnlike: now)
            outcome.answer = try text("answer.snoozed", [.string(when)], locale, fallback: "Snoozed until \(when).")
        case .done?:
            let cancelled = try store.cancel([request.identifier, request.identifier + Self.snoozedSuffix])
            outcome.result = cancelled.isEmpty ? "nothing was pending" : "cancelled " + cancelled.joined(separator: ", ")
            outcome.answer = try text("answer.finished", [], locale, fallback: "Done. This reminder will not come again.")
        case .quietly?, .off?, .keep?, .confirm?:
            outcome = try changeDelivery(response.action, request: request, locale: locale, now: now)
        case .dismiss?:
            outcome.result = "dismissed"
        case .default?:
            if let target { outcome.answer = try text("answer.open", [.string(target)], locale, fallback: "Open: \(target)") }
        case nil:
            guard let action = configuration.category(request.content.categoryIdentifier)?.action(response.action) else {
                outcome.status = StoredResponse.failed
                outcome.result = "the category has no action \(response.action) any more"
                break
            }
            let title = localizer?.localized(action.title, locale: locale) ?? action.title
            let (results, failed) = try runHooks(action, response: response, now: now)
            outcome.result = results.joined(separator: "; ")
            if failed {
                outcome.status = StoredResponse.failed
                outcome.answer = try text("answer.failed", [.string(title)], locale, fallback: "“\(title)” could not be carried out.")
            } else if action.options.contains(.foreground), let target {
                outcome.answer = try text("answer.open", [.string(target)], locale, fallback: "Open: \(target)")
            } else if let answer = action.answer {
                outcome.answer = localizer?.localized(answer, locale: locale) ?? answer
            } else {
                outcome.answer = try text("answer.done", [.string(title)], locale, fallback: "Done: \(title)")
            }
        }
        try store.finish(response: response.id, status: outcome.status, result: outcome.result)
        return outcome
    }

    /// What a snooze of a request still pending is named: `ID.snoozed`.
    public static let snoozedSuffix = ".snoozed"

    /// Runs an action's hooks in order: commands now, webhook POSTs queued for the next
    /// run. Returns what each gave, and whether a command failed (the rest then do not run).
    private func runHooks(_ action: NotificationAction, response: StoredResponse, now: Instant) throws -> ([String], Bool) {
        guard !action.hooks.isEmpty else { return ([], false) }
        var done = response
        done.status = StoredResponse.carriedOut
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let json = [UInt8](try encoder.encode(done))
        var results: [String] = []
        for (index, hook) in action.hooks.enumerated() {
            switch hook.kind {
            case .command(let command):
                // One JSON line, so that `cat >> responses.jsonl` keeps one response per line.
                let ending = HookCommand.run(command, input: json + [0x0A], directory: stateDirectory, timeout: hook.timeout,
                                             passing: hook.environment)
                results.append(configuration.redact("command " + ending.text(timeout: hook.timeout)))
                if !ending.succeeded { return (results, true) }
            case .channel(let channel):
                try store.enqueue([QueuedDelivery(channel: channel, address: "", body: json)],
                                  deliveryID: "\(response.deliveryID).hook.\(response.id).\(index)",
                                  identifier: response.identifier, recipient: response.recipient, at: now)
                results.append("queued to \(channel)")
            }
        }
        return (results, false)
    }

    /// A key's text in the locale, or the English fallback when no template has it.
    public func text(_ key: String, _ values: [FormatArgument], _ locale: String, fallback: String) throws -> String {
        try localizer?.formatted(key, values, locale: locale) ?? fallback
    }
}
