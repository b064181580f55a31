import ChimeActions
import ChimeCore
import ChimeReply
import Foundation

/// A press on a signed action, from a link's POST or a chat button: the token checked,
/// the action found, the response recorded once (or a response awaiting confirmation
/// confirmed), and carried out.
public struct ClickDesk: Sendable {
    public let tokens: TokenChecker
    public let actions: ActionDesk

    public init(tokens: TokenChecker, actions: ActionDesk) {
        self.tokens = tokens
        self.actions = actions
    }

    var configuration: Configuration { actions.configuration }
    var store: any NotificationStore { actions.store }

    /// What became of a press.
    public struct Outcome: Sendable {
        /// The HTTP status a link answers with: 200, 403 (forged), 404 (no such action),
        /// 410 (expired or gone).
        public var status: Int
        /// What to show the person.
        public var message: String
        /// The work left once the platform has its answer: carrying the action out.
        public var then: (@Sendable () -> Void)?
    }

    /// The action a press names: its number in the menu (what buttons carry), else as
    /// ``ActionDesk/action(named:in:)`` reads names.
    func action(_ name: String, in request: NotificationRequest) -> String? {
        if let number = Int(name), let actions = configuration.category(request.content.categoryIdentifier)?.actions,
           actions.indices.contains(number - 1) {
            return actions[number - 1].identifier
        }
        return actions.action(named: name, in: request)
    }

    /// Handles a press; the carrying out is left in `then` for the caller to run once it
    /// has answered (chat platforms give three seconds).
    /// - Parameter chatUser: the platform's user id, for a chat press: when the
    ///   recipient's address on that channel names a user, only that user may answer.
    public func press(token: String, action name: String, channel: String, responder: String, chatUser: String? = nil,
                      userText: String? = nil, now: Instant) throws -> Outcome {
        switch try tokens.check(Substring(token.lowercased()), now: now) {
        case nil:
            return Outcome(status: 403, message: "This link is not valid.")
        case .refused(let refusal)?:
            try store.record(InboundRecord(at: now, messageID: "", sender: responder, outcome: refusal.outcome,
                                                  detail: "\(channel): \(refusal.detail)", deliveryID: refusal.deliveryID))
            return refusal.outcome == .forgedToken ? Outcome(status: 403, message: "This link is not valid.")
                : Outcome(status: 410, message: "This reminder is no longer open to answers.")
        case .good(let token, let request)?:
            guard let action = action(name, in: request) else {
                return Outcome(status: 404, message: "There is no such action.")
            }
            if let chatUser, let address = configuration.recipient(request.recipient)?.addresses.first(where: { $0.channel == channel }),
               !address.value.isEmpty, address.value != chatUser {
                try store.record(InboundRecord(at: now, messageID: "", sender: chatUser, outcome: .forgedSender,
                                                      detail: "\(channel): \(chatUser) is not \(request.recipient)", deliveryID: token.deliveryID))
                return Outcome(status: 403, message: "This reminder is someone else's.")
            }
            let title = actions.title(of: action, in: request)
            // A confirmation of an action that waited for proof (the link is the proof),
            // else a new response.
            let response: StoredResponse, message: String
            if let waiting = try store.confirm(deliveryID: token.deliveryID, action: action) {
                (response, message) = (waiting, "“\(title)” confirmed.")
            } else {
                var fresh = StoredResponse(
                    deliveryID: token.deliveryID, identifier: request.identifier, recipient: request.recipient, action: action,
                    userText: userText, channel: channel, responder: responder, at: now, status: StoredResponse.carriedOut)
                guard let id = try store.record(fresh, from: nil) else {
                    return Outcome(status: 200, message: "“\(title)” was already done.")
                }
                fresh.id = id
                (response, message) = (fresh, "“\(title)” received.")
            }
            return Outcome(status: 200, message: message) {
                _ = try? self.actions.carryOut(response, request: request, now: now)
            }
        }
    }

    /// What a GET of an action link shows before anything is done: the action's title, or
    /// why the link does nothing.
    public func describe(token: String, action name: String, now: Instant) throws -> (status: Int, title: String?) {
        switch try tokens.check(Substring(token.lowercased()), now: now) {
        case .good(_, let request)?:
            guard let action = action(name, in: request) else { return (404, nil) }
            return (200, actions.title(of: action, in: request))
        case .refused(let refusal)?: return (refusal.outcome == .forgedToken ? 403 : 410, nil)
        case nil: return (403, nil)
        }
    }
}
