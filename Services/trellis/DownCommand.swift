import ArgumentParser
import Foundation
import TrellisLog
import TrellisSession

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
        guard state.state != "stopped" else {
            print("session \(run.session) is not running")
            return
        }
        // Only the supervisor that wrote the file is signalled: its pid alone may by now
        // name any process of ours (issue 19 finding 7).
        let pid = state.supervisor
        switch state.supervisorVerdict {
        case .same:
            break
        case .notRunning:
            print("session \(run.session) is not running (its supervisor, pid \(pid), has exited)")
            return
        case .anotherProcess:
            print("session \(run.session)'s supervisor (pid \(pid)) is not running: pid \(pid) is now another process; nothing signalled")
            return
        case .unrecorded:
            throw CLIError(
                "session \(run.session): \(SessionState.path(in: run)) records no start time for its supervisor (pid \(pid)), "
                    + "so nothing says pid \(pid) is still it (a trellis before start times wrote it); nothing signalled")
        }
        kill(pid, SIGTERM)
        let deadline = ContinuousClock.now + .milliseconds(Int64(timeout * 1000))
        while state.isSupervisorAlive {
            guard ContinuousClock.now < deadline else {
                throw CLIError("the supervisor (pid \(pid)) did not stop within \(timeout) s")
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        print("session \(run.session) stopped")
    }
}
