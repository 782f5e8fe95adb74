import Synchronization
import TrellisControllers
import TrellisLog
import TrellisTransport
import TrellisViews
import TrellisWire

/// The children of this process's controllers that are placed as actors
/// (docs/PROCESSES.md, "Placements"): each is hosted here by a `ChildHost` of its own and
/// reached by its parent only over a link — bound here at an `inproc://` endpoint — as
/// a child in another process is. The messages, the waits (`Switchboard`) and the log
/// lines are the same in both placements by construction, not by care: the parent holds
/// a `RemoteController`, the child a `ParentProxy`, and neither holds the other.
///
/// What the placement does not give yet is a thread of its own: views and controllers
/// belong to no global actor (a tree is its owner's), but this host still owns each
/// child's tree on the main actor, so a child that spins holds up its parent's process
/// (a call to it is bounded; the process is not). Isolation of a fault is a process's.
public final class ActorChildren {
    public let children: RemoteChildren
    private let loop: IOLoop
    private let log: RoutingLog
    private let compositor: String?
    private let compositorOptions: (ControllerID) -> LinkOptions?
    private let stateRestoration: StateRestoration?
    private var hosts: [ControllerID: ChildHost] = [:]

    /// Numbers the endpoints of this process: an `inproc://` name is the process's.
    private static let endpoints = Atomic<Int>(0)

    private init(
        children: RemoteChildren, loop: IOLoop, log: RoutingLog, compositor: String?,
        compositorOptions: @escaping (ControllerID) -> LinkOptions?, stateRestoration: StateRestoration?
    ) {
        self.children = children
        self.loop = loop
        self.log = log
        self.compositor = compositor
        self.compositorOptions = compositorOptions
        self.stateRestoration = stateRestoration
    }

    /// Binds the parent end for the actor children of `parent`'s process. Their frames go
    /// to the compositor at `compositor` (none: a window without one, as in tests), each
    /// child's link there with `compositorOptions(child)` (its keys). Their state is the
    /// process's: `stateRestoration`, the one its host keeps (none: each child's own).
    public static func bind(
        parent: ControllerID, loop: IOLoop, log: RoutingLog, compositor: String?,
        compositorOptions: @escaping (ControllerID) -> LinkOptions? = { _ in nil },
        stateRestoration: StateRestoration? = nil, isolation: isolated (any Actor)? = #isolation
    ) async throws(LinkError) -> ActorChildren {
        let n = endpoints.add(1, ordering: .relaxed).newValue
        // Only this process can reach an inproc endpoint: no keys are needed on it.
        let children = try await RemoteChildren.bind(
            parent: parent, endpoint: "inproc://trellis-actors-\(n)-\(parent)", loop: loop, log: log)
        return ActorChildren(children: children, loop: loop, log: log, compositor: compositor, compositorOptions: compositorOptions,
            stateRestoration: stateRestoration)
    }

    /// From now on, a controller of class `name` made by `registry` is hosted as an actor
    /// child, and whoever asked gets the proxy to add as its child. The controller itself
    /// is made by what `name` was registered with, and configured as the registry
    /// configures (scene data, embed segues).
    public func place(_ name: String, in registry: ControllerRegistry) {
        guard let make = registry.factory(named: name) else {
            View.diagnostics("Actor placement: no controller class '\(name)' to place")
            return
        }
        registry.register(name) { [unowned self, unowned registry] id in
            if let id, let host = hosts[id] { return children.proxy(for: host.controller.id) }
            let controller = make(id)
            registry.configure?(controller)
            let proxy = host(controller)
            hosts[controller.id]?.window.registry = registry
            return proxy
        }
    }

    /// Hosts `controller` as an actor child (once per id) and returns the proxy its
    /// parent adds. A host that cannot be made (its links refused) leaves a proxy whose
    /// calls fail, and says why.
    public func host(_ controller: ViewController) -> RemoteController {
        let id = controller.id
        if hosts[id] == nil {
            do {
                hosts[id] = try ChildHost.startActor(
                    controller: controller, parent: children.parentID, endpoint: children.link.endpoint,
                    compositor: compositor, loop: loop, log: log, compositorOptions: compositorOptions(id),
                    stateRestoration: stateRestoration)
            } catch {
                View.diagnostics("Actor placement: \(id) could not be hosted: \(error)")
            }
        }
        return children.proxy(for: id)
    }

    /// Closes every child's links and the parent end.
    public func close(isolation: isolated (any Actor)? = #isolation) async {
        for host in hosts.values {
            await host.link.close()
            await host.compositorLink?.close()
        }
        hosts = [:]
        await children.link.close()
    }
}
