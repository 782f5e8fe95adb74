import Foundation
import Testing

/// Issue 22's `trellis bench keys` in a quick mode, so the benchmark cannot rot: a click
/// focuses the text field three processes down, every key typed there is composed (the
/// bench waits for each on the screen), the field is emptied past 20 keys, and the last
/// line has its figures beside the raw baseline's. The target (ratio ≤ 2) is the release
/// bench's business (docs/BENCHMARKS.md).
///
/// Nested in `MultiProcessTests`, whose `.serialized` keeps whole sessions one at a time.
extension MultiProcessTests {
    @Suite(.timeLimit(.minutes(2))) struct KeysBenchTests {
        @Test func keysTypedIntoAFieldThreeProcessesDownAreEachTimedUntilComposed() throws {
            let run = try BenchRun(["keys", "--keys", "20", "--warmup", "3"])
            #expect(run.status == 0, "\(run.output)")
            for key in ["p50_us", "baseline_us", "ratio"] {
                #expect((Double(run.figures[key] ?? "") ?? 0) > 0, "\(key) in \(run.output)")
            }
            // A sample composed before its wait began is not counted; a few may be.
            #expect((Int(run.figures["keys"] ?? "") ?? 0) >= 18, "\(run.output)")
        }
    }
}
