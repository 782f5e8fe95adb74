import CZeroMQ
import Synchronization

/// What libzmq said of a child end's connection: how many ZMTP handshakes completed,
/// and why the last one that failed did.
public struct HandshakeReport: Sendable, Equatable {
    public var succeeded = 0
    public var lastFailure: String?
}

/// The ZMTP handshakes of one socket, read from libzmq's socket monitor.
///
/// A child end whose hello goes unanswered cannot otherwise tell a parent that is not
/// there from one that will not hear it — a ROUTER without handover keeps a newcomer
/// with a connected peer's routing id and never reads it (issue 19 finding 8). A
/// completed handshake says the parent is there. Owned, like the socket it watches,
/// by the thread that uses that socket, which reads it at least every heartbeat so that
/// its queue never fills (see `close`).
final class HandshakeWatch {
    private let pair: ZMQSocket
    private(set) var report = HandshakeReport()

    /// Numbers the monitors of this process: each needs an inproc endpoint of its own.
    private static let made = Atomic<Int>(0)

    /// Must be made before `socket` connects, or the first handshake is missed.
    init(watching socket: ZMQSocket, context: ZMQContext) throws(ZMQError) {
        let n = Self.made.add(1, ordering: .relaxed).newValue
        let endpoint = "inproc://trellis-handshake-\(n)"
        try socket.monitor(
            endpoint,
            events: ZMQ_EVENT_HANDSHAKE_SUCCEEDED | ZMQ_EVENT_HANDSHAKE_FAILED_NO_DETAIL
                | ZMQ_EVENT_HANDSHAKE_FAILED_PROTOCOL | ZMQ_EVENT_HANDSHAKE_FAILED_AUTH)
        pair = try ZMQSocket(.pair, context: context)
        try pair.connect(endpoint)
    }

    /// Reads what libzmq reported since last asked; never blocks.
    func update() {
        while true {
            // An event is two frames: u16 event and u32 value in host order, then the
            // endpoint (zmq_socket_monitor(3)).
            let received = try? pair.receive { frames -> (UInt16, UInt32)? in
                guard frames.kept >= 1, frames[0].count >= 6 else { return nil }
                return (frames[0].loadUnaligned(as: UInt16.self), frames[0].loadUnaligned(fromByteOffset: 2, as: UInt32.self))
            }
            guard let received else { return }
            guard let (event, value) = received else { continue }
            switch Int32(event) {
            case ZMQ_EVENT_HANDSHAKE_SUCCEEDED: report.succeeded += 1
            case ZMQ_EVENT_HANDSHAKE_FAILED_AUTH: report.lastFailure = "authentication failed (ZAP status \(value))"
            case ZMQ_EVENT_HANDSHAKE_FAILED_PROTOCOL: report.lastFailure = "ZMTP protocol error \(value)"
            default: report.lastFailure = "handshake failed (errno \(value))"
            }
        }
    }

    /// Ends the watch of `socket`, before it closes. libzmq's I/O thread sends each
    /// event on the monitor with a blocking send: left to a monitor whose reader has gone
    /// (a reconnect of the closing socket), or to a full queue, it would stop that thread
    /// and every connection of the context with it.
    func close(watching socket: ZMQSocket) {
        socket.stopMonitor()
        pair.close(linger: 0)
    }
}
