import TrellisWire
/// Controller classes by name, so that a controller can be asked for by name — in a
/// request from another process, in a scene file — and made where it will live.
public final class ControllerRegistry {
    /// The app's, which it fills at start and hands its host's window (`Window.registry`):
    /// the main actor's, where the app starts; a tree is handed its registry, never reads this.
    @MainActor public static let shared = ControllerRegistry()
    private var factories: [String: (ControllerID?) -> ViewController] = [:]

    public init() {}

    /// `factory` gets the id the controller must have (a host is told which), or nil
    /// for a generated one.
    public func register(_ name: String, _ factory: @escaping (ControllerID?) -> ViewController) {
        factories[name] = factory
    }

    /// For controllers whose id does not matter.
    public func register(_ name: String, _ factory: @escaping () -> ViewController) {
        factories[name] = { _ in factory() }
    }

    /// What `name` was registered with, for a host that places that class elsewhere and
    /// still makes the real controllers (`ActorChildren`).
    public func factory(named name: String) -> ((ControllerID?) -> ViewController)? {
        factories[name]
    }

    public func make(_ name: String, id: ControllerID? = nil) -> ViewController? {
        guard let c = factories[name]?(id) else { return nil }
        configure?(c)
        return c
    }

    /// Runs on every controller made here: a host gives scene data and embed segues to
    /// the controllers of its process this way, whichever code asked for them.
    public var configure: ((ViewController) -> Void)?

    /// Told when an embed segue of a controller made here could not run (the parent's
    /// view then loads without that child); a host logs it.
    public var segueFailed: ((ControllerID, EmbedSegue, EmbedSegueFailure) -> Void)?

    public var names: [String] { factories.keys.sorted() }
}

/// Requests every container understands.
public enum StandardRequest {
    /// "Show this controller" (UIKit's `show(_:sender:)`): the payload is a registered
    /// controller name; the nearest ancestor that can show it (a navigation controller
    /// pushes it) answers.
    public static let show = "show"
    /// "Go back" (a navigation controller pops).
    public static let back = "back"
}

extension ViewController {
    /// Asks the nearest ancestor that can show controllers to show the one registered as
    /// `name` (S1-3): the caller neither knows nor cares what kind of container it is in.
    public func requestShow(_ name: String, reply: @escaping (Reply) -> Void = { _ in }) {
        sendRequest(StandardRequest.show, payload: Array(name.utf8), reply: reply)
    }
}
