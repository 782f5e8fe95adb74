import TrellisLog
import TrellisWire

// Replacement: a child end made anew under the same id, without its parent ever seeing
// the child gone in between.
extension Link {
    /// A child end connected in place of `old` (same id, same parent, same endpoint), for
    /// a connection libzmq will not make again by itself: after a handshake the parent
    /// refused (a restarted compositor, before a key was vouched for anew), libzmq
    /// sometimes retries and sometimes does not (zeromq/libzmq#3519).
    ///
    /// `old` closes only once the parent has heard from this one, which by then holds
    /// the routing id (the parent's `LinkOptions.routerHandover`): had libzmq's own retry
    /// connected `old` meanwhile, closing it first would show the parent a peer that
    /// left and came back — a compositor draws a crashed child's placeholder for that
    /// moment. Closing this one first closes `old` too, so no replaced end is left
    /// retrying behind it.
    public static func connectNow(
        replacing old: Link, options: LinkOptions,
        onMessage: @escaping @Sendable (Envelope, isolated Link) -> Disposition = { _, _ in .handled },
        onPeer: @escaping @Sendable (PeerEvent) -> Void = { _ in }
    ) throws(LinkError) -> Link {
        guard case .child(let parent) = old.role else { preconditionFailure("only a child end is replaced") }
        let link = try connectNow(
            id: old.id, parent: parent, endpoint: old.endpoint, loop: old.loop, log: old.log, context: old.context,
            options: options, onMessage: onMessage, onPeer: onPeer)
        link.now { $0.replaced = old }
        return link
    }

    /// Closes the end this one replaced: the parent has heard this one, or this one closes.
    func retireReplaced() {
        guard let old = replaced else { return }
        replaced = nil
        old.run { $0.close() }
    }
}
