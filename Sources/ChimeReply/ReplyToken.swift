import ChimeCore
import Crypto
import Foundation

/// What a reply address, an email's Message-ID, every link and chat button carry: which
/// delivery a person answers, signed for the recipient it was sent to and for one
/// purpose (``TokenPurpose``), until when.
///
/// A token is base32 of `payload ‖ tag`. The payload holds the delivery id (its request
/// generation, compactly when it is a UUID, and its fire instant) and the expiry (a day,
/// or an instant for short-lived tokens); the tag is the first 10 bytes of HMAC-SHA256
/// over the payload, the recipient id and the purpose's label, with the server key. 80
/// bits of tag cannot be guessed; the whole stays under the 64 characters of an
/// address's local part.
public struct ReplyToken: Hashable, Sendable {
    /// The delivery answered (``PendingNotification/deliveryID``).
    public var deliveryID: String
    /// The last day the token is honoured (its end, UTC).
    public var expires: Instant

    static let tagLength = 10
    /// How long a reply is honoured after the notification fired.
    public static let validity: Int64 = 30 * 86_400

    public init(deliveryID: String, expires: Instant) {
        self.deliveryID = deliveryID
        self.expires = expires
    }

    /// The token of a delivery fired at `fireDate`: the same for every render of it, so a
    /// resend carries the same Message-ID.
    public init(deliveryID: String, fireDate: Instant) {
        self.init(deliveryID: deliveryID, expires: Instant(seconds: (fireDate.seconds + Self.validity) / 86_400 * 86_400 + 86_399))
    }

    /// The token's text, signed for `recipient` and `purpose`.
    public func signed(for recipient: String, purpose: TokenPurpose = .reply, key: SigningKey) -> String {
        signer(for: recipient, key: key)(purpose)
    }

    /// Signs the token for `recipient` for any purpose, its payload laid out once: a
    /// message's links each sign the same delivery for a purpose of their own.
    public func signer(for recipient: String, key: SigningKey) -> @Sendable (TokenPurpose) -> String {
        let payload = Self.payload(deliveryID: deliveryID, expires: expires)
        return { Base32.encode(payload + Self.tag(payload, recipient: recipient, purpose: $0, key: key)) }
    }

    /// Why a token was refused.
    public enum Refusal: String, Error, Sendable {
        /// Not a token at all, or its signature does not match: forged or damaged.
        case forged
        /// Signed by us, but past its expiry.
        case expired
    }

    /// Reads a token's text without checking its tag (to learn whom it names); nil when
    /// it is not shaped as one.
    public static func read(_ text: Substring) -> (token: ReplyToken, payload: [UInt8], tag: [UInt8])? {
        guard let bytes = Base32.decode(text), bytes.count > tagLength + 8 else { return nil }
        let payload = Array(bytes.dropLast(tagLength)), tag = Array(bytes.suffix(tagLength))
        var reader = payload[...]
        guard let kind = reader.popFirst() else { return nil }
        let generation: String
        switch kind {
        case 0:
            guard reader.count >= 16 else { return nil }
            let uuid = Array(reader.prefix(16))
            reader = reader.dropFirst(16)
            generation = UUID(uuid: (uuid[0], uuid[1], uuid[2], uuid[3], uuid[4], uuid[5], uuid[6], uuid[7],
                                     uuid[8], uuid[9], uuid[10], uuid[11], uuid[12], uuid[13], uuid[14], uuid[15])).uuidString.lowercased()
        case 1:
            // A generation Chime could have written: UTF-8 without control characters (a
            // NUL in a forged one made PostgreSQL refuse the lookup, and intake stop there).
            guard let length = reader.popFirst(), reader.count >= Int(length),
                  let text = String(validating: reader.prefix(Int(length)), as: UTF8.self),
                  !text.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else { return nil }
            generation = text
            reader = reader.dropFirst(Int(length))
        default:
            return nil
        }
        // The fire instant, then the expiry: a day (2 bytes), or an instant (5 bytes).
        guard reader.count == 7 || reader.count == 10 else { return nil }
        let fields = Array(reader)
        let fire = fields[0..<5].reduce(Int64(0)) { $0 << 8 | Int64($1) }
        let end = fields[5...].reduce(Int64(0)) { $0 << 8 | Int64($1) }
        let expires = fields.count == 7 ? Instant(seconds: end * 86_400 + 86_399) : Instant(seconds: end)
        return (ReplyToken(deliveryID: "\(generation).\(fire)", expires: expires), payload, tag)
    }

    /// Checks a token's tag for `recipient` and `purpose` in constant time, and its expiry at `now`.
    public static func verify(_ text: Substring, recipient: String, purpose: TokenPurpose = .reply, key: SigningKey,
                              now: Instant) -> Result<ReplyToken, Refusal> {
        guard let (token, payload, tag) = read(text),
              signatureMatches(payload: payload, tag: tag, recipient: recipient, purpose: purpose, key: key) else {
            return .failure(.forged)
        }
        return now <= token.expires ? .success(token) : .failure(.expired)
    }

    /// Whether a read token's tag is ours for `recipient`, compared in constant time: every
    /// byte is compared whatever the first difference.
    public static func signatureMatches(payload: [UInt8], tag: [UInt8], recipient: String, purpose: TokenPurpose = .reply,
                                        key: SigningKey) -> Bool {
        constantTimeEqual(Self.tag(payload, recipient: recipient, purpose: purpose, key: key), tag)
    }

    private static func payload(deliveryID: String, expires: Instant) -> [UInt8] {
        let (generation, fire) = PendingNotification.parts(ofDelivery: deliveryID)
        var bytes: [UInt8] = []
        if let uuid = lowercaseUUID(generation) {
            bytes.append(0)
            bytes += uuid
        } else {
            let utf8 = Array(generation.utf8.prefix(255))
            bytes += [1, UInt8(utf8.count)] + utf8
        }
        bytes += (0..<5).reversed().map { UInt8((fire >> ($0 * 8)) & 0xFF) }
        if expires.seconds % 86_400 == 86_399 {
            let day = expires.seconds / 86_400
            bytes += [UInt8((day >> 8) & 0xFF), UInt8(day & 0xFF)]
        } else {
            bytes += (0..<5).reversed().map { UInt8((expires.seconds >> ($0 * 8)) & 0xFF) }
        }
        return bytes
    }

    /// The 16 bytes of a UUID written in its lowercase canonical form (8-4-4-4-12 hex
    /// digits), or nil when `text` is anything else: what `UUID(uuidString:)` gave when
    /// its lowercased string was `text` again. Read here because Foundation reads a UUID
    /// with `sscanf`, 8,000 instructions each, twice an email (callgrind).
    static func lowercaseUUID(_ text: String) -> [UInt8]? {
        text.withStoredUTF8 { utf8 -> [UInt8]? in
            guard utf8.count == 36 else { return nil }
            var bytes: [UInt8] = []
            bytes.reserveCapacity(16)
            var high: UInt8?
            for (index, character) in utf8.enumerated() {
                if index == 8 || index == 13 || index == 18 || index == 23 {
                    guard character == UInt8(ascii: "-") else { return nil }
                    continue
                }
                let value: UInt8
                switch character {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): value = character - UInt8(ascii: "0")
                case UInt8(ascii: "a")...UInt8(ascii: "f"): value = character - UInt8(ascii: "a") + 10
                default: return nil
                }
                if let first = high {
                    bytes.append(first << 4 | value)
                    high = nil
                } else {
                    high = value
                }
            }
            return bytes
        }
    }

    /// The tag: the payload, the recipient and the purpose's label, each after a NUL
    /// (which no recipient id holds: XML cannot carry one).
    private static func tag(_ payload: [UInt8], recipient: String, purpose: TokenPurpose, key: SigningKey) -> [UInt8] {
        var message = payload
        message.append(0)
        message += Array(recipient.utf8)
        if let label = purpose.label {
            message.append(0)
            message += label
        }
        return Array(key.authenticationCode(for: message).prefix(tagLength))
    }
}

/// True when two byte strings are equal, in a time that does not depend on where they
/// differ (only on their length).
public func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
    a.count == b.count && zip(a, b).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
}
