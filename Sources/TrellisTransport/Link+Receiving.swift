import CZeroMQ
import TrellisLog
import TrellisWire

// Receiving: what the socket (or a same-process link) brings is decoded, checked
// against who may speak, and accepted, taken as an answer, or rejected — each a log line.
extension Link {
    /// Reads what `peer` has already sent, without waiting for more: for a handler about
    /// to act on one message that can act on those right behind it with it (a host's
    /// touches read together, docs/TRANSPORT.md). The loop's own reads stop once a
    /// handler has queued work, which leaves those unread. Only the peer's own channel is
    /// read: its lane, if one is open — once it is, everything the peer sends comes that
    /// way (docs/TRANSPORT.md, "Lanes") — else the socket. The libzmq socket and other
    /// peers' lanes are left for the loop, which reads them anyway: here, cold after an
    /// idle pause, each is code and data a woken host touches before it handles a click.
    public func readArrived(from peer: ControllerID) {
        if let lane = lanes.open[peer] {
            drainLane(lane, readingAhead: true)
        } else {
            drainSocket(readingAhead: true)
        }
    }

    func drainSocket(readingAhead: Bool = false) {
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
            if resumedWaiter || (!(readingAhead || options.readsAhead) && loop.hasQueuedWork) { return }
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

    /// On a parent end, for a message whose sender no connection's id check has vouched
    /// for (the same process's path, a lane): whether its source is refused here — if so,
    /// logged and answered with `refused-id`.
    func refused(_ e: Envelope, bytes: Int, via: String) -> Bool {
        guard role == .parent, let why = refusal(of: e.source) else { return false }
        record(e, outcome: .rejected, bytes: bytes, via: via, reason: "refused-id: \(why)")
        if e.kind != .error {
            _ = try? send(.error(WireError(.refusedID, why)), to: e.source, trace: e.trace, correlation: e.sequence)
        }
        return true
    }

    func receiveLocal(_ e: Envelope, from link: Link) {
        guard !closed else { return }
        if refused(e, bytes: 0, via: "local") { return }
        if role == .parent && localChildren[e.source] == nil { localChildren[e.source] = link }
        accept(e, bytes: 0, via: "local")
    }

    func attachLocal(_ child: Link) {
        localChildren[child.id] = child
    }

    /// A decoded, well-formed message; `onLane` if it came over a lane.
    func accept(_ e: Envelope, bytes: Int, via: String, onLane: Bool = false) {
        let wasConnected = heard(from: e.source)
        switch e.message {
        case .hello(let hello):
            record(e, outcome: .received, bytes: bytes, via: via)
            // A child with a lane says everything over it: a hello over libzmq is a new
            // process's, or one that gave its lane up.
            if !onLane && !lanes.open.isEmpty { dropLane(of: e.source) }
            _ = try? send(.ack, to: e.source, trace: e.trace, correlation: e.sequence)
            // A restarted peer can say hello before its old process's heartbeats are
            // missed: without this, its parent would never know to bring it up again.
            if wasConnected, let old = peers[e.source]?.pid, old != hello.pid {
                let why = "restarted (pid \(old) → \(hello.pid))"
                logEvent("peer \(e.source) \(why)", peer: e.source)
                failRequests(to: e.source, why)
                forgetVouched(by: e.source)
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
            // A key vouched for is this end's own business: what it admits is its own.
            if role == .parent, case .request(let r) = e.message {
                switch r.name {
                case Self.vouchRequest:
                    reply(to: e, vouch(r.payload, by: e.source))
                    return
                case Self.laneTokenRequest:
                    reply(to: e, issueLaneToken(to: e.source))
                    return
                case Self.laneOpenRequest:
                    openLane(for: e)
                    return
                default:
                    break
                }
            }
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
            if case .error(let err) = e.message {
                helloAnswer = .refused(err)
            } else {
                helloAnswer = .accepted
                // Only from the parent it expects: another end answering is a mistake
                // a lane would not mend.
                if case .child(let parent) = role, e.source == parent { askForLane() }
            }
            return
        }
        if case .link = waiter {} else { resumedWaiter = true }
        if case .error(let err) = e.message {
            waiter.resume(.failure(.rejected(err)), in: self)
        } else {
            waiter.resume(.success(e), in: self)
        }
    }

    private func reject(_ r: Rejection, routingID: [UInt8]?, bytes: Int, via: String) {
        let sender = routingID.flatMap { ControllerID(bytes: $0) }
        let header = r.header
        recordRejection(r, source: sender?.rawValue ?? "-", target: "-", kind: "?", bytes: bytes, via: via)
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

    /// Logs `r` as `rejected`, named by its header where it got that far, else by
    /// `source`, `target` and `kind`; `then` is added to the reason (what became of it).
    func recordRejection(
        _ r: Rejection, source: String, target: String, kind: String, bytes: Int, via: String, then: String? = nil
    ) {
        let header = r.header
        record(
            RoutingRecord(
                host: log.host, at: id.rawValue, source: header?.source.rawValue ?? source,
                target: header?.target.rawValue ?? target,
                kind: header.map { MessageKind(rawValue: $0.kind)?.name ?? "kind-\($0.kind)" } ?? kind,
                sequence: header?.sequence ?? 0, trace: header?.trace ?? 0, bytes: bytes, outcome: .rejected, via: via,
                reason: then.map { "\(r.error); \($0)" } ?? "\(r.error)"))
    }

    /// The target of an error reply to a sender that could not be identified.
    public static let unknownPeer: ControllerID = .unknown
}
