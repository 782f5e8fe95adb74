import Foundation
import Testing

/// Issue 19's chaos workload, short: `trellis bench chaos` for about 20 s on the demo,
/// its children killed every 200 ms and one stopped, with the same zero targets as the
/// full bench — nothing lost, nothing handled out of order, every killed child back.
/// The latency targets are the full bench's business (a release build, docs/BENCHMARKS.md).
///
/// Nested in `MultiProcessTests`, whose `.serialized` keeps whole sessions one at a time.
extension MultiProcessTests {
    @Suite(.timeLimit(.minutes(3))) struct ChaosBenchTests {
        @Test func killedAndStoppedChildrenLoseNoTapAndComeBack() throws {
            let run = try BenchRun([
                "chaos", "--quiet-seconds", "3", "--seconds", "12", "--after-seconds", "2",
                "--stop-seconds", "4", "--rate", "100", "--seed", "19",
            ])
            let (output, figures) = (run.output, run.figures)
            #expect(run.status == 0, "\(output)")
            #expect(!figures.isEmpty, "\(output)")
            #expect(Int(figures["kills"] ?? "") ?? 0 > 0, "\(output)")
            #expect(figures["lost"] == "0", "\(output)")
            #expect(figures["out_of_order"] == "0", "\(output)")
            #expect(figures["never_back"] == "0", "\(output)")
        }
    }
}
