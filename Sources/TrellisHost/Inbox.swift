import TrellisControllers
import TrellisTransport
import TrellisWire

/// Carries messages a link accepted (on its I/O thread) to the controllers (on the main
/// actor), and their answers back: an ack once the controller has handled the message,
/// or a reply for a request, a touch or a key. The sender is waiting for exactly that.
/// Input (touch, key) is answered with a reply because the sender must learn whether
/// anything handled it: the compositor quits on a Ctrl+C nothing handled.
enum Inbox {
    static func handler(
        _ handle: @escaping @MainActor @Sendable (Envelope) -> Reply?
    ) -> @Sendable (Envelope, isolated Link) -> Disposition {
        { envelope, link in
            let answering: Link = link
            let sender = IOLoop.WaitKey(answering, envelope.source.rawValue)
            MainMailbox.shared.post(via: link.loop, from: sender) {
                let reply = handle(envelope)
                let wantsReply = envelope.kind == .request || envelope.kind == .touch || envelope.kind == .key
                let answer: @Sendable (isolated Link) -> Void = { l in
                    if wantsReply {
                        l.reply(to: envelope, reply ?? Reply(status: .ok))
                    } else {
                        l.acknowledge(envelope)
                    }
                }
                // On a main-thread loop the answer goes out now, from this thread.
                if answering.loop.isCurrent {
                    answering.assumeIsolated(answer)
                } else {
                    answering.loop.execute { answering.assumeIsolated(answer) }
                }
            }
            return .deferred
        }
    }
}
