import Foundation
import Testing

/// Issue 22's `trellis bench table` in a quick mode, so the benchmark cannot rot: both
/// tables paged down in processes of their own — every step a page further with a frame
/// sent (the bench checks each and fails otherwise) — and the last line has both ratios.
/// The targets (≤ 1.2 each) are the release bench's business (docs/BENCHMARKS.md).
@Suite(.timeLimit(.minutes(2)))
struct TableBenchTests {
    @Test func aBigAndASmallTableArePagedDownAndWeighed() throws {
        let run = try BenchRun([
            "table", "--rows", "100000", "--baseline-rows", "1000", "--segments", "3", "--pages", "5", "--rounds", "1",
        ])
        #expect(run.status == 0, "\(run.output)")
        for key in ["step_p50_us", "baseline_step_p50_us", "rss_mb", "baseline_rss_mb", "step_ratio", "memory_ratio"] {
            #expect((Double(run.figures[key] ?? "") ?? 0) > 0, "\(key) in \(run.output)")
        }
        #expect(run.figures["steps"] == "15", "\(run.output)")
    }
}
