/// JSON text (RFC 8259) written directly: keys sorted, `/` unescaped, so the same value
/// always gives the same bytes. Foundation's `JSONEncoder` does the same four times
/// slower — most of the cost of a webhook message or a JSON line — and on Linux its
/// `JSONSerialization` is slower still; this is the small part of JSON that Chime writes.
extension JSONValue {
    /// The value as compact JSON text.
    public var jsonText: String {
        String(decoding: jsonBytes, as: UTF8.self)
    }

    /// The value as compact JSON, UTF-8.
    public var jsonBytes: [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(1024)
        write(to: &bytes)
        return bytes
    }

    private func write(to bytes: inout [UInt8]) {
        switch self {
        case .null: bytes += "null".utf8
        case .bool(let value): bytes += (value ? "true" : "false").utf8
        case .integer(let value): bytes += String(value).utf8
        // JSON has no infinities or NaN.
        case .number(let value): bytes += (value.isFinite ? "\(value)" : "null").utf8
        case .string(let value): JSONValue.writeString(value, to: &bytes)
        case .array(let values):
            bytes.append(UInt8(ascii: "["))
            for (index, value) in values.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                value.write(to: &bytes)
            }
            bytes.append(UInt8(ascii: "]"))
        case .object(let members):
            bytes.append(UInt8(ascii: "{"))
            for (index, member) in members.sorted(by: { $0.key < $1.key }).enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                JSONValue.writeString(member.key, to: &bytes)
                bytes.append(UInt8(ascii: ":"))
                member.value.write(to: &bytes)
            }
            bytes.append(UInt8(ascii: "}"))
        }
    }

    /// Whether `buffer` holds a byte a JSON string escapes (`"`, `\`, or below 0x20),
    /// looked at eight bytes at a time: byte by byte, this look was a third of writing a
    /// JSON line. A word has a byte below `n` (n ≤ 0x80) exactly when
    /// `(word - 0x01…01 × n) & ~word & 0x80…80` is not zero, and a byte equal to `c` when
    /// `word ^ 0x01…01 × c` has one below 1; bytes of 0x80 and over never count.
    static func needsEscape(_ buffer: UnsafeBufferPointer<UInt8>) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101, high: UInt64 = 0x8080_8080_8080_8080
        func hasByte(below limit: UInt64, in word: UInt64) -> Bool { (word &- ones &* limit) & ~word & high != 0 }
        var index = 0
        if let base = buffer.baseAddress {
            let raw = UnsafeRawPointer(base)
            while index + 8 <= buffer.count {
                let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: index, as: UInt64.self))
                if hasByte(below: 0x20, in: word) || hasByte(below: 1, in: word ^ (ones &* 0x22))
                    || hasByte(below: 1, in: word ^ (ones &* 0x5C)) { return true }
                index += 8
            }
        }
        while index < buffer.count {
            let byte = buffer[index]
            if byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { return true }
            index += 1
        }
        return false
    }

    /// Appends a JSON string literal: quotes, backslashes and control characters escaped.
    public static func writeString(_ value: String, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        // Most strings need no escape: copied whole, as one block of bytes.
        let plain = value.utf8.withContiguousStorageIfAvailable { buffer in
            guard !needsEscape(buffer) else { return false }
            bytes.append(contentsOf: buffer)
            return true
        } ?? false
        if plain {
            return bytes.append(UInt8(ascii: "\""))
        }
        let hex = Array("0123456789abcdef".utf8)
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes += "\\\"".utf8
            case UInt8(ascii: "\\"): bytes += "\\\\".utf8
            case 0x0A: bytes += "\\n".utf8
            case 0x0D: bytes += "\\r".utf8
            case 0x09: bytes += "\\t".utf8
            case 0..<0x20: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
