import ArgumentParser

/// The benchmarks: each measured beside its baseline in the same run, ending with one
/// line of `key=value` figures (`ratio=` where there is a baseline). `trellis bench`
/// is their front door; the hidden helpers (`transport-peer`, `scale-peer`, `table-peer`, `tree-actors`) are the
/// processes some benchmarks start from the same binary, as `trellis bench HELPER`.
public enum Benchmarks {
    public static let commands: [any ParsableCommand.Type] = [
        TransportBench.self, TransportBenchPeer.self, LayoutBench.self, TreeBench.self, ComposeBench.self,
        LatencyBench.self, ScaleBench.self, ScalePeer.self, RenderBench.self, ChaosBench.self, E2EBench.self,
        KeysBench.self, TableBench.self, TablePeer.self, TreeActorPeer.self, IdleBench.self,
    ]
}
