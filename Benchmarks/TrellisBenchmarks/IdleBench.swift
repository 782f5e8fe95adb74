import ArgumentParser

/// `trellis bench idle`: what the demo costs the machine while nobody uses it — CPU and
/// wake-ups a second of every process, with tmux and a C counter beside it (issue 20,
/// the heartbeat interval). The measuring is Python, beside `e2e`'s terminal side:
/// Benchmarks/e2e/idle.py, which this command runs with this binary and prints through.
struct IdleBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "idle",
        abstract: "CPU and wake-ups of the demo left alone in a terminal, beside tmux with a C counter.",
        discussion: """
            Two pseudo-terminals of 80x24: the demo (deploy/scenes/demo.yaml under \
            `trellis up`: the supervisor, the compositor and the app hosts) and a minimal \
            C counter (Benchmarks/e2e/counter.c, compiled now with cc) in a tmux pane. \
            Once both are drawn and have idled for --settle seconds, the CPU time the \
            kernel charged every thread of each program's processes \
            (/proc/PID/task/TID/schedstat) and its voluntary context switches (each a \
            sleep and a wake-up) are read over the same --seconds. cpu_ratio and \
            wakeups_ratio = ours / tmux (inf when tmux used none). Needs tmux, a C \
            compiler and .venv (./deploy/setup).
            """
    )

    @Option(help: "The measured window, in seconds.") var seconds = 10.0
    @Option(help: "Idle time before the window, in seconds.") var settle = 3.0
    @Option(help: "Python interpreter with pyte (default: .venv/bin/python of the checkout).") var python: String?

    func validate() throws {
        guard seconds >= 1, settle >= 0 else { throw ValidationError("--seconds must be at least 1, --settle at least 0") }
    }

    func run() throws {
        try runTerminalScript("Benchmarks/e2e/idle.py", python: python) { root, trellis in
            ["--trellis", trellis, "--scene", root + "/deploy/scenes/demo.yaml", "--seconds", "\(seconds)", "--settle", "\(settle)"]
        }
    }
}
