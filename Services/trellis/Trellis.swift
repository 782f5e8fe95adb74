import ArgumentParser

/// `trellis`: the one command-line tool of Trellis.
@main
struct Trellis: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "trellis",
        abstract: "Process-isolated UIKit-style view controllers for the terminal, over ZeroMQ.",
        subcommands: [LogsCommand.self, BenchCommand.self, PeerCommand.self, TerminalCheckCommand.self]
    )
}
