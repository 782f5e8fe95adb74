import Foundation
import Testing

/// Issue 20's `trellis bench e2e`, in a quick mode of a few clicks, so the benchmark
/// cannot rot: the demo in a pseudo-terminal, tmux with the C counter and the counter
/// alone each answer every click, judged by pyte, and the result line has its figures.
/// Its targets (ratio ≤ 1.5, tab_ratio ≤ 2) are the release bench's business
/// (docs/BENCHMARKS.md), never a debug test's.
///
/// Nested in `MultiProcessTests`, whose `.serialized` keeps whole sessions one at a time.
extension MultiProcessTests {
    /// What the bench needs beyond the build: tmux, a C compiler and pyte in .venv
    /// (./deploy/setup installs all three); nil when all are there.
    static let e2eMissing: String? = {
        func onPath(_ name: String) -> Bool {
            (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").contains {
                FileManager.default.isExecutableFile(atPath: "\($0)/\(name)")
            }
        }
        if !onPath("tmux") { return "tmux is not installed (./deploy/setup installs it)" }
        if !["cc", "clang", "gcc"].contains(where: onPath) { return "no C compiler (cc, clang or gcc) on PATH" }
        let python = BuiltProducts.package + "/.venv/bin/python"
        let check = Process()
        check.executableURL = URL(fileURLWithPath: python)
        check.arguments = ["-c", "import pyte"]
        check.standardError = FileHandle.nullDevice
        guard (try? check.run()) != nil else { return "\(python) is missing (./deploy/setup creates it)" }
        check.waitUntilExit()
        return check.terminationStatus == 0 ? nil : "pyte is not installed in .venv (./deploy/setup installs it)"
    }()

    @Suite(.timeLimit(.minutes(2)))
    struct E2EBenchTests {
        @Test(.enabled(if: MultiProcessTests.e2eMissing == nil, "trellis bench e2e needs tmux, a C compiler and pyte"))
        func aFewClicksOnTheDemoTmuxAndTheBareCounterAreEachTimedUntilShown() throws {
            let run = try BenchRun(["e2e", "--clicks", "3", "--warmup", "1"])
            #expect(run.status == 0, "\(run.output)")
            for key in ["tap_p50_us", "tab_p50_us", "tmux_p50_us", "bare_p50_us", "ratio", "tab_ratio"] {
                #expect((Double(run.figures[key] ?? "") ?? 0) > 0, "\(key) in \(run.output)")
            }
            #expect(run.figures["clicks"] == "3", "\(run.output)")
        }
    }
}
