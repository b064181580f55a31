/// FNV-1a, 64 bits, in hex: the same text gives the same short name in every run and on
/// every machine (a thread's root Message-ID, a digest's file name), unlike `hashValue`.
public func stableHash(_ text: String) -> String {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in text.utf8 {
        hash ^= UInt64(byte)
        hash = hash &* 0x100_0000_01b3
    }
    return String(hash, radix: 16)
}
