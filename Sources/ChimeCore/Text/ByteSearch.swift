import Foundation

/// Byte-string search, for the places that run on every line or header of a message.
public enum Bytes {
    /// Whether `needle` occurs in `haystack`.
    @inlinable
    public static func contains<H: Collection, N: Collection>(_ haystack: H, _ needle: N) -> Bool
        where H.Element == UInt8, N.Element == UInt8 {
        let found = haystack.withContiguousStorageIfAvailable { text in
            needle.withContiguousStorageIfAvailable { wanted in find(wanted, in: text) }
        }
        if let found = found ?? nil { return found }
        return Array(haystack).withUnsafeBufferPointer { text in
            Array(needle).withUnsafeBufferPointer { wanted in find(wanted, in: text) }
        }
    }

    /// Whether `wanted` occurs in `text`: each candidate start found by `memchr`, then
    /// compared by `memcmp` (glibc's `memmem` is not exported to Swift).
    public static func find(_ wanted: UnsafeBufferPointer<UInt8>, in text: UnsafeBufferPointer<UInt8>) -> Bool {
        guard !wanted.isEmpty else { return true }
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
}

extension String {
    /// Whether `other` occurs in this string, found by a byte search of their UTF-8
    /// (``Bytes``). For two strings in NFC (ASCII always is; see ``precomposed``) it
    /// answers as Foundation's `contains` does, which compares up to canonical
    /// equivalence, but without bridging both to UTF-16 on every call: Foundation's took
    /// 10% of `chime ingest`'s instructions in ``MachineMail``'s 40 lookups per message.
    public func containsBytes(_ other: String) -> Bool {
        withStoredUTF8 { text in other.withStoredUTF8 { wanted in Bytes.find(wanted, in: text) } }
    }

    /// `body` over this string's UTF-8 in the string's own storage (a native string is not
    /// copied). Reading `utf8` as a collection costs ten or more instructions a byte, which
    /// shows wherever every line or header of a message is scanned; a buffer, a few.
    @inlinable
    public func withStoredUTF8<T>(_ body: (UnsafeBufferPointer<UInt8>) throws -> T) rethrows -> T {
        var text = self
        return try text.withUTF8(body)
    }
}
