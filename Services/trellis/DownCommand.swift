import ArgumentParser
import Foundation
import TrellisLog

/// `trellis down`: asks a session's supervisor to stop the tree, and waits until it has.
struct DownCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "down", abstract: "Stop a running session (disappearance callbacks, then every process).")

    @OptionGroup var options: SessionOptions
    @Option(help: "Seconds to wait for the supervisor to finish.") var timeout: Double = 20

    func run() async throws {
        let run = try options.runDirectory()
        let state: SessionState
        do { state = try SessionState.read(from: run) } catch { throw CLIError("\(error)") }
        guard state.isSupervisorAlive, state.state != "stopped" else {
            print("session \(run.session) is not running")
            return
        }
        kill(state.supervisor, SIGTERM)
        let deadline = ContinuousClock.now + .milliseconds(Int64(timeout * 1000))
        while state.isSupervisorAlive {
            guard ContinuousClock.now < deadline else {
                throw CLIError("the supervisor (pid \(state.supervisor)) did not stop within \(timeout) s")
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        print("session \(run.session) stopped")
    }
}
