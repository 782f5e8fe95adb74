import Dispatch
import Synchronization
import TrellisControllers
import TrellisTransport
import TrellisWire

/// A `RemotePort` over a `Link`: the message goes out with an acknowledgement
/// requested, and the calling controller waits — the main thread blocks, bounded by
/// the link's request timeout — until the peer has handled it.
///
/// Blocking the main thread is deliberate: it is what makes a call on a proxy behave
/// like a call on an in-process child, so the global callback order is the same
/// (docs/LIFECYCLE.md). It costs one round trip per message to a remote child. The
/// main thread is not one of the cooperative pool's threads, and the link runs on its
/// own I/O thread, so nothing else waits on it. While it waits, messages arriving over
/// the links — a request the child sends up while handling ours — are served by the
/// waiting loop (MainMailbox), as the same call is served synchronously in one process.
/// On a main-thread loop (the hosts) the waiting is that loop, run nested: the message
/// goes out, and its answer comes in, on the calling thread.
@MainActor
public final class LinkPort: RemotePort {
    public let link: Link
    /// The child to address on a parent end; nil on a child end (it talks to its parent).
    private let peer: ControllerID?
    public let timeout: Duration

    private let presence: Presence?

    public init(link: Link, peer: ControllerID?, timeout: Duration = .seconds(2), presence: Presence? = nil) {
        self.link = link
        self.peer = peer
        self.timeout = timeout
        self.presence = presence
    }

    public func exchange(_ message: Message, from source: ControllerID, to target: ControllerID) -> Reply? {
        if let peer, presence?.isLost(peer) == true {
            return Reply(status: .failed, payload: Array("\(peer) is not responding".utf8))
        }
        let answer = Answer()
        let link = self.link, peer = self.peer, timeout = self.timeout, trace = TraceContext.current
        let until = ContinuousClock.now + timeout
        // On a main-thread loop the message goes out from here, at once.
        link.run { l in
            l.request(message, toConnected: peer, trace: trace, timeout: timeout, until: until) { answer.set($0) }
        }
        // The link times out first and says so; this is only a backstop. Meanwhile what
        // arrives over the links is served (MainMailbox).
        let deadline = DispatchTime.now() + Double(timeout.components.seconds) + 1
        let answerer: IOLoop.WaitKey
        switch (peer, link.role) {
        case (let peer?, _), (nil, .child(parent: let peer)): answerer = IOLoop.WaitKey(link, peer.rawValue)
        case (nil, .parent): answerer = IOLoop.WaitKey(link, target.rawValue)
        }
        guard MainMailbox.shared.wait(on: link.loop, for: answerer, until: deadline, { answer.isSet }), let result = answer.result else {
            return Reply(status: .failed, payload: Array("no answer from \(target)".utf8))
        }
        switch result {
        case .success(let envelope):
            if case .reply(let reply) = envelope.message { return reply }
            return nil
        case .failure(let error):
            return Reply(status: .failed, payload: Array("\(error)".utf8))
        }
    }
}

extension Link {
    /// `request`, once `peer` is connected, answered through `then` on the loop's thread:
    /// a child that has not connected yet (its process is still starting) is looked for
    /// again every 5 ms until `deadline`, rather than dropped at once.
    fileprivate func request(
        _ message: Message, toConnected peer: ControllerID?, trace: UInt64, timeout: Duration,
        until deadline: ContinuousClock.Instant, then: @escaping @Sendable (Result<Envelope, LinkError>) -> Void
    ) {
        if let peer, !isConnected(peer), ContinuousClock.now < deadline {
            loop.schedule(afterNanoseconds: 5_000_000) { [self] in
                self.assumeIsolated { l in
                    l.request(message, toConnected: peer, trace: trace, timeout: timeout, until: deadline, then: then)
                }
            }
            return
        }
        request(message, to: peer, trace: trace, timeout: timeout, then: then)
    }
}

/// Which peers stopped answering, shared by the ports of one parent end.
public final class Presence: Sendable {
    private let lost = Mutex<Set<ControllerID>>([])
    public init() {}
    public func isLost(_ id: ControllerID) -> Bool { lost.withLock { $0.contains(id) } }
    func setLost(_ id: ControllerID, _ flag: Bool) {
        lost.withLock { if flag { $0.insert(id) } else { $0.remove(id) } }
    }
}

/// One answer, handed from the link's thread to the waiting main thread.
final class Answer: Sendable {
    private let value = Mutex<Result<Envelope, LinkError>?>(nil)

    func set(_ result: Result<Envelope, LinkError>) {
        value.withLock { $0 = result }
        MainMailbox.shared.poke()
    }

    var isSet: Bool { value.withLock { $0 != nil } }
    var result: Result<Envelope, LinkError>? { value.withLock { $0 } }
}
