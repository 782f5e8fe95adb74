import ArgumentParser
import Foundation
import TrellisClient

/// `trellis wait`: until the screen shows (or stops showing) a text; non-zero on timeout.
struct WaitCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "wait",
        abstract: "Wait until the screen shows --text (stops showing --gone), a --controller reaches a --state, or the tree is --idle; exit 1 on --timeout.")

    @OptionGroup var options: SessionOptions
    @Option(help: "Wait until the screen shows this.") var text: String?
    @Option(help: "Wait until the screen no longer shows this.") var gone: String?
    @Option(help: "Wait until this controller is in --state.") var controller: String?
    @Option(help: "The appearance state for --controller: appeared, disappeared, appearing, disappearing.") var state = "appeared"
    @Flag(help: "Wait until no message is in flight anywhere in the tree (and the logs are quiet for 200 ms).") var idle = false
    @Option(help: "Give up after this many seconds.") var timeout: Double = 10

    func validate() throws {
        guard [text, gone, controller].compactMap({ $0 }).count + (idle ? 1 : 0) == 1 else {
            throw ValidationError("give one of --text, --gone, --controller or --idle")
        }
        guard ["appeared", "disappeared", "appearing", "disappearing"].contains(state) else {
            throw ValidationError("--state: one of appeared, disappeared, appearing, disappearing")
        }
        guard timeout > 0 else { throw ValidationError("--timeout must be > 0") }
    }

    func run() async throws {
        let limit = Duration.milliseconds(Int64(timeout * 1000))
        let started = ContinuousClock.now
        // Attaching waits for a session that `trellis up` is still starting, within the
        // same budget as the wait itself.
        try await options.withClient(timeout: limit) { client in
            let remaining = max(.milliseconds(1), limit - (ContinuousClock.now - started))
            if let text { try await client.wait(forText: text, timeout: remaining) }
            if let gone { try await client.wait(forTextGone: gone, timeout: remaining) }
            if let controller { try await client.wait(forController: controller, state: state, timeout: remaining) }
            if idle { try await client.waitUntilIdle(timeout: remaining) }
        }
    }
}
