import CZeroMQ
import TrellisLog
import TrellisWire

/// One end of the connection between a parent controller and its children.
///
/// The parent end binds a ROUTER; each child end connects a DEALER whose routing id
/// is the child's controller id. A link is an actor that runs on its `IOLoop`:
/// messages are decoded, checked and handed to `onMessage` on the loop thread, and
/// every message sent, received, delivered, rejected or dropped is a routing-log line.
/// The handler gets the link itself, isolated, so it can answer on the spot.
/// When the parent end lives in the same process and `localFastPath` is on, the
/// two ends pass `Envelope` values to each other's loop instead (`via: "local"`).
public actor Link {
    public enum Role: Sendable, Equatable {
        /// Binds and serves many children.
        case parent
        /// Connects to the parent with this id.
        case child(parent: ControllerID)
    }

    /// The local controller: source of what this end sends, target of what it accepts.
    public nonisolated let id: ControllerID
    public nonisolated let role: Role
    public nonisolated let endpoint: String
    public nonisolated let loop: IOLoop
    public nonisolated var unownedExecutor: UnownedSerialExecutor { loop.asUnownedSerialExecutor() }

    let log: RoutingLog
    let options: LinkOptions
    let onMessage: @Sendable (Envelope, isolated Link) -> Disposition
    let onPeer: @Sendable (PeerEvent) -> Void
    let via: String
    /// This end as the writer of routing-log events, over its transport and over
    /// the same-process path.
    private let transportOrigin: RoutingLog.Origin
    private let localOrigin: RoutingLog.Origin

    // What every message touches is `@exclusivity(unchecked)`. Swift checks each
    // access to a class's stored property at run time (a set of accesses in
    // thread-local storage): a tenth of the sending loop in the fan-out benchmark.
    // The actor keeps other threads out. On the loop thread, these are only read,
    // assigned, or passed inout to a function that never reaches back into the link
    // (an encoder, a collection's own method), so no two accesses can overlap.
    @exclusivity(unchecked) var socket: ZMQSocket?
    /// A parent end's: when a child's connection closes. A child end's, with
    /// `LinkOptions.watchesHandshake`: its handshakes, in `handshakes`.
    var monitor: SocketMonitor?
    private var monitorSourceID: Int?
    var handshakes = HandshakeReport()
    /// Parent end with CURVE keys: the ZAP domain its children's keys are admitted under.
    @exclusivity(unchecked) var zapDomain: String?
    let context: ZMQContext
    /// Parent end with CURVE keys: the keys connected children vouched for, by the id
    /// each is admitted as (`Link+Vouching.swift`).
    var vouched: [ControllerID: VouchedKey] = [:]
    private var sourceID: Int?
    var heartbeatTimer: UInt64?
    @exclusivity(unchecked) var closed = false

    /// Its lanes (`Link+Lanes.swift`). Unchecked as the fields above are: read on every
    /// send, and only read, assigned, or changed by a collection's own method.
    @exclusivity(unchecked) var lanes = Lanes()

    @exclusivity(unchecked) var localParent: Link?
    @exclusivity(unchecked) var localChildren: [ControllerID: Link] = [:]

    @exclusivity(unchecked) var sequence: UInt64 = 0
    @exclusivity(unchecked) var peers: [ControllerID: PeerState] = [:]
    var pending: [UInt64: Pending] = [:]
    /// The one loop timer that expires requests, and the deadline it is set for.
    /// One timer per request cost a heap insert and a cancellation per round trip,
    /// and left a cancelled entry in the loop's heap for the whole timeout.
    var expiryTimer: (id: UInt64, deadline: UInt64)?
    /// Child end: how the parent answered this end's hello; nil until it has.
    public internal(set) var helloAnswer: HelloAnswer?
    /// Set when the message being handled resumed a waiting `request`.
    @exclusivity(unchecked) var resumedWaiter = false
    /// While a frame isolated to this link runs from the loop (`onLoopThread`).
    // Unsafe and unchecked: read and assigned only by `onLoopThread` and `run`, on the
    // loop's thread, each right after checking that thread is the one asking; only read
    // and assigned, never passed inout. A `LoopBound` made the same check, behind an
    // exclusivity check of its own, three times for every frame.
    @exclusivity(unchecked) nonisolated(unsafe) private var inFrame = false

    /// The ids of the peers this end hears from, so receiving builds none anew.
    @exclusivity(unchecked) var knownIDs = ControllerIDCache()
    /// The header and body of the message being sent, encoded in place for each
    /// one: sending allocates nothing of its own.
    @exclusivity(unchecked) var outgoingHeader = [UInt8](repeating: 0, count: WireCodec.headerSize)
    @exclusivity(unchecked) var outgoingBody: [UInt8] = []

    struct PeerState {
        var lastHeard: UInt64
        var lastSent: UInt64 = 0
        var connected: Bool
        /// From its hello: a hello with another pid is a new process under the same id.
        var pid: UInt32?
    }

    enum Pending {
        case hello
        /// `peer`: who must answer; its restart or loss fails the request at once.
        case request(kind: MessageKind, peer: ControllerID, deadline: UInt64, Waiter)
    }

    /// Who waits for an answer. Each is answered exactly once, by whichever of
    /// `answer`, `expire`, `close` or a failed send first removes its entry from
    /// `pending`.
    enum Waiter {
        /// Unsafe rather than checked (which allocates a canary per request).
        case task(UnsafeContinuation<Result<Envelope, LinkError>, Never>)
        /// Called on the loop thread.
        case callback(@Sendable (Result<Envelope, LinkError>) -> Void)
        /// The link's own (its lanes'): called isolated to it, in the frame that has the
        /// answer, so what it changes holds for the very next message read.
        case link(@Sendable (isolated Link, Result<Envelope, LinkError>) -> Void)

        func resume(_ result: Result<Envelope, LinkError>, in link: isolated Link) {
            switch self {
            case .task(let c): c.resume(returning: result)
            case .callback(let f): f(result)
            case .link(let f): f(link, result)
            }
        }
    }

    // MARK: Creating

    /// Binds a parent end at `endpoint` (`ipc://…`, `tcp://…`, `inproc://…`).
    public static func bind(
        id: ControllerID, endpoint: String, loop: IOLoop, log: RoutingLog, context: ZMQContext = .shared,
        options: LinkOptions = LinkOptions(),
        onMessage: @escaping @Sendable (Envelope, isolated Link) -> Disposition = { _, _ in .handled },
        onPeer: @escaping @Sendable (PeerEvent) -> Void = { _ in }
    ) async throws(LinkError) -> Link {
        let link = try Link(
            id: id, role: .parent, endpoint: endpoint, loop: loop, log: log, context: context, options: options,
            onMessage: onMessage, onPeer: onPeer)
        await link.start()
        return link
    }

    /// Connects a child end to its parent's endpoint.
    public static func connect(
        id: ControllerID, parent: ControllerID, endpoint: String, loop: IOLoop, log: RoutingLog,
        context: ZMQContext = .shared, options: LinkOptions = LinkOptions(),
        onMessage: @escaping @Sendable (Envelope, isolated Link) -> Disposition = { _, _ in .handled },
        onPeer: @escaping @Sendable (PeerEvent) -> Void = { _ in }
    ) async throws(LinkError) -> Link {
        let link = try Link(
            id: id, role: .child(parent: parent), endpoint: endpoint, loop: loop, log: log, context: context,
            options: options, onMessage: onMessage, onPeer: onPeer)
        await link.start()
        return link
    }

    /// Connects a child end now, from its loop's thread, and returns it started: for a
    /// child made while its parent's code runs on that thread and cannot await (an
    /// actor-placed controller, made when its parent asks the registry for it). The
    /// parent end may be anywhere; this end's hello is on its way when this returns.
    public static func connectNow(
        id: ControllerID, parent: ControllerID, endpoint: String, loop: IOLoop, log: RoutingLog,
        context: ZMQContext = .shared, options: LinkOptions = LinkOptions(),
        onMessage: @escaping @Sendable (Envelope, isolated Link) -> Disposition = { _, _ in .handled },
        onPeer: @escaping @Sendable (PeerEvent) -> Void = { _ in }
    ) throws(LinkError) -> Link {
        loop.preconditionOnLoop()
        let link = try Link(
            id: id, role: .child(parent: parent), endpoint: endpoint, loop: loop, log: log, context: context,
            options: options, onMessage: onMessage, onPeer: onPeer)
        link.now { $0.addSources() }
        // The parent end learns of this one before the hello reaches it, as `start` has
        // it: on its own loop, at once when that is this one.
        if let localParent = link.now({ $0.localParent }) { localParent.run { $0.attachLocal(link) } }
        link.now { $0.greet() }
        return link
    }

    private init(
        id: ControllerID, role: Role, endpoint: String, loop: IOLoop, log: RoutingLog, context: ZMQContext,
        options: LinkOptions, onMessage: @escaping @Sendable (Envelope, isolated Link) -> Disposition,
        onPeer: @escaping @Sendable (PeerEvent) -> Void
    ) throws(LinkError) {
        self.id = id
        self.role = role
        self.endpoint = endpoint
        self.loop = loop
        self.log = log
        self.options = options
        self.onMessage = onMessage
        self.onPeer = onPeer
        self.context = context
        self.via = endpoint.split(separator: ":", maxSplits: 1).first.map(String.init) ?? "?"
        transportOrigin = log.registerOrigin(at: id.rawValue, via: via)
        localOrigin = log.registerOrigin(at: id.rawValue, via: "local")
        if case .child = role, options.localFastPath, let parent = LocalFabric.parent(at: endpoint) {
            localParent = parent
            return
        }
        do {
            let s = try ZMQSocket(role == .parent ? .router : .dealer, context: context)
            try s.set(ZMQ_LINGER, options.linger.milliseconds)
            try s.set(ZMQ_SNDHWM, options.highWaterMark)
            try s.set(ZMQ_RCVHWM, options.highWaterMark)
            try s.set(ZMQ_MAXMSGSIZE, options.maxMessageSize)
            if let ping = options.transportHeartbeat {
                try s.set(ZMQ_HEARTBEAT_IVL, ping.milliseconds)
                try s.set(ZMQ_HEARTBEAT_TIMEOUT, ping.milliseconds * 3)
            }
            switch role {
            case .parent:
                try s.set(ZMQ_ROUTER_MANDATORY, Int32(1))
                try s.set(ZMQ_ROUTER_HANDOVER, Int32(options.routerHandover ? 1 : 0))
                if case .server(let keys, let children) = options.curve {
                    // Admitted before the bind: libzmq lets every CURVE client in while
                    // no ZAP handler listens.
                    let domain = ZAPHandler.newDomain()
                    // A refused handshake reaches no link: said here, or no one would know.
                    let at = id.rawValue, via = endpoint.split(separator: ":", maxSplits: 1).first.map(String.init) ?? "?"
                    try ZAPHandler.admit(children, domain: domain, context: context) { key in
                        log.record(RoutingRecord(
                            host: log.host, at: at, source: "-", target: at, kind: "link", outcome: .rejected, via: via,
                            reason: "handshake refused: the key \(key) was neither issued nor vouched for here"))
                    }
                    zapDomain = domain
                    try s.set(ZMQ_CURVE_SERVER, Int32(1))
                    try s.set(ZMQ_CURVE_SECRETKEY, bytes: Array(keys.secretKey.utf8))
                    try s.set(ZMQ_ZAP_DOMAIN, bytes: Array(domain.utf8))
                }
                monitor = try SocketMonitor(watching: s, events: ZMQ_EVENT_DISCONNECTED, context: context)
                do { try s.bind(endpoint) } catch {
                    if let zapDomain { ZAPHandler.forget(domain: zapDomain, context: context) }
                    throw error
                }
            case .child:
                try s.set(ZMQ_ROUTING_ID, bytes: Array(id.rawValue.utf8))
                try s.set(ZMQ_IMMEDIATE, Int32(options.immediate ? 1 : 0))
                try s.set(ZMQ_RECONNECT_IVL, Int32(100))
                try s.set(ZMQ_RECONNECT_IVL_MAX, Int32(1000))
                if case .client(let keys, let serverKey) = options.curve {
                    try s.set(ZMQ_CURVE_SERVERKEY, bytes: Array(serverKey.utf8))
                    try s.set(ZMQ_CURVE_PUBLICKEY, bytes: Array(keys.publicKey.utf8))
                    try s.set(ZMQ_CURVE_SECRETKEY, bytes: Array(keys.secretKey.utf8))
                }
                if options.watchesHandshake {
                    monitor = try SocketMonitor(watching: s, events: HandshakeReport.events, context: context)
                }
                try s.connect(endpoint)
            }
            socket = s
        } catch {
            throw .transport("\(id) at \(endpoint): \(error)")
        }
    }

    private func start() async {
        addSources()
        if let localParent {
            await localParent.attachLocal(self)
        }
        greet()
    }

    /// The loop reads this end's socket (and a parent end's monitor) from now on.
    private func addSources() {
        if let socket {
            loop.keepIOThreadsNear(context)
            let s = socket
            sourceID = loop.addSource(
                fd: s.fileDescriptor, isReady: { s.isReadyBeforeSleep },
                onReadable: { [weak self] in self?.onLoopThread { $0.drainSocket() } },
                onLoopStop: { [weak self] in self?.onLoopThread { $0.close() } })
        }
        // A child end's handshakes are read when asked for and every heartbeat.
        if role == .parent, let monitor {
            monitorSourceID = loop.addSource(
                fd: monitor.fileDescriptor, isReady: { monitor.isReadyBeforeSleep },
                onReadable: { [weak self] in self?.onLoopThread { $0.connectionsClosed() } },
                onLoopStop: {})
        }
        if role == .parent && options.localFastPath {
            LocalFabric.register(self, at: endpoint)
        }
        listenForLanes()
    }

    /// Liveness begins: heartbeats, and a child end's hello.
    private func greet() {
        scheduleHeartbeat()
        if case .child(let parent) = role {
            sendHello(to: parent)
        }
    }

    /// `assumeIsolated` on the loop's thread, checked by the loop.
    ///
    /// The runtime's check behind `assumeIsolated` first asks whether the current
    /// executor is the main one (a dynamic cast) before it reaches our
    /// `checkIsolated`: about 4% of the echo child's loop thread in the benchmark,
    /// once per wake-up. Being on the loop's thread is being isolated to this actor,
    /// whose executor is the loop: its jobs run only on that thread, one at a time, and
    /// the loop calls sources between them. Inside a job that runs there (a host's
    /// controllers on a main-thread loop, calling `run`), the runtime's own check ends in
    /// `checkIsolated`, which is this thread check and nothing more. So the loop's
    /// thread check is the whole proof, and the cast below is the one `assumeIsolated`
    /// itself performs after its check.
    ///
    /// It is also where re-entry is caught: a frame isolated to this link may not begin
    /// while another is on the loop's stack — which a handler that ran the process's
    /// code inside the link's own frame (and that code, waiting, read this link again)
    /// would do. Handlers queue what they hand on (`Switchboard`), so this never fires;
    /// it is checked rather than assumed because the unchecked exclusivity below relies
    /// on it.
    ///
    /// `body` is escaping, and cast inside a struct, because that costs nothing:
    /// `withoutActuallyEscaping` and a function type as `unsafeBitCast`'s generic
    /// argument each allocate a context for a reabstraction thunk, two allocations and
    /// releases for every frame (callgrind, issue 20).
    nonisolated func onLoopThread<T>(_ body: @escaping (isolated Link) -> T) -> T {
        loop.preconditionOnLoop()
        precondition(!inFrame, "Link \(id): re-entered while a frame isolated to it is on the stack")
        inFrame = true
        defer { inFrame = false }
        return unsafeBitCast(IsolatedBody(body: body), to: PlainBody<T>.self).body(self)
    }

    private struct IsolatedBody<T> { let body: (isolated Link) -> T }
    private struct PlainBody<T> { let body: (Link) -> T }

    /// `body` isolated to this link, now, returning its result: from the loop's thread
    /// only (a main-thread loop's main actor asking whether a peer is connected).
    public nonisolated func now<T>(_ body: @escaping (isolated Link) -> T) -> T {
        onLoopThread(body)
    }

    /// Runs `body` isolated to this link: at once when called on its loop's thread (on a
    /// main-thread loop, from the controllers), else as the loop's next work — also when
    /// called from inside this link's own frame (a handler or `onPeer` that answers),
    /// which must end before another begins.
    ///
    /// On the loop's thread the runtime's `assumeIsolated` check comes down to the loop's
    /// own thread check (`IOLoop.checkIsolated`), after a detour through the main
    /// executor's; `onLoopThread` makes that check alone. Every send of a host goes
    /// through here.
    public nonisolated func run(_ body: @escaping @Sendable (isolated Link) -> Void) {
        if loop.isCurrent && !inFrame {
            onLoopThread(body)
        } else {
            loop.execute(duringWaits: true) { self.onLoopThread(body) }
        }
    }

    // MARK: Closing

    /// Closes the socket (after at most `linger`), fails what is still waiting, and
    /// stops heartbeats. Idempotent.
    public func close() {
        guard !closed else { return }
        closed = true
        if let heartbeatTimer { loop.cancelTimer(heartbeatTimer) }
        if let expiryTimer { loop.cancelTimer(expiryTimer.id) }
        expiryTimer = nil
        for (_, waiting) in pending {
            if case .request(_, _, _, let waiter) = waiting { waiter.resume(.failure(.closed), in: self) }
        }
        pending.removeAll()
        if let sourceID { loop.removeSource(sourceID) }
        if let monitorSourceID { loop.removeSource(monitorSourceID) }
        closeLanes()
        if let socket { monitor?.close(watching: socket) }
        monitor = nil
        socket?.close(linger: options.linger.milliseconds)
        socket = nil
        if role == .parent && options.localFastPath { LocalFabric.unregister(endpoint) }
        if let zapDomain { ZAPHandler.forget(domain: zapDomain, context: context) }
        zapDomain = nil
        localChildren.removeAll()
        localParent = nil
        logEvent("link closed")
    }

    // MARK: Logging

    /// Heartbeats are not written: ten a second on every idle connection would be most
    /// of an idle tree's log. What they decide is: `lost`, and `peer … connected`.
    func record(_ e: Envelope, outcome: RoutingRecord.Outcome, bytes: Int, via: String? = nil, reason: String? = nil) {
        guard log.isEnabled, e.kind != .heartbeat else { return }
        log.record(
            MessageEvent(
                sequence: e.sequence, trace: e.trace, bytes: bytes, source: e.source, target: e.target, kind: e.kind,
                outcome: outcome, origin: via == nil || via == self.via ? transportOrigin : localOrigin, reason: reason))
    }

    func record(_ r: RoutingRecord) { log.record(r) }

    func logEvent(_ text: String, peer: ControllerID? = nil) {
        log.record(
            RoutingRecord(
                host: log.host, at: id.rawValue, source: peer?.rawValue ?? id.rawValue, target: id.rawValue, kind: "link",
                outcome: .event, via: localParent != nil ? "local" : via, reason: text))
    }
}
