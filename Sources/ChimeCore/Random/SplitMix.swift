/// Sebastiano Vigna's SplitMix64: a 64-bit state stepped by a constant and mixed. A small
/// generator that can be seeded: MIME boundaries draw from one seeded once a process, and
/// the tests from one seeded by hand, so that a failure can be replayed. Written by hand:
/// the standard library's generator is the system's only.
public struct SplitMix: RandomNumberGenerator, Sendable {
    public var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
