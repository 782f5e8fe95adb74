import CZeroMQ
import TrellisLog
import TrellisWire

// How long a request waits: one loop timer for the earliest deadline, and the failure
// of every request whose deadline passed or whose peer will not answer.
extension Link {
    /// Sets the expiry timer for `deadline` unless it already fires no later.
    func armExpiry(_ deadline: UInt64) {
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
    func failRequests(to peer: ControllerID, _ why: String) {
        let waiting = pending.compactMap { seq, p -> UInt64? in
            if case .request(_, let target, _, _) = p, target == peer { seq } else { nil }
        }
        for seq in waiting.sorted() {
            guard case .request(let kind, _, _, let waiter)? = pending.removeValue(forKey: seq) else { continue }
            record(
                RoutingRecord(
                    host: log.host, at: id.rawValue, source: id.rawValue, target: peer.rawValue, kind: kind.name, sequence: seq,
                    outcome: .lost, via: via, reason: "\(peer) \(why): #\(seq) will not be answered"))
            waiter.resume(.failure(.peerGone(peer, why)), in: self)
        }
    }

    private func expire(_ seq: UInt64) {
        guard case .request(let kind, _, _, let waiter)? = pending.removeValue(forKey: seq) else { return }
        record(
            RoutingRecord(
                host: log.host, at: id.rawValue, source: id.rawValue, target: "-", kind: kind.name, sequence: seq,
                outcome: .timeout, via: via, reason: "no answer to #\(seq) in time"))
        waiter.resume(.failure(.timeout(kind: kind, sequence: seq)), in: self)
    }
}
