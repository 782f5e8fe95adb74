import Testing
import TrellisBenchmarks

/// The benchmarks' percentiles are nearest-rank, so p99 of few samples is not the worst.
struct PercentilesTests {
    @Test func nearestRankOfOneToAHundred() {
        let p = Percentiles((1...100).reversed().map(UInt64.init))
        #expect(p.p50 == 50)
        #expect(p.p99 == 99)
        #expect(p.at(1.0) == 100)
        #expect(p.at(0) == 1)
        #expect(p.min == 1 && p.max == 100)
    }

    @Test func smallSets() {
        #expect(Percentiles([7]).p50 == 7)
        #expect(Percentiles([7]).p99 == 7)
        // Two samples: half are at most the first, so it is the median.
        #expect(Percentiles([9, 3]).p50 == 3)
        #expect(Percentiles([9, 3]).p99 == 9)
        #expect(Percentiles([]).p50.isNaN)
    }
}
