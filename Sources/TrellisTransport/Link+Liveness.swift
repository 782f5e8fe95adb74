import CZeroMQ
import TrellisLog
import TrellisWire

// Liveness: hellos, heartbeats, connections that close, and the handshakes a child
// end watches; a peer that falls silent or goes away is lost, and its requests with it.
extension Link {
    func sendHello(to parent: ControllerID) {
        guard let seq = try? send(
            .hello(Hello(pid: options.incarnation, heartbeatMilliseconds: UInt32(options.heartbeatInterval.milliseconds))),
            to: parent)
        else { return }
        pending[seq] = .hello
    }

    /// Notes that `peer` was heard from; returns whether it was connected before.
    @discardableResult
    func heard(from peer: ControllerID) -> Bool {
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

    func scheduleHeartbeat() {
        heartbeatTimer = loop.schedule(afterNanoseconds: options.heartbeatInterval.nanoseconds, duringWaits: true) {
            [weak self] in self?.onLoopThread { $0.heartbeat() }
        }
    }

    private func heartbeat() {
        guard !closed else { return }
        readHandshakes()
        closeStaleLanes()
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
    func lose(_ peer: ControllerID, kind: String, _ why: String, left: Bool = false) {
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
        forgetVouched(by: peer)
        onPeer(.lost(peer))
    }

    /// A child's connection closed, libzmq says, but not whose: each connected peer is
    /// asked whether it is still routable (a heartbeat sent under ROUTER_MANDATORY fails
    /// with EHOSTUNREACH once its connection is gone). One that is not is lost now —
    /// its waiting requests fail, its parent is told — not after the heartbeat timeout.
    /// The socket learns of the closed pipe a moment after the monitor does, so peers
    /// still routable are asked again, a few times, within 30 ms.
    func connectionsClosed() {
        var closed = 0
        monitor?.drain { _, _ in closed += 1 }
        if closed > 0 { probeConnectedPeers(again: [1, 5, 25]) }
    }

    private func probeConnectedPeers(again delays: ArraySlice<UInt64>) {
        guard !closed else { return }
        var reachable = false
        for (peer, state) in peers.sorted(by: { $0.key < $1.key }) where state.connected && localChildren[peer] == nil && lanes.open[peer] == nil {
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
}
