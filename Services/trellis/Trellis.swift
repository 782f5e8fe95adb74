import ArgumentParser

/// `trellis`: the one command-line tool of Trellis.
@main
struct Trellis: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "trellis",
        abstract: "Process-isolated UIKit-style view controllers for the terminal, over ZeroMQ.",
        subcommands: [
            UpCommand.self, DownCommand.self, PsCommand.self, TreeCommand.self, KeysCommand.self, ScreenCommand.self, TapCommand.self, DragCommand.self,
            KeyCommand.self, ResizeCommand.self, WaitCommand.self, LogsCommand.self, TraceCommand.self, BenchCommand.self, PeerCommand.self,
            TerminalCheckCommand.self,
        ]
    )
}
