import CPlatform
import CZeroMQ
import Foundation
import Synchronization
import TrellisWire

/// The ZAP handler (RFC 27) of one libzmq context: libzmq asks it, at
/// `inproc://zeromq.zap.01` in the socket's own context, whether a CURVE client's key
/// may connect to a server socket, and the answer's user id becomes the `User-Id`
/// property of every message from that connection.
///
/// The request names the server's ZAP domain and the client's public key, not its
/// routing id (the identity frame is the server socket's own), so the handler cannot
/// tie a key to a routing id itself: it answers with the controller id the key was
/// issued for, and `Link` rejects a message whose `source` differs (docs/PROTOCOL.md
/// §1). Each CURVE parent end registers its admitted keys under a domain of its own.
///
/// Served by a thread of its own rather than a link's loop: parent ends on different
/// loops share a context, and a handshake must be answered even while the loop that
/// owns a link waits. It runs while a domain is registered, and sleeps until a request
/// or its stop comes (`stopFD`): a timed poll to notice the stop woke it ten times a
/// second in every process with a parent end, for nothing.
final class ZAPHandler: Sendable {
    /// Where libzmq asks (RFC 27): one per context.
    private static let endpoint = "inproc://zeromq.zap.01"
    private let context: ZMQContext
    /// Domain → 32-byte public key → the id it was issued (or vouched) for.
    private let domains = Mutex<[String: [[UInt8]: ControllerID]]>([:])
    /// Domain → what is told of a key refused there (the Z85 key), on this handler's thread.
    private let refusals = Mutex<[String: @Sendable (String) -> Void]>([:])
    private let stopping = Atomic<Bool>(false)
    /// Written once `stopping` is set: wakes the handler's thread to see it.
    private let stopFD: (Int32, Int32)
    private let stopped = DispatchSemaphore(value: 0)
    private let startFailure = Mutex<ZMQError?>(nil)

    /// One per context, while it has domains.
    private static let handlers = Mutex<[ObjectIdentifier: ZAPHandler]>([:])
    private static let madeDomains = Atomic<Int>(0)

    private init(context: ZMQContext) throws(ZMQError) {
        self.context = context
        var fds: [Int32] = [-1, -1]
        guard trellis_wakefd_open(&fds) == 0 else { throw ZMQError("the ZAP handler's stop descriptor", errno: errno) }
        stopFD = (fds[0], fds[1])
    }

    deinit {
        var fds = [stopFD.0, stopFD.1]
        trellis_wakefd_close(&fds)
    }

    /// A ZAP domain no other link of this process uses.
    static func newDomain() -> String { "trellis-\(madeDomains.add(1, ordering: .relaxed).newValue)" }

    /// Admits `keys` (Z85 public key → id) for `domain`; the handler is listening when
    /// this returns, so no handshake on a socket bound afterwards goes unchecked (without
    /// a handler, libzmq lets every CURVE client in).
    static func admit(
        _ keys: [String: ControllerID], domain: String, context: ZMQContext, refused: @escaping @Sendable (String) -> Void = { _ in }
    ) throws(ZMQError) {
        var table: [[UInt8]: ControllerID] = [:]
        for (z85, id) in keys {
            guard let key = CurveKeyPair.binary(z85) else { throw ZMQError("not a Z85 CURVE public key for \(id)", errno: EINVAL) }
            table[key] = id
        }
        let result = handlers.withLock { all -> Result<Void, ZMQError> in
            if let h = all[ObjectIdentifier(context)] {
                h.domains.withLock { $0[domain] = table }
                h.refusals.withLock { $0[domain] = refused }
                return .success(())
            }
            let h: ZAPHandler
            do throws(ZMQError) { h = try ZAPHandler(context: context) } catch { return .failure(error) }
            h.domains.withLock { $0[domain] = table }
            h.refusals.withLock { $0[domain] = refused }
            do throws(ZMQError) { try h.start() } catch { return .failure(error) }
            all[ObjectIdentifier(context)] = h
            return .success(())
        }
        try result.get()
    }

    /// Admits one more key for `domain` (a key a connected child vouched for, `Link.admitVouched`),
    /// or forgets one (`id` nil). The domain must be registered: its link is bound.
    static func set(_ key: [UInt8], to id: ControllerID?, domain: String, context: ZMQContext) {
        handlers.withLock { all in
            all[ObjectIdentifier(context)]?.domains.withLock { domains in
                guard domains[domain] != nil else { return }
                domains[domain]?[key] = id
            }
        }
    }

    /// Forgets `domain`; the last one stops the handler and closes its socket.
    static func forget(domain: String, context: ZMQContext) {
        handlers.withLock { all in
            guard let h = all[ObjectIdentifier(context)] else { return }
            h.refusals.withLock { _ = $0.removeValue(forKey: domain) }
            let empty = h.domains.withLock { $0.removeValue(forKey: domain); return $0.isEmpty }
            guard empty else { return }
            all.removeValue(forKey: ObjectIdentifier(context))
            // Stopped, its socket closed, before the lock is let go: a handler started
            // next on this context binds the same inproc endpoint, which was still taken
            // when this wait ran outside the lock ("Address already in use" under load).
            // The handler's thread never takes this lock, and `stopFD` wakes it at once, so
            // the wait ends. (The handler unbinds before it closes: the close alone freed
            // the endpoint later.)
            h.stopping.store(true, ordering: .releasing)
            trellis_wakefd_signal(h.stopFD.1)
            h.stopped.wait()
        }
    }

    private func start() throws(ZMQError) {
        let bound = DispatchSemaphore(value: 0)
        let thread = Thread { [self] in
            let socket: ZMQSocket
            do throws(ZMQError) {
                socket = try ZMQSocket(.rep, context: context)
                try socket.bind(Self.endpoint)
            } catch {
                startFailure.withLock { $0 = error }
                bound.signal()
                stopped.signal()
                return
            }
            bound.signal()
            serve(socket)
            // Given up before the close: a handler started next on this context binds it
            // again, and a close alone frees it later, on libzmq's reaper thread
            // ("Address already in use" in VouchedKeyTests under load).
            try? socket.unbind(Self.endpoint)
            socket.close(linger: 0)
            stopped.signal()
        }
        thread.name = "zap"
        thread.start()
        bound.wait()
        if let error = startFailure.withLock({ $0 }) { throw error }
    }

    private func serve(_ socket: ZMQSocket) {
        while !stopping.load(ordering: .acquiring) {
            switch socket.poll(orReadable: stopFD.0) {
            case .message: break
            case .other: continue
            // Its context is ending under it (no `forget` came): waiting on would spin.
            case .terminated: return
            }
            guard let reply = try? socket.receive({ answer($0) }) else { continue }
            try? socket.send(reply)
        }
    }

    /// RFC 27: version, request id, domain, address, identity, mechanism, credentials;
    /// the reply: version, request id, status code, status text, user id, metadata.
    private func answer(_ f: ReceivedFrames) -> [[UInt8]] {
        let requestID = f.kept > 1 ? Array(f[1]) : []
        func reply(_ code: String, _ text: String, user: String = "") -> [[UInt8]] {
            [Array("1.0".utf8), requestID, Array(code.utf8), Array(text.utf8), Array(user.utf8), []]
        }
        guard f.count == 7, f.kept == 7, Array(f[0]) == Array("1.0".utf8) else { return reply("500", "not a ZAP 1.0 request") }
        guard Array(f[5]) == Array("CURVE".utf8) else { return reply("400", "only CURVE clients are admitted") }
        let domain = String(decoding: f[2], as: UTF8.self)
        let key = Array(f[6])
        guard let id = domains.withLock({ $0[domain]?[key] }) else {
            if let tell = refusals.withLock({ $0[domain] }) {
                var z85 = [CChar](repeating: 0, count: 41)
                tell(key.count == 32 && zmq_z85_encode(&z85, key, 32) != nil ? String(decoding: z85.prefix(40).map { UInt8(bitPattern: $0) }, as: UTF8.self) : "(not a CURVE key)")
            }
            return reply("400", "key not issued for this endpoint")
        }
        return reply("200", "OK", user: id.rawValue)
    }
}
