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

    /// Whether `wanted` occurs in `text` (``firstOffset(of:in:from:)``).
    public static func find(_ wanted: UnsafeBufferPointer<UInt8>, in text: UnsafeBufferPointer<UInt8>) -> Bool {
        wanted.isEmpty || firstOffset(of: wanted, in: text) != nil
    }

    /// The offset in `text` of the first occurrence of `wanted` at or after `start`: each
    /// candidate start found by `memchr`, then compared by `memcmp` (glibc's `memmem` is
    /// not exported to Swift). Nil when there is none, or `wanted` is empty.
    public static func firstOffset(of wanted: UnsafeBufferPointer<UInt8>, in text: UnsafeBufferPointer<UInt8>, from start: Int = 0) -> Int? {
        guard let base = text.baseAddress, let first = wanted.baseAddress, !wanted.isEmpty, wanted.count <= text.count else { return nil }
        let last = text.count - wanted.count
        var start = start
        while start <= last, let hit = memchr(base + start, Int32(first.pointee), last - start + 1) {
            let offset = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
            if memcmp(base + offset, first, wanted.count) == 0 { return offset }
            start = offset + 1
        }
        return nil
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

    /// The first range of `other` in this string that begins and ends between characters,
    /// found by a byte search of their UTF-8 (``Bytes``); nil when there is none, or
    /// `other` is empty. For two strings in NFC it finds what Foundation's `range(of:)`
    /// does, which bridges both to UTF-16 on every call: that took 5% of `chime ingest`'s
    /// CPU in ``SnoozeText``'s look for each part of the day's words in a snooze.
    public func rangeOfBytes(_ other: String) -> Range<String.Index>? {
        withStoredUTF8 { text in
            other.withStoredUTF8 { wanted -> Range<String.Index>? in
                var start = 0
                while let offset = Bytes.firstOffset(of: wanted, in: text, from: start) {
                    let lower = utf8.index(utf8.startIndex, offsetBy: offset)
                    let upper = utf8.index(lower, offsetBy: wanted.count)
                    if String.Index(lower, within: self) != nil, String.Index(upper, within: self) != nil { return lower..<upper }
                    start = offset + 1
                }
                return nil
            }
        }
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
