import ArgumentParser
import TrellisClient

/// `trellis screen`: what the compositor composed, as text.
struct ScreenCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "screen", abstract: "Print the session's composed screen as text.")

    @OptionGroup var options: SessionOptions

    func run() async throws {
        let text = try await options.withClient { try await $0.screen() }
        print(text)
    }
}
