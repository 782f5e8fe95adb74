import ArgumentParser

/// `trellis bench NAME`: every benchmark runs its baseline beside it in the same
/// run and ends with one line of `key=value` figures (`ratio=` where there is a baseline).
struct BenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Run a benchmark beside its baseline.",
        subcommands: [
            TransportBench.self, TransportBenchPeer.self, LayoutBench.self, TreeBench.self, ComposeBench.self,
            LatencyBench.self, ScaleBench.self, ScalePeer.self, RenderBench.self, ChaosBench.self,
        ]
    )
}
