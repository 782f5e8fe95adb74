import Foundation
import Testing

/// `trellis bench tree` in a quick mode, so the benchmark cannot rot: a small tree, and
/// issue 20's actor placement beside the inline one — every controller of both saw each
/// callback once (the bench checks that and fails otherwise), and the last line has the
/// figures of both. Its speed is the release bench's business (docs/BENCHMARKS.md).
@Suite(.timeLimit(.minutes(2)))
struct TreeBenchTests {
    @Test func aSmallTreeAndAFewActorChildrenBesideInlineOnesAreTimedAndWeighed() throws {
        let run = try BenchRun(["tree", "--count", "111", "--fanout", "10", "--repetitions", "1", "--actor-children", "4"])
        #expect(run.status == 0, "\(run.output)")
        for key in ["create_ms", "appear_ms", "traits_ms", "ratio", "actor_create_ms", "actor_appear_ms", "actor_traits_ms",
                    "actor_inline_create_ms", "actor_create_ratio", "actor_appear_ratio", "actor_traits_ratio"] {
            #expect((Double(run.figures[key] ?? "") ?? 0) > 0, "\(key) in \(run.output)")
        }
        #expect(run.figures["actor_children"] == "4", "\(run.output)")
        #expect(run.figures["controllers"] == "111", "\(run.output)")
    }
}
