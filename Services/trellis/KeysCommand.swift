import ArgumentParser
import TrellisClient

/// `trellis keys`: the key commands a key typed now would be offered to — from the
/// focused view up to the window, whichever process the focus is in.
struct KeysCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keys",
        abstract: "List the key commands active for the current focus, deepest first (what a footer shows).")

    @OptionGroup var options: SessionOptions

    func run() async throws {
        let commands = try await options.withClient { try await $0.keyCommands() }
        guard !commands.isEmpty else {
            print("no key commands are active")
            return
        }
        let width = commands.map(\.key.count).max() ?? 0
        for c in commands {
            let key = c.key.padding(toLength: width, withPad: " ", startingAt: 0)
            print("\(key)  \(c.title)\(c.isEnabled ? "" : " (disabled)")  — \(c.owner)")
        }
    }
}
