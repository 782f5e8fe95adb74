/// A small seeded generator (SplitMix64): one seed names the same numbers on every
/// machine and every run, so a randomized test's failing case, the chaos bench's kills
/// and `trellis terminal-check`'s frames can each be replayed from the seed printed.
/// Not for anything that must be unpredictable.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    public private(set) var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `0..<bound` (bound > 0); the modulo's bias is far below what a test or
    /// a bench could notice.
    public mutating func below(_ bound: Int) -> Int {
        precondition(bound > 0, "SplitMix64.below needs a bound above 0")
        return Int(next() % UInt64(bound))
    }

    /// A number in `range`.
    public mutating func int(_ range: ClosedRange<Int>) -> Int {
        range.lowerBound + below(range.count)
    }

    public mutating func bool() -> Bool { next() & 1 == 0 }
}
