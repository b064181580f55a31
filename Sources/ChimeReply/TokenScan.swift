import ChimeCore

/// Finds reply tokens in header values by scanning bytes once: `local+TOKEN@` (a
/// plus-address, the Reply-To or VERP return path) and `<TOKEN@` (a msg-id). Written by
/// hand because a regular expression over an address header an attacker wrote (25,000
/// letters in a `To:`) took time growing with the square of its length.
enum TokenScan {
    /// The shortest run of base32 that can be a token.
    static let minimumLength = 20

    /// The tokens of `local+TOKEN@domain` addresses in `text`, in order.
    static func plusAddressed(_ text: String) -> [Substring] {
        scan(text, opener: UInt8(ascii: "+")) { bytes, at in
            // Some local part before the `+`.
            at > 0 && Mailbox.mayPrecedePlus(bytes[at - 1])
        }
    }

    /// The tokens of `<TOKEN@domain>` msg-ids in `text`, in order.
    static func messageIDs(_ text: String) -> [Substring] {
        scan(text, opener: UInt8(ascii: "<")) { _, _ in true }
    }

    /// Runs of base32 of at least ``minimumLength`` between `opener` and `@`. Each byte is
    /// looked at a bounded number of times: a run is read once, and the scan goes on from
    /// its end (a run holds no opener).
    private static func scan(_ text: String, opener: UInt8, accept: ([UInt8], Int) -> Bool) -> [Substring] {
        let bytes = Array(text.utf8)
        var found: [Substring] = []
        var index = 0
        while index < bytes.count {
            guard bytes[index] == opener, accept(bytes, index) else {
                index += 1
                continue
            }
            var end = index + 1
            while end < bytes.count, isBase32(bytes[end]) { end += 1 }
            if end - index - 1 >= minimumLength, end < bytes.count, bytes[end] == UInt8(ascii: "@") {
                found.append(Substring(String(decoding: bytes[(index + 1)..<end], as: UTF8.self)))
            }
            index = max(end, index + 1)
        }
        return found
    }

    static func isBase32(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "2")...UInt8(ascii: "7"): true
        default: false
        }
    }

}
