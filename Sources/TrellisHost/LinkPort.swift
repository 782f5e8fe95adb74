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
@MainActor
public final class LinkPort: RemotePort {
    public let link: Link
    /// The child to address on a parent end; nil on a child end (it talks to its parent).
    private let peer: ControllerID?
    public let timeout: Duration

    public init(link: Link, peer: ControllerID?, timeout: Duration = .seconds(2)) {
        self.link = link
        self.peer = peer
        self.timeout = timeout
    }

    public func exchange(_ message: Message, from source: ControllerID, to target: ControllerID) -> Reply? {
        let answer = Answer()
        let link = self.link, peer = self.peer, timeout = self.timeout
        Task.detached {
            // A child that has not connected yet (its process is still starting) is
            // waited for within the same bound, rather than dropped at once.
            if let peer {
                let deadline = ContinuousClock.now + timeout
                while await !link.connectedPeers.contains(peer), ContinuousClock.now < deadline {
                    try? await Task.sleep(for: .milliseconds(5))
                }
            }
            do throws(LinkError) {
                answer.set(.success(try await link.request(message, to: peer, timeout: timeout)))
            } catch {
                answer.set(.failure(error))
            }
        }
        // The link times out first and says so; this is only a backstop. Meanwhile what
        // arrives over the links is served (MainMailbox).
        let deadline = DispatchTime.now() + Double(timeout.components.seconds) + 1
        guard MainMailbox.shared.wait(until: deadline, { answer.isSet }), let result = answer.result else {
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
