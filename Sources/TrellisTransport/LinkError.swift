import TrellisWire

/// Why a link could not do what it was asked.
public enum LinkError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The message was not sent; it is logged as dropped with this reason.
    case dropped(String)
    /// No ack or reply came in time.
    case timeout(kind: MessageKind, sequence: UInt64)
    /// The peer answered with an error.
    case rejected(WireError)
    /// The peer this waited for is known not to answer: a new process said hello under
    /// its id (it was restarted, so what was sent to the old one is gone), or it went
    /// silent past the heartbeat timeout. Said the moment it is known, not at the
    /// request's deadline.
    case peerGone(ControllerID, String)
    /// A parent link's send named no peer.
    case noPeer
    case closed
    /// Creating the socket or binding/connecting failed.
    case transport(String)

    public var description: String {
        switch self {
        case .dropped(let why): "message dropped: \(why)"
        case .timeout(let kind, let seq): "\(kind.name) #\(seq) got no answer in time"
        case .rejected(let e): "peer rejected the message: \(e)"
        case .peerGone(let peer, let why): "\(peer) will not answer: \(why)"
        case .noPeer: "a parent link must name the peer to send to"
        case .closed: "the link is closed"
        case .transport(let why): why
        }
    }
}

/// A change in whether a peer is heard from.
public enum PeerEvent: Sendable, Equatable {
    case connected(ControllerID)
    case lost(ControllerID)
}

/// What a delivery handler did with a message.
public enum Disposition: Sendable {
    /// Done: the link acks it now if the sender asked.
    case handled
    /// The handler will call `acknowledge(_:)` (or `reply(to:_:)`) itself later —
    /// for example after its own children have acknowledged.
    case deferred
}
