/// What a signed token may be used for. The purpose is signed with the token (it is part
/// of what its tag covers), so a token made for one purpose is refused for any other: a
/// link for one action cannot be turned into another's, and the token every header
/// carries cannot act.
public enum TokenPurpose: Hashable, Sendable {
    /// Identifies a message (its Message-ID, References, Reply-To address): finds the
    /// delivery a reply answers, and acts only once the reply's sender is checked. The
    /// only purpose tokens had before purposes were signed, so every token already sent
    /// still works for it.
    case reply
    /// `/a/TOKEN/ACTION` and a chat button: carries out this one action (an identifier of
    /// the category, or a built-in's identifier).
    case action(String)
    /// The link answering a reply whose action waits for proof: confirms what waits,
    /// never records anything new, and expires within the hour.
    case confirm(String)
    /// `/p/TOKEN`: the recipient's preferences page.
    case preferences
    /// `/u/TOKEN`: one-click unsubscribe from the notification's category, nothing else.
    case unsubscribe
    /// `/u/TOKEN?c=…` of a digest or a thread's message whose reminders are of more than
    /// one category: one-click unsubscribe from each of these categories (the link lists
    /// them, and the tag covers the list, so none can be added or dropped).
    case unsubscribeFrom([String])
    /// `/v/TOKEN`: shows the reminder.
    case view
    /// The VERP envelope sender (`bounce+TOKEN@domain`): a delivery report about this
    /// address (lower case), and no other, may mark it undeliverable.
    case bounce(String)

    /// Whether a token of this purpose works past its expiry: a one-click unsubscribe
    /// from the categories its link lists. A mail client sends RFC 8058's POST for a
    /// message of any age and shows the person no answer, so that an unsubscribe a month
    /// after a monthly reminder was refused (410) while they were told they were
    /// unsubscribed. What it can do is in its signature, and only that.
    public var outlivesExpiry: Bool {
        if case .unsubscribeFrom = self { return true }
        return false
    }

    /// What the tag covers besides the payload and the recipient: nothing for ``reply``
    /// (the tokens of before), else a label no recipient id or other purpose can forge.
    public var label: [UInt8]? {
        switch self {
        case .reply: nil
        case .action(let identifier): Array("action\u{0}\(identifier)".utf8)
        case .confirm(let identifier): Array("confirm\u{0}\(identifier)".utf8)
        case .preferences: Array("preferences".utf8)
        case .unsubscribe: Array("unsubscribe".utf8)
        // Each identifier after its length: the list reads one way only, whatever it holds.
        case .unsubscribeFrom(let categories): Array(("unsubscribe" + categories.map { "\u{0}\($0.utf8.count):\($0)" }.joined()).utf8)
        case .view: Array("view".utf8)
        case .bounce(let address): Array("bounce\u{0}\(address)".utf8)
        }
    }
}
