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
/// A child whose tree has children in other processes has a parent end of its own for
/// them (`ParentEnd`, issue 20): bound on its loop before its controller is made there, at
/// the endpoint the supervisor points those processes at, so their stand-ins are its
/// loop's, made by its registry, as its host's are for the host's. A child whose tree has
/// actor children of its own (`nested`) has an `ActorChildren` of its own the same way,
/// on its loop: each of those on a loop of its own too, its state part of its parent's.
///
/// The parent's side — this object, the proxies, the parent end — is its parent's loop's.
public final class ActorChildren {
    /// Where an actor child's own process children connect, and as whom they may
    /// (`CurveKeys.server` with the actor's pair; none: plain, as every link without keys).
    public struct ParentEnd: Sendable {
        public var endpoint: String
        public var options: LinkOptions
        /// The classes whose instances its tree gets as children in other processes.
        public var classes: [String]

        public init(endpoint: String, options: LinkOptions = LinkOptions(), classes: [String]) {
            self.endpoint = endpoint
            self.options = options
            self.classes = classes
        }
    }

    public let children: RemoteChildren
    private let loop: IOLoop
    private let log: RoutingLog
    private let compositor: String?
    private let compositorOptions: @Sendable (ControllerID) -> LinkOptions?
    private let registering: @Sendable (ControllerRegistry) -> Void
    private let parentEnds: [ControllerID: ParentEnd]
    /// By actor child: the classes its tree gets as actor children of its own.
    private let nested: [ControllerID: [String]]
    private var hosted: [ControllerID: Hosted] = [:]
    /// The process's state as it came back after a restart, for children hosted after.
    private var restored: [UInt8]?

    /// One child: its loop, and there its host, its own parent end and its own actor children.
    private struct Hosted {
        let loop: IOLoop
        let host: LoopBound<ChildHost?>
        let processChildren: LoopBound<RemoteChildren?>
        let actorChildren: LoopBound<ActorChildren?>
        /// The process's state that came back, until its host is made to take it: its own
        /// ends are bound first, so it may come back before then.
        let restored: LoopBound<[UInt8]?>
        /// Binding its own ends, then hosting it: done before its loop stops.
        let bringUp: Task<Void, Never>?
    }

    /// Numbers the endpoints of this process: an `inproc://` name is the process's.
    private static let endpoints = Atomic<Int>(0)

    private init(
        children: RemoteChildren, loop: IOLoop, log: RoutingLog, compositor: String?,
        compositorOptions: @escaping @Sendable (ControllerID) -> LinkOptions?,
        registering: @escaping @Sendable (ControllerRegistry) -> Void, parentEnds: [ControllerID: ParentEnd],
        nested: [ControllerID: [String]]
    ) {
        self.children = children
        self.loop = loop
        self.log = log
        self.compositor = compositor
        self.compositorOptions = compositorOptions
        self.registering = registering
        self.parentEnds = parentEnds
        self.nested = nested
    }

    /// Binds the parent end, on `loop` (the parent's), for the actor children of `parent`'s
    /// process. Their frames go to the compositor at `compositor` (none: a window without
    /// one, as in tests), each child's link there with `compositorOptions(child)` (its
    /// keys). Each child's controller is made on its own loop by a registry `registering`
    /// fills there; a child in `parentEnds` binds that parent end for its process
    /// children first, and one in `nested` an `ActorChildren` of its own for those classes
    /// (configured as this one, the same `parentEnds` and `nested`). Their state is part of
    /// the process's: `stateRestoration`, the one its host keeps (none: kept by the parent
    /// end only, for a child's restart).
    public static func bind(
        parent: ControllerID, loop: IOLoop, log: RoutingLog, compositor: String?,
        compositorOptions: @escaping @Sendable (ControllerID) -> LinkOptions? = { _ in nil },
        registering: @escaping @Sendable (ControllerRegistry) -> Void = { _ in },
        parentEnds: [ControllerID: ParentEnd] = [:], nested: [ControllerID: [String]] = [:],
        stateRestoration: StateRestoration? = nil, isolation: isolated (any Actor)? = #isolation
    ) async throws(LinkError) -> ActorChildren {
        let n = endpoints.add(1, ordering: .relaxed).newValue
        // Only this process can reach an inproc endpoint: no keys are needed on it.
        let children = try await RemoteChildren.bind(
            parent: parent, endpoint: "inproc://trellis-actors-\(n)-\(parent)", loop: loop, log: log)
        let actors = ActorChildren(
            children: children, loop: loop, log: log, compositor: compositor, compositorOptions: compositorOptions,
            registering: registering, parentEnds: parentEnds, nested: nested)
        if let stateRestoration { actors.keepState(in: stateRestoration) }
        return actors
    }

    /// From now on the children's state is part of `stateRestoration`'s — their process's,
    /// or their parent actor's, itself part of its own parent's — and what comes back to it
    /// after a restart is handed to them.
    private func keepState(in stateRestoration: StateRestoration) {
        // A child's saved state, told over its link, is part of the process's.
        children.onStateKept = { [weak stateRestoration] child, bytes in
            do throws(RestorationError) {
                try stateRestoration?.keep(part: bytes, of: child)
            } catch {
                View.diagnostics("State restoration: \(child)'s state is not part of its process's: \(error)")
            }
        }
        let earlier = stateRestoration.onReceived
        stateRestoration.onReceived = { [weak self] bytes in
            earlier?(bytes)
            self?.restore(bytes)
        }
    }

    /// From now on, a controller of class `name` asked of `registry` (the parent's) is
    /// hosted as an actor child, made on its loop by the registry `registering` fills
    /// there, and whoever asked gets the proxy to add as its child.
    public func place(_ name: String, in registry: ControllerRegistry) {
        registry.register(name) { [unowned self] id in
            host(name, id: id ?? ViewController.generatedID(named: name))
        }
    }

    /// Hosts a controller of class `name` with id `id` as an actor child (once per id),
    /// on a loop of its own, and returns the proxy its parent adds. A controller that
    /// cannot be made or hosted (no such class, its links refused) leaves a proxy whose
    /// calls fail, and says why.
    public func host(_ name: String, id: ControllerID) -> RemoteController {
        let registering = self.registering
        let end = parentEnds[id], actorClasses = nested[id] ?? []
        start(id, parentEnd: end, nested: actorClasses) { processChildren, actorChildren in
            let registry = ControllerRegistry()
            registering(registry)
            // Its process children's stand-ins: its own parent end's, on its loop; and its
            // actor children's: its own `ActorChildren`'s, there too.
            if let processChildren, let end {
                for child in end.classes { processChildren.place(child, in: registry) }
            }
            if let actorChildren {
                for child in actorClasses { actorChildren.place(child, in: registry) }
            }
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
    /// has no registry: what it asks for by name is not made, and it has no parent end of
    /// its own.
    public func host(_ controller: sending ViewController) -> RemoteController {
        let id = controller.id
        guard hosted[id] == nil else { return children.proxy(for: id) }
        let childLoop = IOLoop(name: "actor-\(id)")
        // Handed to the child's loop, whose alone it is from now on (`LoopBound`'s
        // contract; `sending` proves nothing here holds it).
        let handed = LoopBound<ViewController?>(controller, loop: childLoop)
        start(id, on: childLoop) { _, _ in
            defer { handed.value = nil }
            return handed.value.map { ($0, nil) }
        }
        return children.proxy(for: id)
    }

    /// Starts child `id`'s loop, and on it its host for what `make` makes there — after
    /// binding `parentEnd` there, if it has one, and an `ActorChildren` of its own for
    /// `nested` classes, if any: `make` is handed both.
    private func start(
        _ id: ControllerID, on childLoop: IOLoop? = nil, parentEnd: ParentEnd? = nil, nested actorClasses: [String] = [],
        _ make: @escaping @Sendable (RemoteChildren?, ActorChildren?) -> (ViewController, registry: ControllerRegistry?)?
    ) {
        guard hosted[id] == nil else { return }
        let childLoop = childLoop ?? IOLoop(name: "actor-\(id)")
        let host = LoopBound<ChildHost?>(nil, loop: childLoop)
        let processChildren = LoopBound<RemoteChildren?>(nil, loop: childLoop)
        let actorChildren = LoopBound<ActorChildren?>(nil, loop: childLoop)
        let parent = children.parentID, endpoint = children.link.endpoint, compositor = self.compositor
        let log = self.log, options = compositorOptions(id)
        let restored = LoopBound<[UInt8]?>(self.restored, loop: childLoop)
        let hostThere: @Sendable () -> Void = {
            guard let (controller, registry) = make(processChildren.value, actorChildren.value) else { return }
            do {
                let made = try ChildHost.startActor(
                    controller: controller, parent: parent, endpoint: endpoint, compositor: compositor, loop: childLoop,
                    log: log, compositorOptions: options, treeLoop: IOLoopTurns(childLoop))
                // Its actor children's state is part of its own, told to its parent with it.
                actorChildren.value?.keepState(in: made.window.stateRestoration)
                if let bytes = restored.value { try? made.window.stateRestoration.received(bytes) }
                restored.value = nil
                made.window.registry = registry
                host.value = made
            } catch {
                View.diagnostics("Actor placement: \(id) could not be hosted: \(error)")
            }
        }
        let bringUp: Task<Void, Never>?
        if parentEnd == nil && actorClasses.isEmpty {
            childLoop.execute(hostThere)
            bringUp = nil
        } else {
            // Binding is asynchronous: its links' start runs on the child's loop, whose jobs
            // it and what follows are (`OnLoop`); the parent's calls meanwhile wait for the
            // child to connect, as for a process still starting (`Switchboard`).
            bringUp = bindEnds(
                of: id, on: childLoop, parentEnd: parentEnd, nested: actorClasses,
                into: processChildren, actorChildren, then: hostThere)
        }
        hosted[id] = Hosted(
            loop: childLoop, host: host, processChildren: processChildren, actorChildren: actorChildren,
            restored: restored, bringUp: bringUp)
    }

    /// Binds child `id`'s parent end for `parentEnd` (if any) and its `ActorChildren` for
    /// `actorClasses` (if any) on its loop, into `processChildren` and `actorChildren`, then
    /// runs `hostThere` there.
    private func bindEnds(
        of id: ControllerID, on childLoop: IOLoop, parentEnd: ParentEnd?, nested actorClasses: [String],
        into processChildren: LoopBound<RemoteChildren?>, _ actorChildren: LoopBound<ActorChildren?>,
        then hostThere: @escaping @Sendable () -> Void
    ) -> Task<Void, Never> {
        let log = self.log, compositor = self.compositor, compositorOptions = self.compositorOptions
        let registering = self.registering, parentEnds = self.parentEnds, nested = self.nested
        return Task {
            await OnLoop(childLoop).run { here in
                if let parentEnd {
                    do throws(LinkError) {
                        processChildren.value = try await RemoteChildren.bind(
                            parent: id, endpoint: parentEnd.endpoint, loop: childLoop, log: log, options: parentEnd.options,
                            isolation: here)
                    } catch {
                        View.diagnostics("Actor placement: \(id)'s children in other processes cannot connect to it: \(error)")
                    }
                }
                if !actorClasses.isEmpty {
                    do throws(LinkError) {
                        actorChildren.value = try await ActorChildren.bind(
                            parent: id, loop: childLoop, log: log, compositor: compositor,
                            compositorOptions: compositorOptions, registering: registering, parentEnds: parentEnds,
                            nested: nested, isolation: here)
                    } catch {
                        View.diagnostics("Actor placement: \(id)'s actor children cannot connect to it: \(error)")
                    }
                }
                hostThere()
            }
        }
    }

    /// The process's state came back after a restart: each child takes its part, on its
    /// loop, before the view its parent asks for next loads (what the parent sends it
    /// comes after, on its link).
    private func restore(_ bytes: [UInt8]) {
        restored = bytes
        for child in hosted.values {
            let host = child.host, restored = child.restored
            child.loop.execute {
                // It decoded here: it decodes there — now, or once its host is made.
                if let made = host.value { try? made.window.stateRestoration.received(bytes) } else { restored.value = bytes }
            }
        }
    }

    /// Closes every child's links, its own actor children and parent end, stops its loop,
    /// and closes the parent end.
    public func close(isolation: isolated (any Actor)? = #isolation) async {
        let all = hosted.values
        hosted = [:]
        for child in all {
            await child.bringUp?.value
            let host = child.host, processChildren = child.processChildren, actorChildren = child.actorChildren
            await OnLoop(child.loop).run { here in
                await actorChildren.value?.close(isolation: here)
                actorChildren.value = nil
            }
            await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                child.loop.execute {
                    if let made = host.value {
                        made.link.now { $0.close() }
                        if let c = made.compositorLink, c !== made.link { c.now { $0.close() } }
                    }
                    processChildren.value?.link.now { $0.close() }
                    host.value = nil
                    processChildren.value = nil
                    done.resume()
                }
            }
            child.loop.shutdown()
        }
        await children.link.close()
    }
}

/// An actor child's loop as an actor: what must await there — binding its parent end —
/// runs as that loop's jobs, on its thread, where what follows it must run too.
private actor OnLoop {
    private let loop: IOLoop
    nonisolated var unownedExecutor: UnownedSerialExecutor { loop.asUnownedSerialExecutor() }

    init(_ loop: IOLoop) {
        self.loop = loop
    }

    func run(_ body: @Sendable (isolated OnLoop) async -> Void) async {
        await body(self)
    }
}
