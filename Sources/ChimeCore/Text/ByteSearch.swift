import Foundation

extension String {
    /// Whether `other` occurs in this string, found by a byte search of their
    /// UTF-8. For two strings in NFC (ASCII always is; see ``precomposed``) it answers
    /// as Foundation's `contains` does, which compares up to canonical equivalence, but
    /// without bridging both to UTF-16 on every call: Foundation's took 10% of
    /// `chime ingest`'s instructions in ``MachineMail``'s 40 lookups per message.
    public func containsBytes(_ other: String) -> Bool {
        if other.isEmpty { return true }
        var haystack = self, needle = other
        return haystack.withUTF8 { text in
            needle.withUTF8 { wanted in Self.find(wanted, in: text) }
        }
    }

    /// Whether `wanted` (not empty) occurs in `text`: each candidate start found by
    /// `memchr`, then compared by `memcmp` (glibc's `memmem` is not exported to Swift).
    private static func find(_ wanted: UnsafeBufferPointer<UInt8>, in text: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = text.baseAddress, let first = wanted.baseAddress, wanted.count <= text.count else { return false }
        let last = text.count - wanted.count
        var start = 0
        while start <= last, let hit = memchr(base + start, Int32(first.pointee), last - start + 1) {
            let offset = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
            if memcmp(base + offset, first, wanted.count) == 0 { return true }
            start = offset + 1
        }
        return false
    }

    /// This string in NFC, at no cost when it is ASCII (as most header values are).
    public var precomposed: String {
        utf8.allSatisfy { $0 < 0x80 } ? self : precomposedStringWithCanonicalMapping
    }
}
