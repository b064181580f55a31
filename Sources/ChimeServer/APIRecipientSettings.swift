import ChimeCore
import Foundation
import Hummingbird

/// `GET /v1/recipients/{id}/settings`'s body (and `PUT`'s, after the reset): what a
/// recipient changed themselves and what Chime concluded about them, as stored over the
/// configuration. Every field is written, null when nothing is stored.
struct APIRecipientSettings: Encodable, Sendable {
    var id: String
    /// What they saved on the preferences page.
    var settings: Settings
    /// Category identifier → what they chose (reply, chat, preferences page, unsubscribe).
    var preferences: [String: Preference]
    /// Each configured address, with its undeliverable mark.
    var addresses: [Address]
    var optIn: OptInState

    struct Settings: Encodable, Sendable {
        @WrittenNull var locale: String?
        @WrittenNull var showPreviews: String?
        /// `22:00-07:00`; `""` when they turned quiet hours off.
        @WrittenNull var quietHours: String?
        @WrittenNull var changedAt: Instant?
    }

    struct Preference: Encodable, Sendable {
        var deliver: String
        var changedAt: Instant
    }

    struct Address: Encodable, Sendable {
        var channel: String
        /// Empty for a webhook channel's address (it reaches one room).
        var address: String
        @WrittenNull var undeliverable: Mark?

        struct Mark: Encodable, Sendable {
            var at: Instant
            var reason: String
        }
    }

    struct OptInState: Encodable, Sendable {
        /// The configuration's authorization.
        var configured: String
        /// What Keep or a confirmed opt-in stored; null when nothing.
        @WrittenNull var stored: String?
        /// The one in force: `configured` with `stored` over it.
        var authorization: String
        /// When the opt-in request was sent; null when never (or since a reset).
        @WrittenNull var askedAt: Instant?
    }

    /// The body of a configured recipient and what the store holds about them.
    init(_ recipient: Recipient, policy: RecipientPolicy, configuration: Configuration) {
        id = recipient.id
        let stored = policy.settings
        settings = Settings(locale: stored?.locale, showPreviews: stored?.showPreviews?.rawValue, quietHours: stored?.quietHours,
                            changedAt: policy.settingsChangedAt)
        preferences = policy.preferences.mapValues { Preference(deliver: $0.deliver.rawValue, changedAt: $0.at) }
        let marks = Dictionary(policy.undeliverable.map { ($0.address, $0) }) { first, _ in first }
        addresses = recipient.addresses.map { address in
            let key = Self.markKey(address, configuration: configuration)
            return Address(channel: address.channel, address: address.value,
                           undeliverable: key.flatMap { marks[$0] }.map { Address.Mark(at: $0.at, reason: $0.reason) })
        }
        optIn = OptInState(configured: recipient.authorization.rawValue, stored: stored?.authorization?.rawValue,
                           authorization: recipient.applying(stored).authorization.rawValue, askedAt: policy.askedToOptInAt)
    }

    /// The recipient's email addresses as undeliverable marks are kept: the address
    /// alone, lower case.
    static func markKeys(_ recipient: Recipient, configuration: Configuration) -> [String] {
        recipient.addresses.compactMap { markKey($0, configuration: configuration) }
    }

    static func markKey(_ address: Recipient.Address, configuration: Configuration) -> String? {
        guard configuration.channel(address.channel)?.url.kind.isEmail == true else { return nil }
        return Mailbox.key(of: address.value)
    }

    /// The parts a `PUT` names in `{"reset": [...]}`.
    static let partNames: [(String, RecipientPolicy.Parts)] = [
        ("settings", .settings), ("preferences", .preferences), ("undeliverable", .undeliverable), ("optIn", .optIn),
    ]

    /// A `PUT` body read: empty resets everything; else `{"reset": ["settings",
    /// "preferences", "undeliverable", "optIn"]}` (any of them; none resets nothing).
    /// - Throws: ``APIError`` 400, `at` the field at fault.
    static func parts(of body: [UInt8]) throws -> RecipientPolicy.Parts {
        guard body.contains(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }) else { return .all }
        let names = partNames.map(\.0).joined(separator: ", ")
        // Strict JSON, as a request body is read: "reset" given twice is refused (readers
        // differ on which counts), and so is a trailing comma.
        if let failure = RequestDecoder.strictnessFailure(body) {
            let location = failure.line > 0 ? " (line \(failure.line), column \(failure.column))" : ""
            throw APIError(status: 400, code: "bad_request", message: failure.message + location, at: failure.path.isEmpty ? nil : failure.path)
        }
        guard let object = (try? JSONSerialization.jsonObject(with: Data(body), options: [.fragmentsAllowed])) as? [String: Any] else {
            throw APIError(status: 400, code: "bad_request", message: "the body is empty (reset everything) or a JSON object {\"reset\": [\(names)]}")
        }
        if let unknown = object.keys.sorted().first(where: { $0 != "reset" }) {
            throw APIError(status: 400, code: "bad_request", message: "unknown field \"\(unknown)\"; the body is {\"reset\": [\(names)]}", at: unknown)
        }
        guard let list = object["reset"] as? [Any] else {
            throw APIError(status: 400, code: "bad_request", message: "reset is an array of \(names)", at: "reset")
        }
        var parts: RecipientPolicy.Parts = []
        for (index, item) in list.enumerated() {
            guard let name = item as? String, let part = partNames.first(where: { $0.0 == name })?.1 else {
                throw APIError(status: 400, code: "bad_request", message: "each of reset is one of \(names)", at: "reset[\(index)]")
            }
            parts.insert(part)
        }
        return parts
    }
}

extension ChimeHTTPServer {
    /// `GET /v1/recipients/{id}/settings` (no `body`) and `PUT` (the reset asked for,
    /// in one store transaction): the recipient's settings as stored, 200; 404 for a
    /// recipient the configuration does not have, 400 for a body that is not a reset.
    func recipientSettings(_ id: String, reset body: [UInt8]?) async throws -> Response {
        let configuration = configuration
        guard let recipient = configuration.recipient(id) else {
            return APIError.notFound("no recipient \"\(id)\" in the configuration").response
        }
        let parts: RecipientPolicy.Parts?
        do {
            parts = try body.map(APIRecipientSettings.parts(of:))
        } catch let error as APIError {
            return error.response
        }
        let store = desk.store, addresses = APIRecipientSettings.markKeys(recipient, configuration: configuration)
        let policy = try await Self.blocking {
            if let parts { try store.resetRecipientPolicy(id, parts, addresses: addresses) } else { try store.recipientPolicy(id, addresses: addresses) }
        }
        return try Self.encoded(200, APIRecipientSettings(recipient, policy: policy, configuration: configuration))
    }
}
