import TrellisControllers
import TrellisTransport
import TrellisWire

/// A `RemotePort` over a link: each message is a `Switchboard` call — sent, and waited
/// for until the peer has handled it, bounded by `timeout`. Its link's loop's thread's,
/// as the tree whose proxy it serves is.
public final class LinkPort: RemotePort {
    public let link: Link
    let line: Switchboard.Line
    /// The child to address on a parent end; nil on a child end (it talks to its parent).
    private let peer: ControllerID?
    public let timeout: Duration
    /// Runs before anything is sent: a host that holds messages back for this peer
    /// (`ChildHost.toldAfterFrame`) sends them first, so nothing overtakes them.
    var beforeSending: (() -> Void)?

    init(link: Link, line: Switchboard.Line, peer: ControllerID?, timeout: Duration) {
        self.link = link
        self.line = line
        self.peer = peer
        self.timeout = timeout
    }

    public func exchange(_ message: Message, from source: ControllerID, to target: ControllerID) -> Reply? {
        beforeSending?()
        return Switchboard.of(link.loop).call(message, over: link, line: line, to: peer, timeout: timeout)
    }

    public func exchange(_ messages: [Message], from source: ControllerID, to target: ControllerID) -> [Reply?] {
        beforeSending?()
        return Switchboard.of(link.loop).call(messages, over: link, line: line, to: peer, timeout: timeout)
    }

    /// Sent as it is, no ack asked: the peer's link hands it to the switchboard in order
    /// with what follows. A send the link refuses is logged there (`dropped`). A request
    /// is always answered (docs/PROTOCOL.md §6): its reply is awaited by no one but
    /// matched, so it is not logged as an answer to nothing.
    public func post(_ message: Message, from source: ControllerID, to target: ControllerID) {
        beforeSending?()
        let trace = Switchboard.of(link.loop).trace, peer = self.peer
        if message.kind == .request {
            link.now { l in l.request(message, to: peer, trace: trace) { _ in } }
        } else {
            link.now { l in _ = try? l.send(message, to: peer, trace: trace) }
        }
    }
}
