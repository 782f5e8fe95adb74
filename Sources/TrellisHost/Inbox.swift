import Dispatch
import TrellisControllers
import TrellisTransport
import TrellisWire

/// Carries messages a link accepted (on its I/O thread) to the controllers (on the main
/// actor), and their answers back: an ack once the controller has handled the message,
/// or a reply for a request, a touch or a key. The sender is waiting for exactly that.
/// Input (touch, key) is answered with a reply because the sender must learn whether
/// anything handled it: the compositor quits on a Ctrl+C nothing handled.
enum Inbox {
    /// `isReady` says whether whoever handles the messages exists yet: a link delivers
    /// from the moment it connects, before the code that made it has made the rest (its
    /// caller resumes on the main queue). Until then a message is put back on the main
    /// queue — behind that caller — rather than answered "failed": the parent's bring-up
    /// (traits, size, appearance) would be lost, and the tree never shown.
    static func handler(
        isReady: @escaping @MainActor @Sendable () -> Bool,
        _ handle: @escaping @MainActor @Sendable (Envelope) -> Reply?
    ) -> @Sendable (Envelope, isolated Link) -> Disposition {
        { envelope, link in
            let answering: Link = link
            MainMailbox.shared.post(via: link.loop, from: IOLoop.WaitKey(answering, envelope.source.rawValue), atOnce: true) {
                deliver(envelope, answering: answering, isReady: isReady, handle)
            }
            return .deferred
        }
    }

    @MainActor
    private static func deliver(
        _ envelope: Envelope, answering: Link, isReady: @escaping @MainActor @Sendable () -> Bool,
        _ handle: @escaping @MainActor @Sendable (Envelope) -> Reply?
    ) {
        guard isReady() else {
            DispatchQueue.main.async {
                MainActor.assumeIsolated { deliver(envelope, answering: answering, isReady: isReady, handle) }
            }
            return
        }
        let reply = handle(envelope)
        let wantsReply = envelope.kind == .request || envelope.kind == .touch || envelope.kind == .key
        // On a main-thread loop the answer goes out now, from this thread.
        answering.run { l in
            if wantsReply {
                l.reply(to: envelope, reply ?? Reply(status: .ok))
            } else {
                l.acknowledge(envelope)
            }
        }
    }
}
