import ArgumentParser
import Foundation
import TrellisLog
import TrellisSession

/// `trellis ps`: a session's processes, as its supervisor last wrote them.
struct PsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "ps", abstract: "List a session's processes.")

    @OptionGroup var options: SessionOptions
    @Flag(help: "The session state as JSON.") var json = false

    func run() async throws {
        let run = try options.runDirectory()
        var state: SessionState
        do { state = try SessionState.read(from: run) } catch { throw CLIError("\(error)") }
        // A supervisor killed without stopping cannot have said so itself. A pid is shown
        // only while it is still the process recorded: once that has exited it may name
        // anyone's (issue 19 finding 7).
        let supervisor = state.supervisorVerdict
        if supervisor != .same && state.state != "stopped" {
            state.state = supervisor == .unrecorded
                ? "unknown (no start time recorded for supervisor pid \(state.supervisor))"
                : "gone (supervisor not running)"
        }
        for i in state.members.indices where state.members[i].pid > 0 && state.members[i].verdict != .same {
            state.members[i].pid = 0
        }
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            print(String(decoding: try encoder.encode(state), as: UTF8.self))
            return
        }
        print("session \(run.session): \(state.state), supervisor pid \(supervisor == .same ? "\(state.supervisor)" : "-"), scene \(state.scene)")
        if let reason = state.reason { print("reason: \(reason)") }
        let rows = [["ID", "ROLE", "CLASS", "PID", "RESTARTS"]] + state.members.map {
            [$0.id, $0.role, $0.className.isEmpty ? "-" : $0.className, $0.pid > 0 ? "\($0.pid)" : "-", "\($0.restarts)"]
        }
        let widths = (0..<5).map { c in rows.map { $0[c].count }.max() ?? 0 }
        for r in rows {
            print(r.enumerated().map { $0.element.padding(toLength: widths[$0.offset], withPad: " ", startingAt: 0) }.joined(separator: "  "))
        }
    }
}
