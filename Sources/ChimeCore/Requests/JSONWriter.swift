/// JSON text written member by member, for a shape whose keys are known: each object's
/// keys are given already in sorted order, so the bytes are those `JSONValue.jsonBytes`
/// gives for the same value, without a dictionary built and its keys sorted for every
/// message (two thirds of writing a `file:` line's generic payload, by callgrind). Keys
/// out of order stop a debug build.
public struct JSONWriter {
    public private(set) var bytes: [UInt8] = []
    /// Per open object or array: whether it has a member yet, and the last key written.
    private var levels: [(started: Bool, lastKey: String?)] = []
    /// A key was just written: the value that follows needs no comma.
    private var afterKey = false

    public init(capacity: Int = 1_024) {
        bytes.reserveCapacity(capacity)
    }

    /// An object, its members written by `members` (``key(_:)`` then a value, each).
    public mutating func object(_ members: (inout JSONWriter) -> Void) {
        open(UInt8(ascii: "{"))
        members(&self)
        close(UInt8(ascii: "}"))
    }

    /// An array, its elements written by `elements` (one value each).
    public mutating func array(_ elements: (inout JSONWriter) -> Void) {
        open(UInt8(ascii: "["))
        elements(&self)
        close(UInt8(ascii: "]"))
    }

    /// The next member's key; the value comes next.
    public mutating func key(_ key: String) {
        assert(levels.last?.lastKey.map { $0 < key } ?? true, "JSON keys written out of order: \(key)")
        separate()
        levels[levels.count - 1].lastKey = key
        JSONValue.writeString(key, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        afterKey = true
    }

    public mutating func string(_ value: String) {
        separateElement()
        JSONValue.writeString(value, to: &bytes)
    }

    public mutating func bool(_ value: Bool) {
        separateElement()
        bytes += (value ? "true" : "false").utf8
    }

    /// A member whose value is a string.
    public mutating func string(_ key: String, _ value: String) {
        self.key(key)
        string(value)
    }

    /// A member whose value is a boolean.
    public mutating func bool(_ key: String, _ value: Bool) {
        self.key(key)
        bool(value)
    }

    private mutating func open(_ bracket: UInt8) {
        separateElement()
        bytes.append(bracket)
        levels.append((false, nil))
    }

    private mutating func close(_ bracket: UInt8) {
        bytes.append(bracket)
        levels.removeLast()
    }

    /// A comma before any member or element but the first.
    private mutating func separate() {
        guard !levels.isEmpty else { return }
        if levels[levels.count - 1].started { bytes.append(UInt8(ascii: ",")) }
        levels[levels.count - 1].started = true
    }

    /// As ``separate()`` for a value, unless it is the value of the key just written
    /// (which separated it already).
    private mutating func separateElement() {
        if afterKey {
            afterKey = false
        } else {
            separate()
        }
    }
}
