/// Percentiles of a set of samples (durations in nanoseconds, usually), by the
/// nearest-rank definition: the p-th percentile is the smallest sample that at least a
/// fraction p of all samples are less than or equal to. So p50 of 1…100 is 50 and p99
/// is 99 — the worst sample is p100, not p99, however few samples there are.
public struct Percentiles: Sendable {
    public let sorted: [UInt64]

    public init(_ samples: [UInt64]) { sorted = samples.sorted() }

    /// The p-th percentile (p in 0…1); NaN with no samples.
    public func at(_ p: Double) -> Double {
        guard !sorted.isEmpty else { return .nan }
        let rank = Int((Double(sorted.count) * p).rounded(.up))
        return Double(sorted[Swift.min(sorted.count - 1, Swift.max(0, rank - 1))])
    }

    public var p50: Double { at(0.50) }
    public var p99: Double { at(0.99) }
    public var min: Double { sorted.first.map { Double($0) } ?? .nan }
    public var max: Double { sorted.last.map { Double($0) } ?? .nan }
}
