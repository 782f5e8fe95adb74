import ArgumentParser
import Foundation
import TrellisClient

/// `trellis tree`: every controller of the running tree, across processes.
struct TreeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tree", abstract: "Show the controllers: class, placement, appearance, traits, frame.")

    @OptionGroup var options: SessionOptions
    @Flag(help: "As JSON.") var json = false

    func run() async throws {
        let tree = try await options.withClient { try await $0.tree() }
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            print(String(decoding: try encoder.encode(tree), as: UTF8.self))
        } else {
            print(tree.text())
        }
    }
}
