import ArgumentParser
import Foundation

/// `trellis bench e2e`: a click through a real pseudo-terminal until a terminal emulator
/// shows the change — the demo as a user runs it, beside tmux and a bare C counter
/// (issue 20). The terminal side is Python, for pyte: Benchmarks/e2e/e2e.py, which this
/// command runs with this binary and prints through.
struct E2EBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "e2e",
        abstract: "A click in a pseudo-terminal until pyte shows the change: the demo vs tmux with a C counter.",
        discussion: """
            Three pseudo-terminals of 80x24, clicked in turn, click by click: the demo \
            (deploy/scenes/demo.yaml under `trellis up`, in the terminal) — a tap on \
            Seed000's "tap me" button two processes down, and a tab switch (a click on a \
            tab title until the other tab's content is shown and the old one's gone); a \
            minimal C counter (Benchmarks/e2e/counter.c, compiled now with cc) in a tmux \
            pane; and that counter alone. Each click is SGR mouse bytes written to the \
            pseudo-terminal; it is timed until pyte, fed with everything the program \
            wrote, shows the change. ratio = tap p50 / tmux p50; tab_ratio = tab switch \
            p50 / tmux p50. Needs tmux, a C compiler and .venv (./deploy/setup).
            """
    )

    @Option(help: "Measured taps, tmux clicks and bare clicks (twice as many tab switches).") var clicks = 200
    @Option(help: "Unmeasured rounds first.") var warmup = 5
    @Option(help: "Python interpreter with pyte (default: .venv/bin/python of the checkout).") var python: String?

    func validate() throws {
        guard clicks >= 1, warmup >= 0 else { throw ValidationError("--clicks must be at least 1, --warmup at least 0") }
    }

    func run() throws {
        try runTerminalScript("Benchmarks/e2e/e2e.py", python: python) { root, trellis in
            [
                "--trellis", trellis, "--scene", root + "/deploy/scenes/demo.yaml",
                "--clicks", "\(clicks)", "--warmup", "\(warmup)",
            ]
        }
    }
}
