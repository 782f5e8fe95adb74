import Dispatch
import TrellisLog
import TrellisControllers
import TrellisTransport
import TrellisWire

/// Carries messages a link accepted (on its I/O thread) to the controllers (on the main
/// actor), and their answers back: an ack once the controller has handled the message,
/// or a reply for a request, a touch or a key. The sender is waiting for exactly that.
/// Input (touch, key) is answered with a reply because the sender must learn whether
/// anything handled it: the compositor quits on a Ctrl+C nothing handled.
enum Inbox {
    /// Input (a touch, a key) whose turn comes later than this after its link read it
    /// is not run: it is answered `stale` and logged. A person who clicked a second ago
    /// and saw nothing has moved on; running the click now would act on a screen they no
    /// longer look at (issue 19: taps run 13–40 s late). Well under the sender's 2 s
    /// request bound, so the answer still reaches it and says what happened.
    static let inputBound: Duration = .seconds(1)

    /// `isReady` says whether whoever handles the messages exists yet: a link delivers
    /// from the moment it connects, before the code that made it has made the rest (its
    /// caller resumes on the main queue). Until then a message is put back on the main
    /// queue — behind that caller — rather than answered "failed": the parent's bring-up
    /// (traits, size, appearance) would be lost, and the tree never shown.
    static func handler(
        log: RoutingLog, isReady: @escaping @MainActor @Sendable () -> Bool,
        _ handle: @escaping @MainActor @Sendable (Envelope) -> Reply?
    ) -> @Sendable (Envelope, isolated Link) -> Disposition {
        { envelope, link in
            let answering: Link = link
            let arrived = link.loop.passTime
            MainMailbox.shared.post(via: link.loop, from: IOLoop.WaitKey(answering, envelope.source.rawValue), atOnce: true) {
                deliver(envelope, arrived: arrived, answering: answering, log: log, isReady: isReady, handle)
            }
            return .deferred
        }
    }

    @MainActor
    private static func deliver(
        _ envelope: Envelope, arrived: UInt64, answering: Link, log: RoutingLog,
        isReady: @escaping @MainActor @Sendable () -> Bool, _ handle: @escaping @MainActor @Sendable (Envelope) -> Reply?
    ) {
        guard isReady() else {
            DispatchQueue.main.async {
                MainActor.assumeIsolated {
                    deliver(envelope, arrived: arrived, answering: answering, log: log, isReady: isReady, handle)
                }
            }
            return
        }
        let isInput = envelope.kind == .touch || envelope.kind == .key
        let waited = MonotonicClock.nanoseconds() &- arrived
        if isInput && waited > inputBound.nanoseconds {
            let why = "stale: waited \(waited / 1_000_000) ms for its turn (bound \(inputBound.nanoseconds / 1_000_000) ms), not run"
            log.record(RoutingRecord(
                host: log.host, at: envelope.target.rawValue, source: envelope.source.rawValue, target: envelope.target.rawValue,
                kind: envelope.kind.name, sequence: envelope.sequence, trace: envelope.trace, outcome: .dropped, reason: why))
            answering.run { l in l.reply(to: envelope, Reply(status: .stale, payload: Array(why.utf8))) }
            return
        }
        let reply = handle(envelope)
        let wantsReply = envelope.kind == .request || envelope.kind == .touch || envelope.kind == .key
        // On a main-thread loop the answer goes out now, from this thread.
        answering.run { l in
            if wantsReply {
                l.reply(to: envelope, reply ?? Reply(status: .ok))
            } else if let reply, reply.status == .failed, envelope.flags.contains(.ackRequested) {
                // The sender waits to learn it was handled; it was not (a size no surface
                // may have, a kind the target does not take): say so, not ack it.
                let why = String(decoding: reply.payload, as: UTF8.self)
                _ = try? l.send(
                    .error(WireError(.handlerFailed, why.isEmpty ? "\(envelope.kind.name) not handled" : why)),
                    to: envelope.source, trace: envelope.trace, correlation: envelope.sequence)
            } else {
                l.acknowledge(envelope)
            }
        }
    }
}
