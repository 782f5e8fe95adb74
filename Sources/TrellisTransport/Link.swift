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

    private let log: RoutingLog
    private let options: LinkOptions
    private let onMessage: @Sendable (Envelope, isolated Link) -> Disposition
    private let onPeer: @Sendable (PeerEvent) -> Void
    private let via: String
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
    @exclusivity(unchecked) private var socket: ZMQSocket?
    /// A parent end's: when a child's connection closes. A child end's, with
    /// `LinkOptions.watchesHandshake`: its handshakes, in `handshakes`.
    private var monitor: SocketMonitor?
    private var monitorSourceID: Int?
    private var handshakes = HandshakeReport()
    /// Parent end with CURVE keys: the ZAP domain its children's keys are admitted under.
    @exclusivity(unchecked) private var zapDomain: String?
    private let context: ZMQContext
    private var sourceID: Int?
    private var heartbeatTimer: UInt64?
    @exclusivity(unchecked) private var closed = false

    @exclusivity(unchecked) private var localParent: Link?
    @exclusivity(unchecked) private var localChildren: [ControllerID: Link] = [:]

    @exclusivity(unchecked) private var sequence: UInt64 = 0
    @exclusivity(unchecked) private var peers: [ControllerID: PeerState] = [:]
    private var pending: [UInt64: Pending] = [:]
    /// The one loop timer that expires requests, and the deadline it is set for.
    /// One timer per request cost a heap insert and a cancellation per round trip,
    /// and left a cancelled entry in the loop's heap for the whole timeout.
    private var expiryTimer: (id: UInt64, deadline: UInt64)?
    /// Child end: how the parent answered this end's hello; nil until it has.
    public private(set) var helloAnswer: HelloAnswer?
    /// Set when the message being handled resumed a waiting `request`.
    @exclusivity(unchecked) private var resumedWaiter = false
    /// While a frame isolated to this link runs from the loop (`onLoopThread`). Its
    /// `LoopBound` checks that the loop's thread is the one asking.
    private nonisolated let inFrame: LoopBound<Bool>

    /// The ids of the peers this end hears from, so receiving builds none anew.
    @exclusivity(unchecked) private var knownIDs = ControllerIDCache()
    /// The header and body of the message being sent, encoded in place for each
    /// one: sending allocates nothing of its own.
    @exclusivity(unchecked) private var outgoingHeader = [UInt8](repeating: 0, count: WireCodec.headerSize)
    @exclusivity(unchecked) private var outgoingBody: [UInt8] = []

    private struct PeerState {
        var lastHeard: UInt64
        var lastSent: UInt64 = 0
        var connected: Bool
        /// From its hello: a hello with another pid is a new process under the same id.
        var pid: UInt32?
    }

    private enum Pending {
        case hello
        /// `peer`: who must answer; its restart or loss fails the request at once.
        case request(kind: MessageKind, peer: ControllerID, deadline: UInt64, Waiter)
    }

    /// Who waits for an answer. Each is answered exactly once, by whichever of
    /// `answer`, `expire`, `close` or a failed send first removes its entry from
    /// `pending`.
    private enum Waiter {
        /// Unsafe rather than checked (which allocates a canary per request).
        case task(UnsafeContinuation<Result<Envelope, LinkError>, Never>)
        /// Called on the loop thread.
        case callback(@Sendable (Result<Envelope, LinkError>) -> Void)

        func resume(_ result: Result<Envelope, LinkError>) {
            switch self {
            case .task(let c): c.resume(returning: result)
            case .callback(let f): f(result)
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
        inFrame = LoopBound(false, loop: loop)
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
                    try ZAPHandler.admit(children, domain: domain, context: context)
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
        if let localParent {
            await localParent.attachLocal(self)
        }
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
    private nonisolated func onLoopThread<T>(_ body: (isolated Link) -> T) -> T {
        precondition(!inFrame.value, "Link \(id): re-entered while a frame isolated to it is on the stack")
        inFrame.value = true
        defer { inFrame.value = false }
        return withoutActuallyEscaping(body) { body in
            unsafeBitCast(body, to: ((Link) -> T).self)(self)
        }
    }

    /// `body` isolated to this link, now, returning its result: from the loop's thread
    /// only (a main-thread loop's main actor asking whether a peer is connected).
    public nonisolated func now<T>(_ body: (isolated Link) -> T) -> T {
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
        if loop.isCurrent && !inFrame.value {
            onLoopThread(body)
        } else {
            loop.execute(duringWaits: true) { self.onLoopThread(body) }
        }
    }

    // MARK: Sending

    /// Sends a message; returns its sequence. A parent end must name the child.
    @discardableResult
    public func send(
        _ message: Message, to peer: ControllerID? = nil, trace: UInt64 = 0, flags: EnvelopeFlags = [],
        correlation: UInt64 = 0
    ) throws(LinkError) -> UInt64 {
        let envelope = try envelope(message, to: peer, trace: trace, flags: flags, correlation: correlation)
        try transmit(envelope)
        return envelope.sequence
    }

    /// Sends and waits for the answer: the `reply` to a `request`, else the `ack`.
    /// Throws `.rejected` if the peer answers with an error, `.timeout` if none comes.
    public func request(
        _ message: Message, to peer: ControllerID? = nil, trace: UInt64 = 0, timeout: Duration? = nil
    ) async throws(LinkError) -> Envelope {
        let envelope = try requestEnvelope(message, to: peer, trace: trace)
        // The loop as task executor: without it the runtime resumes the waiting
        // task on the global pool and hops back, two thread switches per answer.
        let result = await withTaskExecutorPreference(loop) {
            await withUnsafeContinuation { (c: UnsafeContinuation<Result<Envelope, LinkError>, Never>) in
                transmit(envelope, awaitedBy: .task(c), timeout: timeout)
            }
        }
        return try result.get()
    }

    /// `request` for a caller on the loop's own thread that cannot suspend (the main
    /// actor of a main-thread loop, which waits with `IOLoop.run(until:)`): `then` gets
    /// the answer, on the loop thread, exactly once.
    public func request(
        _ message: Message, to peer: ControllerID? = nil, trace: UInt64 = 0, timeout: Duration? = nil,
        then: @escaping @Sendable (Result<Envelope, LinkError>) -> Void
    ) {
        do throws(LinkError) {
            transmit(try requestEnvelope(message, to: peer, trace: trace), awaitedBy: .callback(then), timeout: timeout)
        } catch {
            then(.failure(error))
        }
    }

    /// A request's envelope: a `request` is answered by its reply, anything else acked.
    private func requestEnvelope(_ message: Message, to peer: ControllerID?, trace: UInt64) throws(LinkError) -> Envelope {
        try envelope(message, to: peer, trace: trace, flags: message.kind == .request ? [] : [.ackRequested])
    }

    /// Sends `envelope` with `waiter` registered for its answer first: on another loop
    /// the answer can be read before a waiting task resumes. A failed send answers the
    /// waiter at once.
    private func transmit(_ envelope: Envelope, awaitedBy waiter: Waiter, timeout: Duration?) {
        let deadline = MonotonicClock.nanoseconds() &+ (timeout ?? options.requestTimeout).nanoseconds
        pending[envelope.sequence] = .request(kind: envelope.kind, peer: envelope.target, deadline: deadline, waiter)
        armExpiry(deadline)
        do throws(LinkError) {
            try transmit(envelope)
        } catch {
            pending.removeValue(forKey: envelope.sequence)
            waiter.resume(.failure(error))
        }
    }

    /// The next envelope from this end to `peer` (a parent end must name the child).
    private func envelope(
        _ message: Message, to peer: ControllerID?, trace: UInt64, flags: EnvelopeFlags, correlation: UInt64 = 0
    ) throws(LinkError) -> Envelope {
        guard !closed else { throw .closed }
        let target: ControllerID
        switch (role, peer) {
        case (.child(let parent), nil): target = parent
        case (_, let peer?): target = peer
        case (.parent, nil): throw .noPeer
        }
        sequence += 1
        return Envelope(
            sequence: sequence, trace: trace, correlation: correlation, source: id, target: target, flags: flags,
            message: message)
    }

    /// Acks a message whose handler returned `.deferred`.
    public func acknowledge(_ envelope: Envelope) {
        guard envelope.flags.contains(.ackRequested) else { return }
        _ = try? send(.ack, to: envelope.source, trace: envelope.trace, correlation: envelope.sequence)
    }

    /// Answers a `request`.
    public func reply(to envelope: Envelope, _ reply: Reply) {
        _ = try? send(.reply(reply), to: envelope.source, trace: envelope.trace, correlation: envelope.sequence)
    }

    private func transmit(_ e: Envelope) throws(LinkError) {
        if let i = peers.index(forKey: e.target) { peers.values[i].lastSent = loop.passTime }
        if let local = localPeer(e.target) {
            record(e, outcome: .sent, bytes: 0, via: "local")
            let from = self
            // Read inside a wait too, as a socket's message is.
            local.loop.execute(duringWaits: true) { local.onLoopThread { $0.receiveLocal(e, from: from) } }
            return
        }
        if localParent != nil || (role == .parent && socket == nil) {
            record(e, outcome: .dropped, bytes: 0, via: "local", reason: "no such peer")
            throw .dropped("no such peer \(e.target)")
        }
        guard let socket else { throw .closed }
        // A ROUTER sends to the peer its first frame names.
        let routingID = role == .parent ? e.target.rawValue : nil
        let bytes = encodeOutgoing(e) + (routingID?.utf8.count ?? 0)
        do {
            if let routingID { try socket.send(frame: routingID, more: true) }
            try sendOutgoing(on: socket)
            record(e, outcome: .sent, bytes: bytes)
        } catch {
            let reason =
                error.isHostUnreachable ? "no such peer" : error.isWouldBlock ? "queue full or not connected" : "\(error)"
            record(e, outcome: .dropped, bytes: bytes, reason: reason)
            throw .dropped("\(reason) (\(e.target))")
        }
    }

    /// Encodes `e` into the outgoing header and body; returns the bytes of its
    /// frames after the routing id.
    private func encodeOutgoing(_ e: Envelope) -> Int {
        outgoingHeader.withUnsafeMutableBytes { WireCodec.encodeHeader(e, into: $0) }
        e.message.encodeBody(into: &outgoingBody)
        return WireCodec.protocolFrame.count + WireCodec.headerSize + outgoingBody.count
    }

    /// Sends the frames after the routing id: the empty delimiter, the protocol,
    /// and the header and body `encodeOutgoing` wrote.
    private func sendOutgoing(on socket: ZMQSocket) throws(ZMQError) {
        try socket.send(frame: UnsafeRawBufferPointer(start: nil, count: 0), more: true)
        try socket.send(frame: WireCodec.protocolFrame, more: true)
        try socket.send(frame: outgoingHeader, more: true)
        try socket.send(frame: outgoingBody, more: false)
    }

    private func localPeer(_ target: ControllerID) -> Link? {
        if let localParent, case .child(let parent) = role, parent == target { return localParent }
        return localChildren[target]
    }

    // MARK: Receiving

    private func drainSocket() {
        var handled = 0
        while handled < options.receiveBatch {
            // Asked again for every message: a handler may have closed this link.
            guard let socket else { return }
            let received: Received?
            do {
                received = try socket.receive { decode($0) }
            } catch {
                logEvent("receive failed: \(error)")
                return
            }
            guard let received else { return }
            handled += 1
            resumedWaiter = false
            // Dispatched once the frames are let go: a handler may run a nested loop
            // that receives again.
            switch received {
            case .message(let envelope, let bytes): accept(envelope, bytes: bytes, via: via)
            case .rejected(let rejection, let routingID, let bytes): reject(rejection, routingID: routingID, bytes: bytes, via: via)
            }
            // A waiting request was answered, or the handler queued the message's
            // handling on the loop (a host hands it to the main actor): let the loop
            // run that now rather than after one more receive, which in libzmq costs
            // system calls even when nothing is waiting. The socket is left
            // unsettled, so the loop asks it again (ZMQ_EVENTS) before it sleeps.
            if resumedWaiter || (!options.readsAhead && loop.hasQueuedWork) { return }
        }
    }

    /// A message received: decoded, or why not.
    private enum Received {
        case message(Envelope, bytes: Int)
        /// `routingID`: on a parent end, the connection's, which names the sender.
        case rejected(Rejection, routingID: [UInt8]?, bytes: Int)
    }

    /// Decodes a message where the socket received it.
    private func decode(_ frames: ReceivedFrames) -> Received {
        let first = role == .parent ? 1 : 0
        let bytes = frames.byteCount
        // On a parent end, the routing id ROUTER put first names the sender.
        let routingID = role == .parent ? frames[0] : nil
        do throws(Rejection) {
            let expected = WireCodec.frameCount + first
            guard frames.count == expected else {
                throw Rejection(.malformedFrames, "expected \(expected) frames, got \(frames.count)")
            }
            let envelope = try WireCodec.decode(
                delimiter: frames[first], protocolFrame: frames[first + 1], header: frames[first + 2],
                body: frames[first + 3], ids: &knownIDs)
            if let routingID, !envelope.source.rawValue.utf8.elementsEqual(routingID) {
                throw Rejection(
                    .malformedHeader,
                    "source \(envelope.source) is not the connection's routing id \(ControllerID(bytes: routingID)?.rawValue ?? "(binary)")",
                    header: WireHeader(envelope))
            }
            if routingID != nil, let why = refusal(of: envelope.source) {
                throw Rejection(.refusedID, why, header: WireHeader(envelope))
            }
            // The routing id is the sender's claim; the key its connection was admitted
            // with is proof. A child with a key of its own may still claim another's id.
            if zapDomain != nil {
                // Not the routing-id frame: ROUTER makes that one itself, and one it made
                // ahead (while ZMQ_EVENTS was asked) carries no properties in libzmq 4.3.
                let user = frames.property("User-Id", ofFrame: first + 2)
                guard user == envelope.source.rawValue else {
                    throw Rejection(
                        .refusedID, "source \(envelope.source) is not the id this connection's key was issued for (\(user ?? "none"))",
                        header: WireHeader(envelope))
                }
            }
            return .message(envelope, bytes: bytes)
        } catch {
            return .rejected(error, routingID: routingID.map { Array($0) }, bytes: bytes)
        }
    }

    /// Why `peer` may not speak to this parent end, if it may not (`LinkOptions.refusal`).
    private func refusal(of peer: ControllerID) -> String? {
        guard let refusal = options.refusal else { return nil }
        return refusal(peer)
    }

    private func receiveLocal(_ e: Envelope, from link: Link) {
        guard !closed else { return }
        if role == .parent, let why = refusal(of: e.source) {
            record(e, outcome: .rejected, bytes: 0, via: "local", reason: "refused-id: \(why)")
            if e.kind != .error {
                _ = try? send(.error(WireError(.refusedID, why)), to: e.source, trace: e.trace, correlation: e.sequence)
            }
            return
        }
        if role == .parent && localChildren[e.source] == nil { localChildren[e.source] = link }
        accept(e, bytes: 0, via: "local")
    }

    private func attachLocal(_ child: Link) {
        localChildren[child.id] = child
    }

    /// A decoded, well-formed message.
    private func accept(_ e: Envelope, bytes: Int, via: String) {
        let wasConnected = heard(from: e.source)
        switch e.message {
        case .hello(let hello):
            record(e, outcome: .received, bytes: bytes, via: via)
            _ = try? send(.ack, to: e.source, trace: e.trace, correlation: e.sequence)
            // A restarted peer can say hello before its old process's heartbeats are
            // missed: without this, its parent would never know to bring it up again.
            if wasConnected, let old = peers[e.source]?.pid, old != hello.pid {
                let why = "restarted (pid \(old) → \(hello.pid))"
                logEvent("peer \(e.source) \(why)", peer: e.source)
                failRequests(to: e.source, why)
                onPeer(.lost(e.source))
                onPeer(.connected(e.source))
            }
            peers[e.source]?.pid = hello.pid
        case .heartbeat:
            record(e, outcome: .received, bytes: bytes, via: via)
        case .ack, .reply, .error:
            answer(e, bytes: bytes, via: via)
        default:
            guard e.target == id else {
                let text = "target \(e.target) is not served here (this end is \(id))"
                record(e, outcome: .rejected, bytes: bytes, via: via, reason: "unknown-target: \(text)")
                _ = try? send(.error(WireError(.unknownTarget, text)), to: e.source, trace: e.trace, correlation: e.sequence)
                return
            }
            record(e, outcome: .delivered, bytes: bytes, via: via)
            if onMessage(e, self) == .handled && e.kind != .request { acknowledge(e) }
        }
    }

    /// An ack, reply or error: the answer to something this end sent.
    private func answer(_ e: Envelope, bytes: Int, via: String) {
        let reason: String? = if case .error(let err) = e.message { "\(err)" } else { nil }
        guard let waiting = pending.removeValue(forKey: e.correlation) else {
            record(e, outcome: e.kind == .error ? .received : .dropped, bytes: bytes, via: via,
                   reason: reason ?? "answers #\(e.correlation), which nothing is waiting for")
            return
        }
        record(e, outcome: .received, bytes: bytes, via: via, reason: reason)
        guard case .request(_, _, _, let waiter) = waiting else {
            if case .error(let err) = e.message { helloAnswer = .refused(err) } else { helloAnswer = .accepted }
            return
        }
        resumedWaiter = true
        if case .error(let err) = e.message {
            waiter.resume(.failure(.rejected(err)))
        } else {
            waiter.resume(.success(e))
        }
    }

    private func reject(_ r: Rejection, routingID: [UInt8]?, bytes: Int, via: String) {
        let sender = routingID.flatMap { ControllerID(bytes: $0) }
        let header = r.header
        let kindName = header.map { MessageKind(rawValue: $0.kind)?.name ?? "kind-\($0.kind)" } ?? "?"
        let source = header?.source.rawValue ?? sender?.rawValue ?? "-"
        record(
            RoutingRecord(
                host: log.host, at: id.rawValue, source: source, target: header?.target.rawValue ?? "-", kind: kindName,
                sequence: header?.sequence ?? 0, trace: header?.trace ?? 0, bytes: bytes, outcome: .rejected, via: via,
                reason: "\(r.error)"))
        // Never answer an error with an error: two confused peers would ping-pong forever.
        // On a parent end the routing id, not the header's claim, says who sent it.
        if header?.kind == MessageKind.error.rawValue { return }
        sequence += 1
        let reply = Envelope(
            sequence: sequence, trace: header?.trace ?? 0, correlation: header?.sequence ?? 0, source: id,
            target: sender ?? header?.source ?? Self.unknownPeer, message: .error(r.error))
        guard let socket else { return }
        let bytes = encodeOutgoing(reply) + (routingID?.count ?? 0)
        do {
            if let routingID { try socket.send(frame: routingID, more: true) }
            try sendOutgoing(on: socket)
            record(reply, outcome: .sent, bytes: bytes)
        } catch {
            record(reply, outcome: .dropped, bytes: 0, reason: "\(error)")
        }
    }

    /// The target of an error reply to a sender that could not be identified.
    public static let unknownPeer: ControllerID = .unknown

    // MARK: Liveness

    private func sendHello(to parent: ControllerID) {
        guard let seq = try? send(
            .hello(Hello(pid: options.incarnation, heartbeatMilliseconds: UInt32(options.heartbeatInterval.milliseconds))),
            to: parent)
        else { return }
        pending[seq] = .hello
    }

    /// Notes that `peer` was heard from; returns whether it was connected before.
    @discardableResult
    private func heard(from peer: ControllerID) -> Bool {
        let now = loop.passTime
        // One hash lookup on the path every message takes.
        if let i = peers.index(forKey: peer) {
            peers.values[i].lastHeard = now
            if peers.values[i].connected { return true }
            peers.values[i].connected = true
        } else {
            peers[peer] = PeerState(lastHeard: now, connected: true)
        }
        logEvent("peer \(peer) connected", peer: peer)
        onPeer(.connected(peer))
        return false
    }

    private func scheduleHeartbeat() {
        heartbeatTimer = loop.schedule(afterNanoseconds: options.heartbeatInterval.nanoseconds, duringWaits: true) {
            [weak self] in self?.onLoopThread { $0.heartbeat() }
        }
    }

    private func heartbeat() {
        guard !closed else { return }
        readHandshakes()
        let now = MonotonicClock.nanoseconds()
        let interval = options.heartbeatInterval.nanoseconds
        if case .child(let parent) = role, peers[parent]?.connected != true {
            // Not heard from the parent yet (or lost it): say hello again.
            pending = pending.filter { if case .hello = $0.value { false } else { true } }
            sendHello(to: parent)
        }
        for (peer, state) in peers {
            if state.connected && now - state.lastHeard > options.heartbeatTimeout.nanoseconds {
                lose(peer, kind: "heartbeat",
                     "silent for \((now - state.lastHeard) / 1_000_000) ms (limit \(options.heartbeatTimeout.milliseconds) ms)")
            } else if state.connected && now - state.lastSent >= interval {
                _ = try? send(.heartbeat, to: peer)
            }
        }
        scheduleHeartbeat()
    }

    /// `peer` will not answer (`why`): logged `lost` as `kind`, what waits for it failed,
    /// and the owner told.
    private func lose(_ peer: ControllerID, kind: String, _ why: String, left: Bool = false) {
        peers[peer]?.connected = false
        if left {
            logEvent("peer \(peer) left (\(why))", peer: peer)
        } else {
            record(
                RoutingRecord(
                    host: log.host, at: id.rawValue, source: peer.rawValue, target: id.rawValue, kind: kind, outcome: .lost,
                    via: via, reason: why))
        }
        failRequests(to: peer, why)
        onPeer(.lost(peer))
    }

    /// A child's connection closed, libzmq says, but not whose: each connected peer is
    /// asked whether it is still routable (a heartbeat sent under ROUTER_MANDATORY fails
    /// with EHOSTUNREACH once its connection is gone). One that is not is lost now —
    /// its waiting requests fail, its parent is told — not after the heartbeat timeout.
    /// The socket learns of the closed pipe a moment after the monitor does, so peers
    /// still routable are asked again, a few times, within 30 ms.
    private func connectionsClosed() {
        var closed = 0
        monitor?.drain { _, _ in closed += 1 }
        if closed > 0 { probeConnectedPeers(again: [1, 5, 25]) }
    }

    private func probeConnectedPeers(again delays: ArraySlice<UInt64>) {
        guard !closed else { return }
        var reachable = false
        for (peer, state) in peers.sorted(by: { $0.key < $1.key }) where state.connected && localChildren[peer] == nil {
            do throws(LinkError) {
                _ = try send(.heartbeat, to: peer)
                reachable = true
            } catch {
                guard case .dropped(let why) = error, why.hasPrefix("no such peer") else { continue }
                lose(peer, kind: "link", "its connection closed", left: options.departuresAreNormal)
            }
        }
        guard reachable, let next = delays.first else { return }
        loop.schedule(afterNanoseconds: next * 1_000_000, duringWaits: true) { [weak self] in
            self?.onLoopThread { $0.probeConnectedPeers(again: delays.dropFirst()) }
        }
    }

    /// Sets the expiry timer for `deadline` unless it already fires no later.
    private func armExpiry(_ deadline: UInt64) {
        if let armed = expiryTimer {
            if armed.deadline <= deadline { return }
            loop.cancelTimer(armed.id)
        }
        let now = MonotonicClock.nanoseconds()
        let id = loop.schedule(afterNanoseconds: deadline > now ? deadline - now : 0, duringWaits: true) { [weak self] in
            self?.onLoopThread { $0.expireDue() }
        }
        expiryTimer = (id, deadline)
    }

    /// Fails every request whose deadline has passed, oldest first, and sets the
    /// timer for the earliest one still waiting.
    private func expireDue() {
        expiryTimer = nil
        guard !closed else { return }
        let now = MonotonicClock.nanoseconds()
        var due: [UInt64] = []
        var next: UInt64?
        for (seq, waiting) in pending {
            guard case .request(_, _, let deadline, _) = waiting else { continue }
            if deadline <= now { due.append(seq) } else { next = min(next ?? deadline, deadline) }
        }
        for seq in due.sorted() { expire(seq) }
        if let next { armExpiry(next) }
    }

    /// Fails, oldest first, every request waiting for `peer`: it will not answer them.
    /// (A hello after a restart, or silence past the heartbeat timeout, says so.)
    private func failRequests(to peer: ControllerID, _ why: String) {
        let waiting = pending.compactMap { seq, p -> UInt64? in
            if case .request(_, let target, _, _) = p, target == peer { seq } else { nil }
        }
        for seq in waiting.sorted() {
            guard case .request(let kind, _, _, let waiter)? = pending.removeValue(forKey: seq) else { continue }
            record(
                RoutingRecord(
                    host: log.host, at: id.rawValue, source: id.rawValue, target: peer.rawValue, kind: kind.name, sequence: seq,
                    outcome: .lost, via: via, reason: "\(peer) \(why): #\(seq) will not be answered"))
            waiter.resume(.failure(.peerGone(peer, why)))
        }
    }

    private func expire(_ seq: UInt64) {
        guard case .request(let kind, _, _, let waiter)? = pending.removeValue(forKey: seq) else { return }
        record(
            RoutingRecord(
                host: log.host, at: id.rawValue, source: id.rawValue, target: "-", kind: kind.name, sequence: seq,
                outcome: .timeout, via: via, reason: "no answer to #\(seq) in time"))
        waiter.resume(.failure(.timeout(kind: kind, sequence: seq)))
    }

    /// True when `peer` was heard from within the heartbeat timeout.
    public func isConnected(_ peer: ControllerID) -> Bool { peers[peer]?.connected == true }

    /// Child end with `LinkOptions.watchesHandshake`: the connection's handshakes so far.
    public func handshake() -> HandshakeReport? {
        guard monitor != nil, role != .parent else { return nil }
        readHandshakes()
        return handshakes
    }

    private func readHandshakes() {
        guard role != .parent else { return }
        monitor?.drain { handshakes.record($0, $1) }
    }

    /// Peers heard from within the heartbeat timeout.
    public var connectedPeers: [ControllerID] {
        peers.filter { $0.value.connected }.map(\.key).sorted()
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
            if case .request(_, _, _, let waiter) = waiting { waiter.resume(.failure(.closed)) }
        }
        pending.removeAll()
        if let sourceID { loop.removeSource(sourceID) }
        if let monitorSourceID { loop.removeSource(monitorSourceID) }
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
    private func record(_ e: Envelope, outcome: RoutingRecord.Outcome, bytes: Int, via: String? = nil, reason: String? = nil) {
        guard log.isEnabled, e.kind != .heartbeat else { return }
        log.record(
            MessageEvent(
                sequence: e.sequence, trace: e.trace, bytes: bytes, source: e.source, target: e.target, kind: e.kind,
                outcome: outcome, origin: via == nil || via == self.via ? transportOrigin : localOrigin, reason: reason))
    }

    private func record(_ r: RoutingRecord) { log.record(r) }

    private func logEvent(_ text: String, peer: ControllerID? = nil) {
        log.record(
            RoutingRecord(
                host: log.host, at: id.rawValue, source: peer?.rawValue ?? id.rawValue, target: id.rawValue, kind: "link",
                outcome: .event, via: localParent != nil ? "local" : via, reason: text))
    }
}

