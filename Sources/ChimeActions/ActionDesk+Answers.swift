import ChimeCore
import ChimeCurl
import ChimeMIME
import ChimeRendering
import ChimeReply
import ChimeTransport
import Foundation

extension ActionDesk {
    /// A text from outside as an answer or a page shows it beside a link that acts on it:
    /// one line of at most 60 characters (its line breaks and tabs as spaces: a
    /// textarea's "milk⏎eggs" was shown as `milk\u{d}\u{a}eggs`), with nothing that could
    /// move or reorder what is shown (other control and bidirectional characters escaped).
    public static func shownText(_ text: String) -> String {
        let line = text.contains(where: { $0.isNewline || $0 == "\t" })
            ? text.split(whereSeparator: { $0.isNewline || $0 == "\t" }).joined(separator: " ") : text
        return printable(String(line.prefix(60))) + (line.count > 60 ? "…" : "")
    }

    /// Takes a reply as far as it goes: a fresh response is carried out (or, when it
    /// needs proof, a confirmation link is sent); a replay and a reply that matched
    /// nothing are answered (each at most once per recipient per `unmatchedEvery`), but
    /// not a message whose answer was queued or written when it came before (an MTA's
    /// retry, an IMAP message fetched again). Returns where the response stands and the
    /// answer sent (nil when there is nothing to settle). Machines, forgeries and unknown
    /// senders are never answered.
    @discardableResult
    public func settle(_ reply: Reply, now: Instant) throws -> Outcome? {
        guard let thread = reply.thread, let request = reply.request else { return nil }
        // What is read and written in the store is one transaction, unless a command hook
        // runs (the store is not held while it does); the answer is written after.
        let decide = { try decision(reply, request: request, now: now) }
        guard let (outcome, recipient, open) = try runsCommand(settling: reply) ? decide() : store.together(decide) else { return nil }
        guard let answer = outcome.answer else { return outcome }
        try send(answer, open: open, in: thread, of: reply, for: request, recipient: recipient, now: now)
        return outcome
    }

    /// Whether ``settle(_:now:)`` runs a command hook for `reply`: it must then be called
    /// outside of the store's ``StoreTransactions/together(_:)``, which must not wait for
    /// another process.
    public func runsCommand(settling reply: Reply) -> Bool {
        guard let request = reply.request, let response = reply.response,
              let action = configuration.category(request.content.categoryIdentifier)?.action(response.action) else { return false }
        return action.hooks.contains(where: \.runsCommand)
    }

    /// What ``settle(_:now:)`` decides and carries out, with the recipient and, when there
    /// is an answer to send, how many of their reminders are still open.
    private func decision(_ reply: Reply, request: NotificationRequest, now: Instant) throws -> (Outcome, Recipient?, Int)? {
        // Read once: each reading of the recipient's settings is a store query.
        let recipient = recipient(of: request)
        let locale = recipient?.locale ?? "en"
        var outcome = Outcome(status: "")
        switch reply.record.outcome {
        case .responded:
            guard let response = reply.response else { return nil }
            if response.status == StoredResponse.awaitingConfirmation, let token = reply.confirmation {
                outcome = try askToConfirm(response, token: token, request: request, locale: locale)
            } else {
                outcome = try carryOut(response, request: request, recipient: recipient, now: now)
            }
        case .replayed:
            guard try answersNow(reply, turn: "replayed", request: request, now: now) else { return nil }
            // One that still waits for its confirmation gets a new link (``ReplyDesk``), not
            // "already done".
            if let waiting = reply.response, waiting.status == StoredResponse.awaitingConfirmation, let token = reply.confirmation {
                outcome = try askToConfirm(waiting, token: token, request: request, locale: locale)
            } else {
                outcome.answer = try text("answer.replayed", [], locale, fallback: "This was already done.")
            }
        case .tooLarge:
            // A text-input action's text over the bound: said, as a page or a thread says it.
            guard let action = reply.textTooLong, try answersNow(reply, turn: "unmatched", request: request, now: now) else { return nil }
            let title = title(of: action, in: request), reminder = request.content.title
            outcome.answer = try text("page.text.tooLong", [.string(title), .string(reminder)], locale,
                                      fallback: "\(reminder): your text for “\(title)” is too long.")
        case .unmatched:
            guard try answersNow(reply, turn: "unmatched", request: request, now: now) else { return nil }
            // A text-input action named without its text: how to add it, as its email says.
            if let identifier = reply.textMissing, let actions = configuration.category(request.content.categoryIdentifier)?.actions,
               let index = actions.firstIndex(where: { $0.identifier == identifier }) {
                let title = title(of: identifier, in: request), number = index + 1
                outcome.answer = try localizer.map { try TextInputHint.email(number, actions[index], localizer: $0, locale: locale) }
                    ?? "Reply \(number) followed by your text for \(title)"
                break
            }
            let choices = validReplies(for: request, locale: locale).joined(separator: ", ")
            outcome.answer = try text("answer.unmatched", [.string(choices)], locale,
                              fallback: "Sorry, that reply was not understood. Reply with one of: \(choices)")
        default:
            return nil
        }
        guard outcome.answer != nil, configuration.replies.answers else {
            outcome.answer = nil
            // A response carried out with nothing to say (dismiss, answers turned off):
            // its sender got all they will, and the message delivered again is not
            // answered either.
            if reply.record.outcome == .responded, let message = AnsweredMessage(reply.record) { try store.markAnswered([message]) }
            return (outcome, recipient, 0)
        }
        return (outcome, recipient, try store.outstanding(recipient: request.recipient))
    }

    /// Whether a reply that carries nothing out is answered now: not this very message
    /// again, and at most once per `unmatchedEvery` for its recipient, in `turn`'s count
    /// ("replayed", "unmatched").
    private func answersNow(_ reply: Reply, turn: String, request: NotificationRequest, now: Instant) throws -> Bool {
        try !answeredBefore(reply) && store.takeTurn("\(turn):" + request.recipient, at: now, every: configuration.replies.unmatchedEvery)
    }

    /// Asks for a response's confirmation by its link, showing the text that waits: the
    /// link confirms it, and anyone who had the reply address could have written it.
    private func askToConfirm(_ response: StoredResponse, token: String, request: NotificationRequest, locale: String) throws -> Outcome {
        let link = MessageLinks.actionURL(base: configuration.replies.linkBase, token: token, identifier: response.action)
        let title = title(of: response.action, in: request)
        var outcome = Outcome(status: response.status)
        if let waiting = response.waitingText {
            let shown = Self.shownText(waiting)
            outcome.answer = try text("answer.confirmText", [.string(title), .string(link), .string(shown)], locale,
                                      fallback: "Please confirm “\(title)” with “\(shown)” here: \(link)")
        } else {
            outcome.answer = try text("answer.confirm", [.string(title), .string(link)], locale, fallback: "Please confirm “\(title)” here: \(link)")
        }
        return outcome
    }

    /// Whether this very message (its Message-ID, for the same delivery) came before and
    /// its answer was queued or written then: its sender wrote once. One that came before
    /// but whose answer was never made (a kill, a failed write, between recording the
    /// response and answering) is answered now.
    private func answeredBefore(_ reply: Reply) throws -> Bool {
        guard let message = AnsweredMessage(reply.record) else { return false }
        return try keptMarks.contains(message) || store.answered(message)
    }

    /// The replies a category takes, as its emails number them, then the built-ins.
    func validReplies(for request: NotificationRequest, locale: String) -> [String] {
        let actions = configuration.category(request.content.categoryIdentifier)?.actions ?? []
        var choices = actions.enumerated().map { "\($0 + 1) (\(localizer?.localized($1.title, locale: locale) ?? $1.title))" }
        for builtIn in BuiltInAction.answerable(in: request.content.categoryIdentifier) {
            choices.append(localizer?.word(for: builtIn, locale: locale)?.lowercased() ?? builtIn.shortName)
        }
        return choices
    }

    /// Sends an answer into the reply's thread, through the channel the reply came on:
    /// written into a Maildir at once (or kept for ``publishAnswers(_:)``), or queued for
    /// SMTP (sent by the next `chime run`); the reply is marked answered once its answer
    /// is queued or written. Ends with how many of the recipient's reminders are still `open`.
    private func send(_ answer: String, open: Int, in thread: Reply.Thread, of reply: Reply, for request: NotificationRequest,
                      recipient: Recipient?, now: Instant) throws {
        guard let channel = configuration.channel(thread.channel) else { return }
        let deliveryID = reply.record.deliveryID ?? ""
        let locale = recipient?.locale ?? "en"
        var body = answer
        if open > 0 {
            body += "\n\n" + (try text("answer.outstanding", [.integer(open)], locale, fallback: "\(open) reminders still open."))
        }
        let domain = Mailbox.domain(of: channel.envelopeFrom)
        let id = stableHash(thread.messageID + "\u{0}" + answer + "\u{0}" + String(now.seconds))
        let subject = thread.subject.lowercased().hasPrefix("re:") ? thread.subject : "Re: " + thread.subject
        let zone = Self.zone(of: recipient)
        let message = MailMessage(
            from: channel.fromHeader, to: [thread.address], replyTo: channel.replyAddress(token: reply.token ?? ""),
            subject: subject, messageID: "answer.\(id)@\(domain)", date: now.rfc5322(in: zone),
            inReplyTo: thread.messageID.isEmpty ? nil : thread.messageID,
            references: (thread.references + [thread.messageID]).filter { !$0.isEmpty },
            // RFC 3834: an automatic answer to a message, which responders must not answer.
            headers: EmailComposer.quietHeaders("auto-replied") + [("X-Chime-Delivery", deliveryID)],
            text: body + "\n")
        let bytes = Array(MIMEComposer.compose(message).utf8)
        // Marked after the answer is queued (in its transaction on SQLite; right after it
        // on PostgreSQL, whose `together` is no transaction) or written: a failure between
        // the two means a second answer at worst, never none.
        let answered = AnsweredMessage(reply.record)
        switch channel.url.kind {
        case .maildir:
            let written = try folders.add(bytes, to: channel.url.path)
            guard let answered else { break }
            // Kept for publishing: marked once published (``publishAnswers(_:)``).
            if written { try store.markAnswered([answered]) } else { keptMarks.kept(answered) }
        case .smtp, .smtps:
            try store.together {
                try store.enqueue([QueuedDelivery(channel: channel.id, address: thread.address, body: SMTPClient.crlf(bytes))],
                                  deliveryID: "\(deliveryID).answer.\(id)", identifier: request.identifier, recipient: request.recipient, at: now)
                if let answered { try store.markAnswered([answered]) }
            }
        default:
            break
        }
    }
}
