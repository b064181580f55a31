/// RFC 4648 base32 in lower case, without padding: what a reply token is written in, so
/// that it survives an email address's local part (where case may be folded and only
/// letters, digits and a few marks are safe) and a Message-ID.
///
/// Written here because no package this project may use encodes base32 (Foundation and
/// swift-extras-base64 do base64 only); it is thirty lines.
enum Base32 {
    /// The text of `bytes`, written straight into the string's storage: appending each
    /// symbol from a table array was 2,800 instructions a token, four tokens an email
    /// (callgrind).
    static func encode(_ bytes: [UInt8]) -> String {
        let length = (bytes.count * 8 + 4) / 5
        return bytes.withUnsafeBufferPointer { input in
            String(unsafeUninitializedCapacity: length) { output in
                // `buffer` holds the bits not written yet, `bits` of them (fewer than 5
                // between bytes).
                var buffer = 0, bits = 0, written = 0
                for byte in input {
                    buffer = (buffer << 8 | Int(byte)) & 0x1FFF
                    bits += 8
                    while bits >= 5 {
                        bits -= 5
                        output[written] = symbol(buffer >> bits & 31)
                        written += 1
                    }
                }
                if bits > 0 {
                    output[written] = symbol(buffer << (5 - bits) & 31)
                    written += 1
                }
                return written
            }
        }
    }

    /// The symbol of a 5-bit value: `a`–`z` for 0–25, `2`–`7` for 26–31.
    @inline(__always)
    private static func symbol(_ value: Int) -> UInt8 {
        value < 26 ? UInt8(truncatingIfNeeded: value) &+ UInt8(ascii: "a") : UInt8(truncatingIfNeeded: value - 26) &+ UInt8(ascii: "2")
    }

    /// The bytes of a token, upper or lower case (an address's local part may have its
    /// case changed on the way); nil when it holds anything else, or is not what
    /// ``encode(_:)`` writes: the bits past the last byte must be fewer than a symbol's and
    /// zero, so that a token has one spelling but for case (else the last symbol could be
    /// any of eight).
    static func decode(_ text: Substring) -> [UInt8]? {
        var output: [UInt8] = []
        var buffer = 0, bits = 0
        for character in text.utf8 {
            let value: Int
            switch character {
            case UInt8(ascii: "a")...UInt8(ascii: "z"): value = Int(character - UInt8(ascii: "a"))
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): value = Int(character - UInt8(ascii: "A"))
            case UInt8(ascii: "2")...UInt8(ascii: "7"): value = Int(character - UInt8(ascii: "2")) + 26
            default: return nil
            }
            buffer = ((buffer << 5) | value) & 0xFFFF
            bits += 5
            if bits >= 8 {
                output.append(UInt8((buffer >> (bits - 8)) & 0xFF))
                bits -= 8
            }
        }
        guard bits < 5, buffer & ((1 << bits) - 1) == 0 else { return nil }
        return output
    }
}
