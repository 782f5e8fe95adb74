import Foundation
import TrellisControllers

/// The entry point of a Trellis app binary. An app is its controller classes,
/// registered by name; everything else a binary must do for the supervisor and the
/// tests — run one controller as a host, list the classes — is here, so that a user's
/// `main.swift` is a few lines (docs/GUIDE.md, issue 21):
///
/// ```swift
/// import TrellisApp
/// TrellisApp.main { registry in
///     registry.register("Counter") { id in Counter(id: id) }
/// }
/// ```
///
/// The subcommands are in `AppCommand`; docs/PROCESSES.md describes them.
@MainActor
public enum TrellisApp {
    /// What `main` was handed. Set once, before any subcommand runs.
    private static var registrations: (@Sendable (ControllerRegistry) -> Void)?

    /// Parses the command line and runs the subcommand it names; `host` (the default)
    /// never returns, the others exit when done. `register` is called once per registry
    /// the subcommand makes, before anything asks it for a controller — on the thread
    /// where that registry's controllers live (an actor child's loop: `ActorChildren`).
    public static func main(registering register: @escaping @Sendable (ControllerRegistry) -> Void) -> Never {
        registrations = register
        AppCommand.main()
        exit(0)
    }

    /// The app's classes, registered in `registry`.
    static func registerClasses(in registry: ControllerRegistry) {
        registrations?(registry)
    }

    /// What registers the app's classes, for a registry made on another thread.
    static var registering: @Sendable (ControllerRegistry) -> Void {
        registrations ?? { _ in }
    }

    /// Installs `register` without running anything: for tests of the subcommands.
    static func install(_ register: @escaping @Sendable (ControllerRegistry) -> Void) {
        registrations = register
    }
}
