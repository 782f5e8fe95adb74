/// A small seeded generator, so a seed names the same run on every machine: the chaos
/// bench's kills and `trellis terminal-check`'s frames.
public struct SplitMix64: Sendable {
    private var state: UInt64
    public init(seed: UInt64) { state = seed }

    public mutating func nextValue() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Uniform enough in 0..<bound for tests (bound > 0).
    public mutating func next(_ bound: Int) -> Int {
        Int(nextValue() % UInt64(bound))
    }
}
