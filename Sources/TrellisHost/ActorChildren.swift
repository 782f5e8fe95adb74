import Synchronization
import TrellisControllers
import TrellisLog
import TrellisTransport
import TrellisViews
import TrellisWire

/// The children of this process's controllers that are placed as actors
/// (docs/PROCESSES.md, "Placements"): each runs on an `IOLoop` thread of its own — its
/// `ChildHost`, window, tree and links there, its tree's later work on that loop's turns
/// (`IOLoopTurns`) — and is reached by its parent only over a link, bound here at an
/// `inproc://` endpoint, as a child in another process is. The messages, the waits
/// (`Switchboard`) and the log lines are the same in both placements by construction, not
/// by care: the parent holds a `RemoteController`, the child a `ParentProxy`, and neither
/// holds the other. A child that spins holds up its own loop only: its parent's process
/// goes on, and a call to it is bounded by the request timeout, as a call to a process is.
/// A crash is still the process's: only a process isolates a fault.
///
/// Nothing of a child's tree is made on its parent's thread: its controller is made on its
/// loop by a registry of its own, filled there by `registering` (the app's classes, the
/// scene's data). Its state is its own, told to its parent over its link as a process
/// child's is, and kept here as part of the process's (`StateRestoration.keep(part:of:)`);
/// what comes back after a restart is handed to each child's loop.
///
/// Not yet on a loop of its own: an actor child placed with `onParentLoop` — one whose
/// host has process children for its controllers (`--remote-child`): their links end at
/// the host's parent end, on its loop, so their stand-ins are that loop's and so is the
/// tree that holds them. It is hosted there as before: its window shares the process's
/// state and its host's registry, and a spin there holds up its process.
///
/// The parent's side — this object, the proxies, the parent end — is its parent's loop's.
public final class ActorChildren {
    public let children: RemoteChildren
    private let loop: IOLoop
    private let log: RoutingLog
    private let compositor: String?
    private let compositorOptions: @Sendable (ControllerID) -> LinkOptions?
    private let registering: @Sendable (ControllerRegistry) -> Void
    private var hosted: [ControllerID: Hosted] = [:]
    /// The process's state as it came back after a restart, for children hosted after.
    private var restored: [UInt8]?

    /// One child: its loop, and there its host.
    private struct Hosted {
        let loop: IOLoop
        let host: LoopBound<ChildHost?>
        /// Made for the child, stopped with it: not its parent's.
        let ownLoop: Bool
    }
    /// The process's state, for children hosted on their parent's loop.
    private weak var stateRestoration: StateRestoration?

    /// Numbers the endpoints of this process: an `inproc://` name is the process's.
    private static let endpoints = Atomic<Int>(0)

    private init(
        children: RemoteChildren, loop: IOLoop, log: RoutingLog, compositor: String?,
        compositorOptions: @escaping @Sendable (ControllerID) -> LinkOptions?,
        registering: @escaping @Sendable (ControllerRegistry) -> Void
    ) {
        self.children = children
        self.loop = loop
        self.log = log
        self.compositor = compositor
        self.compositorOptions = compositorOptions
        self.registering = registering
    }

    /// Binds the parent end, on `loop` (the parent's), for the actor children of `parent`'s
    /// process. Their frames go to the compositor at `compositor` (none: a window without
    /// one, as in tests), each child's link there with `compositorOptions(child)` (its
    /// keys). Each child's controller is made on its own loop by a registry `registering`
    /// fills there. Their state is part of the process's: `stateRestoration`, the one its
    /// host keeps (none: kept by the parent end only, for a child's restart).
    public static func bind(
        parent: ControllerID, loop: IOLoop, log: RoutingLog, compositor: String?,
        compositorOptions: @escaping @Sendable (ControllerID) -> LinkOptions? = { _ in nil },
        registering: @escaping @Sendable (ControllerRegistry) -> Void = { _ in },
        stateRestoration: StateRestoration? = nil, isolation: isolated (any Actor)? = #isolation
    ) async throws(LinkError) -> ActorChildren {
        let n = endpoints.add(1, ordering: .relaxed).newValue
        // Only this process can reach an inproc endpoint: no keys are needed on it.
        let children = try await RemoteChildren.bind(
            parent: parent, endpoint: "inproc://trellis-actors-\(n)-\(parent)", loop: loop, log: log)
        let actors = ActorChildren(
            children: children, loop: loop, log: log, compositor: compositor, compositorOptions: compositorOptions,
            registering: registering)
        actors.stateRestoration = stateRestoration
        if let stateRestoration {
            // A child's saved state, told over its link, is part of the process's.
            children.onStateKept = { [weak stateRestoration] child, bytes in
                do throws(RestorationError) {
                    try stateRestoration?.keep(part: bytes, of: child)
                } catch {
                    View.diagnostics("State restoration: \(child)'s state is not part of its process's: \(error)")
                }
            }
            let earlier = stateRestoration.onReceived
            stateRestoration.onReceived = { [weak actors] bytes in
                earlier?(bytes)
                actors?.restore(bytes)
            }
        }
        return actors
    }

    /// From now on, a controller of class `name` asked of `registry` (the parent's) is
    /// hosted as an actor child, made on its loop by the registry `registering` fills
    /// there, and whoever asked gets the proxy to add as its child.
    /// With `onParentLoop`, hosted on this (its parent's) loop instead, made by what `name`
    /// was registered with in `registry` and configured as `registry` configures.
    public func place(_ name: String, in registry: ControllerRegistry, onParentLoop: Bool = false) {
        guard onParentLoop else {
            registry.register(name) { [unowned self] id in
                host(name, id: id ?? ViewController.generatedID(named: name))
            }
            return
        }
        guard let make = registry.factory(named: name) else {
            View.diagnostics("Actor placement: no controller class '\(name)' to place")
            return
        }
        registry.register(name) { [unowned self, unowned registry] id in
            if let id, hosted[id] != nil { return children.proxy(for: id) }
            let controller = make(id)
            registry.configure?(controller)
            return hostOnParentLoop(controller, registry: registry)
        }
    }

    /// Hosts `controller` on this loop, its parent's, sharing the process's state.
    private func hostOnParentLoop(_ controller: ViewController, registry: ControllerRegistry) -> RemoteController {
        let id = controller.id
        do {
            let made = try ChildHost.startActor(
                controller: controller, parent: children.parentID, endpoint: children.link.endpoint,
                compositor: compositor, loop: loop, log: log, compositorOptions: compositorOptions(id),
                stateRestoration: stateRestoration)
            made.window.registry = registry
            hosted[id] = Hosted(loop: loop, host: LoopBound(made, loop: loop), ownLoop: false)
        } catch {
            View.diagnostics("Actor placement: \(id) could not be hosted: \(error)")
        }
        return children.proxy(for: id)
    }

    /// Hosts a controller of class `name` with id `id` as an actor child (once per id),
    /// on a loop of its own, and returns the proxy its parent adds. A controller that
    /// cannot be made or hosted (no such class, its links refused) leaves a proxy whose
    /// calls fail, and says why.
    public func host(_ name: String, id: ControllerID) -> RemoteController {
        let registering = self.registering
        start(id) {
            let registry = ControllerRegistry()
            registering(registry)
            guard let controller = registry.make(name, id: id) else {
                View.diagnostics("Actor placement: no controller class '\(name)' to host as \(id)")
                return nil
            }
            return (controller, registry)
        }
        return children.proxy(for: id)
    }

    /// Hosts `controller`, made here and handed over whole (nothing here keeps it), as an
    /// actor child on a loop of its own, and returns the proxy its parent adds. Its tree
    /// has no registry: what it asks for by name is not made.
    public func host(_ controller: sending ViewController) -> RemoteController {
        let id = controller.id
        guard hosted[id] == nil else { return children.proxy(for: id) }
        let childLoop = IOLoop(name: "actor-\(id)")
        // Handed to the child's loop, whose alone it is from now on (`LoopBound`'s
        // contract; `sending` proves nothing here holds it).
        let handed = LoopBound<ViewController?>(controller, loop: childLoop)
        start(id, on: childLoop) {
            defer { handed.value = nil }
            return handed.value.map { ($0, nil) }
        }
        return children.proxy(for: id)
    }

    /// Starts child `id`'s loop, and on it its host for what `make` makes there.
    private func start(
        _ id: ControllerID, on childLoop: IOLoop? = nil,
        _ make: @escaping @Sendable () -> (ViewController, registry: ControllerRegistry?)?
    ) {
        guard hosted[id] == nil else { return }
        let childLoop = childLoop ?? IOLoop(name: "actor-\(id)")
        let host = LoopBound<ChildHost?>(nil, loop: childLoop)
        hosted[id] = Hosted(loop: childLoop, host: host, ownLoop: true)
        let parent = children.parentID, endpoint = children.link.endpoint, compositor = self.compositor
        let log = self.log, options = compositorOptions(id), restored = self.restored
        childLoop.execute {
            guard let (controller, registry) = make() else { return }
            do {
                let made = try ChildHost.startActor(
                    controller: controller, parent: parent, endpoint: endpoint, compositor: compositor, loop: childLoop,
                    log: log, compositorOptions: options, treeLoop: IOLoopTurns(childLoop))
                if let restored { try? made.window.stateRestoration.received(restored) }
                made.window.registry = registry
                host.value = made
            } catch {
                View.diagnostics("Actor placement: \(id) could not be hosted: \(error)")
            }
        }
    }

    /// The process's state came back after a restart: each child takes its part, on its
    /// loop, before the view its parent asks for next loads (what the parent sends it
    /// comes after, on its link).
    private func restore(_ bytes: [UInt8]) {
        restored = bytes
        for child in hosted.values where child.ownLoop {
            let host = child.host
            child.loop.execute {
                // It decoded here: it decodes there.
                try? host.value?.window.stateRestoration.received(bytes)
            }
        }
    }

    /// Closes every child's links, stops its loop, and closes the parent end.
    public func close(isolation: isolated (any Actor)? = #isolation) async {
        let all = hosted.values
        hosted = [:]
        for child in all where !child.ownLoop {
            if let made = child.host.value {
                await made.link.close()
                await made.compositorLink?.close()
            }
        }
        for child in all where child.ownLoop {
            let host = child.host
            await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                child.loop.execute {
                    if let made = host.value {
                        made.link.now { $0.close() }
                        if let c = made.compositorLink, c !== made.link { c.now { $0.close() } }
                    }
                    host.value = nil
                    done.resume()
                }
            }
            child.loop.shutdown()
        }
        await children.link.close()
    }
}
