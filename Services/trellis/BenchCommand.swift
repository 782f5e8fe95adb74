import ArgumentParser
import TrellisBenchmarks

/// `trellis bench NAME`: the front door of the benchmarks, which live in
/// `Benchmarks/TrellisBenchmarks` (docs/BENCHMARKS.md).
struct BenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Run a benchmark beside its baseline.",
        subcommands: Benchmarks.commands
    )
}
