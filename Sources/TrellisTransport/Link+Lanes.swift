import Foundation
import TrellisLog
import TrellisWire

/// A link's lanes (docs/TRANSPORT.md, "Lanes"): a parent end's listening socket, the
/// tokens it gave, the connections whose token it has not matched yet, and the lanes
/// open, by peer; a child end's one lane and what it holds while the lane opens.
struct Lanes {
    var listener: (fd: Int32, path: String, sourceID: Int)?
    var tokens: [ControllerID: [UInt8]] = [:]
    var unclaimed: [Lane] = []
    /// The lanes messages go over, by peer: a parent end's children's, a child end's
    /// parent's.
    var open: [ControllerID: Lane] = [:]
    /// Child end, from its `openRequest` until the answer: the lane, and what it sent
    /// since, in order, for the lane if the parent took it, else for libzmq.
    var opening: Lane?
    var held: [Envelope]?
    /// Child end: a token request or an open is on its way.
    var asking = false
    /// While above zero, what is sent on a lane waits in its queue (`Link.cork`).
    var corked = 0
}

// Lanes: once a child end's hello over `ipc://` is answered, the two ends move their
// messages to a Unix stream socket of their own, bound to the child's id by a token
// the parent gave over the CURVE link, and switched over with a marker each way so
// that neither direction reorders.
extension Link {
    /// Child → parent: a token for a lane; the reply's payload is the token.
    public static let laneTokenRequest = "trellis.lane.token"
    /// Child → parent: the last message the child sends over libzmq; the parent's
    /// answer is the last it sends there. Both then write only to the lane.
    public static let laneOpenRequest = "trellis.lane.open"

    /// Where a parent end bound at `endpoint` listens for lanes, if it can.
    static func lanePath(_ endpoint: String) -> String? {
        guard endpoint.hasPrefix("ipc://") else { return nil }
        return String(endpoint.dropFirst("ipc://".count)) + ".lane"
    }

    /// Whether this end moves to lanes: an `ipc://` link between two processes.
    var usesLanes: Bool { options.lanes && socket != nil && Self.lanePath(endpoint) != nil }

    // MARK: Parent end

    /// Listens for lanes beside the link's own endpoint. Without a listener (a path too
    /// long for a Unix socket, say) the link goes on over libzmq alone.
    func listenForLanes() {
        guard role == .parent, usesLanes, let path = Self.lanePath(endpoint) else { return }
        var fd = UnixStream.listen(at: path)
        if fd < 0 && errno == EADDRINUSE {
            // A file left by a process that bound this endpoint before: libzmq has just
            // taken the endpoint itself from it.
            unlink(path)
            fd = UnixStream.listen(at: path)
        }
        guard fd >= 0 else {
            logEvent("no lanes: cannot listen at \(path): \(String(cString: strerror(errno)))")
            return
        }
        let sourceID = loop.addSource(
            fd: fd, onReadable: { [weak self] in self?.onLoopThread { $0.acceptLanes() } })
        lanes.listener = (fd, path, sourceID)
    }

    /// Takes the connections waiting at the listener and reads their tokens; one whose
    /// token was given to no one is closed.
    func acceptLanes() {
        guard let listener = lanes.listener else { return }
        while true {
            let fd = UnixStream.accept(listener.fd)
            if fd < 0 { break }
            let lane = Lane(fd: fd, accepted: MonotonicClock.nanoseconds())
            // Read until its token is whole: it may come after the connection.
            lane.sourceID = loop.addSource(fd: fd, onReadable: { [weak self] in self?.onLoopThread { $0.acceptLanes() } })
            lanes.unclaimed.append(lane)
        }
        // Not `removeAll(where:)`: its closure would read `lanes` while it is being changed.
        let given = Set(lanes.tokens.values)
        var kept: [Lane] = []
        for lane in lanes.unclaimed {
            if !lane.readToken() {
                unwatch(lane)
            } else if lane.token.count == Lane.tokenSize && !given.contains(lane.token) {
                refuseLane(lane, "unknown token")
            } else {
                // Whole, it is not read again until its child opens the lane.
                if lane.token.count == Lane.tokenSize, let sourceID = lane.sourceID {
                    loop.removeSource(sourceID)
                    lane.sourceID = nil
                }
                kept.append(lane)
            }
        }
        lanes.unclaimed = kept
    }

    /// Unclaimed connections older than the request timeout are closed: by then the child
    /// that made one has given up waiting for its open's answer. (Not the heartbeat
    /// timeout: a parent whose loop was held that long fires its timers before it reads
    /// the open that came meanwhile.)
    func closeStaleLanes() {
        guard !lanes.unclaimed.isEmpty else { return }
        let now = MonotonicClock.nanoseconds()
        var kept: [Lane] = []
        for lane in lanes.unclaimed {
            if now - lane.accepted > options.requestTimeout.nanoseconds {
                refuseLane(lane, "no lane was opened with its token in time")
            } else {
                kept.append(lane)
            }
        }
        lanes.unclaimed = kept
    }

    private func refuseLane(_ lane: Lane, _ why: String) {
        unwatch(lane)
        record(RoutingRecord(
            host: log.host, at: id.rawValue, source: "-", target: id.rawValue, kind: "lane", outcome: .rejected, via: via,
            reason: "lane: \(why)"))
    }

    /// Answers a child's `laneTokenRequest`: a new token, which replaces one it was
    /// given before.
    func issueLaneToken(to child: ControllerID) -> Reply {
        guard lanes.listener != nil else {
            return Reply(status: .declined, payload: Array("this end has no lanes".utf8))
        }
        var generator = SystemRandomNumberGenerator()
        let token = (0..<Lane.tokenSize).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        lanes.tokens[child] = token
        return Reply(status: .ok, payload: token)
    }

    /// A child's `laneOpenRequest`: everything it sent before it has been read from
    /// libzmq, so its lane is read from now on; the answer goes over libzmq, the last
    /// message there, and what follows for the child over the lane.
    func openLane(for request: Envelope) {
        let child = request.source
        acceptLanes()
        let token = lanes.tokens.removeValue(forKey: child)
        guard let token, let i = lanes.unclaimed.firstIndex(where: { $0.token == token }) else {
            let why = token == nil ? "no token was given to \(child)" : "no connection came with \(child)'s token"
            logEvent("declined a lane for \(child): \(why)", peer: child)
            reply(to: request, Reply(status: .declined, payload: Array(why.utf8)))
            return
        }
        let lane = lanes.unclaimed.remove(at: i)
        if let sourceID = lane.sourceID { loop.removeSource(sourceID) }
        lane.peer = child
        dropLane(of: child)
        reply(to: request, Reply(status: .ok))
        lanes.open[child] = lane
        watch(lane, of: child)
        logEvent("lane open with \(child)", peer: child)
    }

    /// Forgets `peer`'s lane without a loss: its process said hello again (a restart, or
    /// a child that gave up its lane), so the lane is an old one's.
    func dropLane(of peer: ControllerID) {
        guard let old = lanes.open.removeValue(forKey: peer) else { return }
        unwatch(old)
        logEvent("lane with \(peer) closed: \(peer) said hello again", peer: peer)
    }

    // MARK: Child end

    /// After the parent answered the hello: asks for a token, connects, and opens.
    func askForLane() {
        guard case .child(let parent) = role, usesLanes, !lanes.asking, lanes.open[parent] == nil else { return }
        lanes.asking = true
        laneRequest(Self.laneTokenRequest, to: parent) { $0.connectLane(to: parent, $1) }
    }

    /// A request of the lane's own, answered in the frame that reads the answer: what a
    /// lane's answer changes must hold for the message read right behind it (a child whose
    /// loop was busy reads the open's answer and the first messages of the lane together).
    private func laneRequest(
        _ name: String, to parent: ControllerID, then: @escaping @Sendable (isolated Link, Result<Envelope, LinkError>) -> Void
    ) {
        do throws(LinkError) {
            transmit(try requestEnvelope(.request(Request(name: name)), to: parent, trace: 0), awaitedBy: .link(then), timeout: nil)
        } catch {
            then(self, .failure(error))
        }
    }

    private func connectLane(to parent: ControllerID, _ result: Result<Envelope, LinkError>) {
        guard !closed, case .success(let answer) = result, case .reply(let reply) = answer.message, reply.status == .ok,
              reply.payload.count == Lane.tokenSize, let path = Self.lanePath(endpoint)
        else {
            lanes.asking = false
            if case .success = result { logEvent("no lane: the parent declined to give a token") }
            return
        }
        let fd = UnixStream.connect(to: path)
        guard fd >= 0 else {
            lanes.asking = false
            logEvent("no lane: cannot connect to \(path): \(String(cString: strerror(errno)))")
            return
        }
        let lane = Lane(fd: fd, peer: parent)
        guard lane.writeToken(reply.payload) else {
            lane.close()
            lanes.asking = false
            logEvent("no lane: the token could not be written")
            return
        }
        laneRequest(Self.laneOpenRequest, to: parent) { $0.laneOpened($1) }
        lanes.opening = lane
        lanes.held = []
    }

    /// The parent's answer to the open: the lane is read and written from now on, the
    /// messages held meanwhile first; or, declined, they go over libzmq as if nothing
    /// had been tried.
    private func laneOpened(_ result: Result<Envelope, LinkError>) {
        lanes.asking = false
        let held = lanes.held ?? []
        lanes.held = nil
        guard let lane = lanes.opening else { return }
        lanes.opening = nil
        guard !closed, case .success = result, let parent = lane.peer else {
            lane.close()
            if !closed { logEvent("no lane: \(result.failureDescription ?? "closed")") }
            for e in held { try? transmit(e) }
            return
        }
        lanes.open[parent] = lane
        watch(lane, of: parent)
        logEvent("lane open with \(parent)", peer: parent)
        for e in held { try? transmit(e) }
    }

    // MARK: Both ends

    /// The loop reads `lane` from now on, and writes it when its queue waits.
    /// Its frames find the lane by its peer: a lane is the link's, not theirs to hold.
    private func watch(_ lane: Lane, of peer: ControllerID) {
        lane.sourceID = loop.addSource(
            fd: lane.fd, isReady: { lane.reader.hasWholeMessage },
            onReadable: { [weak self] in self?.onLoopThread { link in link.lanes.open[peer].map { link.drainLane($0) } } },
            wantsWritable: { lane.isWaitingToWrite && !lane.held },
            onWritable: { [weak self] in self?.onLoopThread { link in link.lanes.open[peer].map { link.flushLane($0) } } })
    }

    private func unwatch(_ lane: Lane) {
        if let sourceID = lane.sourceID { loop.removeSource(sourceID) }
        lane.sourceID = nil
        lane.close()
    }

    /// Closes every lane and the listener: the link is closing.
    func closeLanes() {
        for lane in lanes.open.values { unwatch(lane) }
        for lane in lanes.unclaimed { unwatch(lane) }
        lanes.opening?.close()
        lanes.opening = nil
        lanes.open.removeAll()
        lanes.unclaimed.removeAll()
        lanes.tokens.removeAll()
        if let listener = lanes.listener {
            loop.removeSource(listener.sourceID)
            UnixStream.close(listener.fd)
            unlink(listener.path)
        }
        lanes.listener = nil
    }

    /// Holds what this end sends on its lanes until `uncork`: messages sent together then
    /// go in one write, so the receiver wakes once and reads them together — a click's
    /// press and release, which a host routes as one gesture when they arrive as one
    /// (docs/LIFECYCLE.md, "Touches read together"). Sent one write each, the first woke
    /// the receiver before the second was there. Calls nest; libzmq's path is unchanged.
    public func cork() {
        lanes.corked += 1
    }

    /// Ends a `cork`: the outermost writes what each lane held.
    public func uncork() {
        precondition(lanes.corked > 0, "Link \(id): uncork without cork")
        lanes.corked -= 1
        guard lanes.corked == 0 else { return }
        for lane in lanes.open.values where lane.held {
            lane.held = false
            flushLane(lane)
        }
    }

    /// Sends `e` over `lane`, encoded as for libzmq, with the length before it.
    func transmit(_ e: Envelope, on lane: Lane) throws(LinkError) {
        let bytes = encodeOutgoing(e) - WireCodec.protocolFrame.count + LaneFraming.prefixSize
        do throws(Lane.WriteError) {
            try lane.write(header: outgoingHeader, body: outgoingBody, holding: lanes.corked > 0)
            record(e, outcome: .sent, bytes: bytes)
        } catch {
            let reason = switch error {
            case .full: "queue full"
            case .failed(let why): "lane \(why)"
            }
            record(e, outcome: .dropped, bytes: bytes, reason: reason)
            throw .dropped("\(reason) (\(e.target))")
        }
    }

    func flushLane(_ lane: Lane) {
        do throws(Lane.WriteError) { try lane.flush() } catch {
            // Its end reaches the reading side, which says what it means.
            logEvent("lane with \(lane.peer?.rawValue ?? "?"): \(error)")
        }
    }

    /// The descriptor of the lane to `peer`: for a test that writes what a broken peer would.
    func laneDescriptor(to peer: ControllerID) -> Int32? { lanes.open[peer]?.fd }

    /// Reads what `lane` brings, as `drainSocket` reads the socket: decoded, checked
    /// against the id the lane was opened for, and accepted. `readingAhead` takes what the
    /// lane's reader already holds and does not ask the socket again: a lane's writer
    /// sends what goes together in one write (`cork`), which the read that woke the loop
    /// brought whole; asking again found nothing, at the cost of a system call, cold.
    func drainLane(_ lane: Lane, readingAhead: Bool = false) {
        var handled = 0
        while handled < options.receiveBatch {
            guard !closed, !lane.isClosed, let peer = lane.peer else { return }
            let next: (Envelope, bytes: Int)?
            do throws(Rejection) {
                next = try lane.reader.next(ids: &knownIDs)
            } catch {
                laneEnded(lane, "\(error.error)", rejected: error)
                return
            }
            guard let (e, bytes) = next else {
                if readingAhead { return }
                switch lane.receive() {
                case .bytes: continue
                case .nothing: return
                case .ended(let why): laneEnded(lane, why)
                }
                return
            }
            handled += 1
            resumedWaiter = false
            guard e.source == peer else {
                laneEnded(lane, "source \(e.source) is not \(peer), whose lane it is", rejected: Rejection(
                    .refusedID, "source \(e.source) is not \(peer), whose lane it is", header: WireHeader(e)))
                return
            }
            if refused(e, bytes: bytes, via: via) { continue }
            accept(e, bytes: bytes, via: via, onLane: true)
            if resumedWaiter || (!(readingAhead || options.readsAhead) && loop.hasQueuedWork) { return }
        }
    }

    /// `lane` ended (its process is gone, or it broke the protocol): closed, and its peer
    /// lost at once if it is still the peer's lane. A child end then says hello again
    /// over libzmq, as after any loss, and asks for a new lane once answered.
    private func laneEnded(_ lane: Lane, _ why: String, rejected: Rejection? = nil) {
        guard let peer = lane.peer else { return }
        if let rejected {
            recordRejection(
                rejected, source: peer.rawValue, target: id.rawValue, kind: "lane", bytes: 0, via: via, then: "the lane is closed")
        }
        let current = lanes.open[peer] === lane
        if current { lanes.open[peer] = nil }
        unwatch(lane)
        guard current else { return }
        logEvent("lane with \(peer) closed: \(why)", peer: peer)
        if peers[peer]?.connected == true {
            // The end of the stream is the peer's process closing it, as libzmq's monitor
            // says of a connection.
            let said = why == Lane.endOfStream ? "its connection closed" : "its lane closed (\(why))"
            lose(peer, kind: "lane", said, left: role == .parent && options.departuresAreNormal)
        }
    }
}

extension Result {
    fileprivate var failureDescription: String? {
        if case .failure(let error) = self { "\(error)" } else { nil }
    }
}
