import CZeroMQ
import TrellisLog
import TrellisWire

// Sending: envelopes numbered and encoded in place, to the socket or to a link in the
// same process, and requests that wait for their answer.
extension Link {
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
    func requestEnvelope(_ message: Message, to peer: ControllerID?, trace: UInt64) throws(LinkError) -> Envelope {
        try envelope(message, to: peer, trace: trace, flags: message.kind == .request ? [] : [.ackRequested])
    }

    /// Sends `envelope` with `waiter` registered for its answer first: on another loop
    /// the answer can be read before a waiting task resumes. A failed send answers the
    /// waiter at once.
    func transmit(_ envelope: Envelope, awaitedBy waiter: Waiter, timeout: Duration?) {
        let deadline = MonotonicClock.nanoseconds() &+ (timeout ?? options.requestTimeout).nanoseconds
        pending[envelope.sequence] = .request(kind: envelope.kind, peer: envelope.target, deadline: deadline, waiter)
        armExpiry(deadline)
        do throws(LinkError) {
            try transmit(envelope)
        } catch {
            pending.removeValue(forKey: envelope.sequence)
            waiter.resume(.failure(error), in: self)
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

    func transmit(_ e: Envelope) throws(LinkError) {
        if let i = peers.index(forKey: e.target) { peers.values[i].lastSent = loop.passTime }
        if let local = localPeer(e.target) {
            record(e, outcome: .sent, bytes: 0, via: "local")
            let from = self
            // Read inside a wait too, as a socket's message is.
            local.loop.execute(duringWaits: true) { local.onLoopThread { $0.receiveLocal(e, from: from) } }
            return
        }
        if lanes.held != nil, case .child(let parent) = role, e.target == parent {
            // The lane is opening: this goes where the parent's answer says, in order.
            lanes.held!.append(e)
            return
        }
        if !lanes.open.isEmpty, let lane = lanes.open[e.target] {
            try transmit(e, on: lane)
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
    func encodeOutgoing(_ e: Envelope) -> Int {
        outgoingHeader.withUnsafeMutableBytes { WireCodec.encodeHeader(e, into: $0) }
        e.message.encodeBody(into: &outgoingBody)
        return WireCodec.protocolFrame.count + WireCodec.headerSize + outgoingBody.count
    }

    /// Sends the frames after the routing id: the empty delimiter, the protocol,
    /// and the header and body `encodeOutgoing` wrote.
    func sendOutgoing(on socket: ZMQSocket) throws(ZMQError) {
        try socket.send(frame: UnsafeRawBufferPointer(start: nil, count: 0), more: true)
        try socket.send(frame: WireCodec.protocolFrame, more: true)
        try socket.send(frame: outgoingHeader, more: true)
        try socket.send(frame: outgoingBody, more: false)
    }

    private func localPeer(_ target: ControllerID) -> Link? {
        if let localParent, case .child(let parent) = role, parent == target { return localParent }
        return localChildren[target]
    }
}
