import ArgumentParser
import Foundation

/// The command line of every Trellis app binary: `host` (the default) and `classes`.
/// Named after the binary it runs in, since each app is its own executable.
///
/// Synchronous on purpose: an `async` main parks the main thread in `dispatchMain()`,
/// and a host's main thread is its I/O loop, which also serves the main actor.
struct AppCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: CommandLine.arguments.first.map { URL(fileURLWithPath: $0).lastPathComponent } ?? "trellis-app",
            abstract: "A Trellis app: run one of its controllers as a host, or list its classes.",
            // Someone who runs the binary by hand is most likely looking for this.
            discussion: "A scene file runs the app: `trellis up SCENE.yaml`, whose `app:` names this binary (docs/GUIDE.md).",
            subcommands: [HostCommand.self, ClassesCommand.self],
            defaultSubcommand: HostCommand.self)
    }
}
