import ArgumentParser
import Foundation
import TrellisClient

/// `trellis screen`: what the compositor composed, as text.
struct ScreenCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "screen", abstract: "Print the session's composed screen as text.")

    @OptionGroup var options: SessionOptions
    @Flag(help: "With attributes: each row's runs of equally styled cells (`ROW COL fg bg attrs \"text\"`).") var cells = false
    @Flag(help: "With --cells: the rows of runs as JSON.") var json = false

    func run() async throws {
        guard cells else {
            print(try await options.withClient { try await $0.screen() })
            return
        }
        let rows = try await options.withClient { try await $0.cells() }
        if json {
            print(String(decoding: try JSONEncoder().encode(rows), as: UTF8.self))
            return
        }
        for (y, row) in rows.enumerated() {
            for run in row where !(run.text.allSatisfy { $0 == " " } && run.background == "default" && run.attributes.isEmpty) {
                let attrs = run.attributes.isEmpty ? "-" : run.attributes.joined(separator: ",")
                print("\(y) \(run.x) fg=\(run.foreground) bg=\(run.background) \(attrs) \(run.text.debugDescription)")
            }
        }
    }
}
