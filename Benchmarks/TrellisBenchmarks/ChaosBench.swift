import ArgumentParser
import Foundation
import SeededRandom
import TrellisLog
import TrellisSeeds
import TrellisTransport
import TrellisWire

/// `trellis bench chaos` (issue 19): the demo under its supervisor, tapped at a steady
/// rate while its children are killed at random and then one is stopped; beside the same
/// tapping with nothing killed, first, in the same run. The workload, the definitions and
/// the targets are in docs/BENCHMARKS.md.
struct ChaosBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "chaos",
        abstract: "Taps on the demo while its children are killed and stopped, vs the same taps with none killed.",
        discussion: """
            The demo scene (every seed tab its own trellis-app process) under `trellis up \
            --headless` in a private run root, its restart intensity raised so the kills do \
            not exhaust it. A client on the control endpoint taps (touch began + ended, each \
            with its own trace id) at --rate taps/s without waiting for answers: a tab of the \
            tab bar, then --per-tab taps inside that tab's content, then the next tab. Phases: \
            quiet (--quiet-seconds, the baseline), kills (--seconds: every --kill-every-ms a \
            random child host gets SIGKILL), after (--after-seconds, no kills), stopped (one \
            child gets SIGSTOP for --stop-seconds while only the other tabs are tapped, then \
            SIGCONT). A tap is answered when both its touches are; never answered within 10 s \
            of the last tap, it is lost. Out of order: touches the root handled in another \
            order than sent (its routing log). Back: from a kill until the compositor takes \
            in the first frame of the child's next process; not within 5 s, never back. The \
            last line: key=value figures, targets_met=yes|no. Exit status 0 either way.
            """
    )

    @Option(help: "Seconds of the kill phase.") var seconds = 60.0
    @Option(help: "Seconds one child stays stopped.") var stopSeconds = 10.0
    @Option(help: "Seconds of the quiet baseline, before any kill.") var quietSeconds = 10.0
    @Option(help: "Seconds of tapping after the last kill, before the stop.") var afterSeconds = 5.0
    @Option(help: "Taps per second.") var rate = 200.0
    @Option(help: "Milliseconds between kills.") var killEveryMs = 200
    @Option(help: "Taps inside a tab's content before the next tab.") var perTab = 4
    @Option(help: "Seed of the random choice of child (default: random, printed).") var seed: UInt64?
    @Option(help: "The scene to run (its restart intensity is raised in a copy).") var scene = "deploy/scenes/demo.yaml"

    /// How long after the last tap an unanswered one counts as lost.
    static let lostBound = Duration.seconds(10)
    /// How long after a kill a child's content may take to be back before it never came back.
    static let backBound: UInt64 = 5_000_000_000
    static let root = "Demo"

    func validate() throws {
        guard seconds > 0, stopSeconds >= 0, quietSeconds > 0, afterSeconds >= 0, rate > 0, rate <= 2000, killEveryMs >= 10, perTab >= 0 else {
            throw ValidationError("durations must be positive, --rate 1…2000, --kill-every-ms at least 10")
        }
    }

    func run() async throws {
        let seed = self.seed ?? UInt64.random(in: 0...UInt64.max)
        print("chaos benchmark: the demo under its supervisor, \(Int(rate)) taps/s pipelined; quiet \(figure(quietSeconds)) s, "
            + "a child killed every \(killEveryMs) ms for \(figure(seconds)) s, after \(figure(afterSeconds)) s, "
            + "a child stopped for \(figure(stopSeconds)) s; seed \(seed)")
        let source: String
        do { source = try String(contentsOfFile: scene, encoding: .utf8) } catch {
            throw BenchError("cannot read the scene \(scene) (run from the repository, or give --scene): \(error)")
        }
        let session = try ChaosSession(scene: source, intensity: 10_000, period: 60)
        let result: ChaosResult
        do {
            var run = ChaosRun(options: self, session: session, random: SplitMix64(seed: seed))
            result = try await run.measure()
        } catch {
            await session.stop(keep: true)
            throw error
        }
        await session.stop(keep: false)
        result.report()
    }
}
