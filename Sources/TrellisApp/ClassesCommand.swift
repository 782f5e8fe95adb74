import ArgumentParser
import TrellisControllers

/// `APP classes`: the registered controller classes, one per line — what a supervisor
/// checks a scene's `class:` fields against before it starts anything.
struct ClassesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "classes", abstract: "List the controller classes, one per line.")

    func run() {
        for name in MainActor.assumeIsolated({ Self.names() }) { print(name) }
    }

    @MainActor
    static func names() -> [String] {
        let registry = ControllerRegistry()
        TrellisApp.registerClasses(in: registry)
        return registry.names
    }
}
