import CZeroMQ
import Synchronization

/// libzmq's socket monitor of one socket (zmq_socket_monitor(3)), read through the PAIR
/// socket it reports on. A socket has at most one monitor; a link's is for the events
/// its role needs:
///
/// - a parent end, `ZMQ_EVENT_DISCONNECTED`: over ipc, the moment a child's process
///   dies. The event names the connection's file descriptor, not the peer (libzmq 4.3
///   without the draft API), so the link asks each peer whether it is still routable
///   (`Link.connectionsClosed`). Without it, a request sent just before a child was
///   killed waited for the child's replacement to say hello, or for its heartbeats to be
///   missed (issue 19: taps waited ~570 ms behind one).
/// - a child end with `LinkOptions.watchesHandshake`, the ZMTP handshakes
///   (`HandshakeReport`): a hello nobody answers is then told apart from a parent that
///   is not there (issue 19, finding 8).
///
/// Owned, like the socket it watches, by the link's loop thread, which reads it as a
/// source or at least every heartbeat.
final class SocketMonitor {
    private let pair: ZMQSocket

    /// Numbers the monitors of this process: each needs an inproc endpoint of its own.
    private static let made = Atomic<Int>(0)

    /// Must be made before `socket` binds or connects, or its first events are missed.
    init(watching socket: ZMQSocket, events: Int32, context: ZMQContext) throws(ZMQError) {
        let n = Self.made.add(1, ordering: .relaxed).newValue
        let endpoint = "inproc://trellis-monitor-\(n)"
        try socket.monitor(endpoint, events: events)
        pair = try ZMQSocket(.pair, context: context)
        // libzmq's I/O thread sends each event blocking: an unbounded queue on our side
        // means a loop busy for a while delays the events, never that thread (and every
        // connection of the context with it).
        try pair.set(ZMQ_RCVHWM, Int32(0))
        try pair.connect(endpoint)
    }

    var fileDescriptor: Int32 { pair.fileDescriptor }
    var isReadyBeforeSleep: Bool { pair.isReadyBeforeSleep }

    /// Hands every event waiting to `each`, oldest first: the event and its value. An
    /// event is two frames: u16 event and u32 value in host order, then the endpoint.
    func drain(_ each: (_ event: Int32, _ value: UInt32) -> Void) {
        while true {
            let received = try? pair.receive { frames -> (UInt16, UInt32)? in
                guard frames.kept >= 1, frames[0].count >= 6 else { return nil }
                return (frames[0].loadUnaligned(as: UInt16.self), frames[0].loadUnaligned(fromByteOffset: 2, as: UInt32.self))
            }
            guard let received else { return }
            guard let (event, value) = received else { continue }
            each(Int32(event), value)
        }
    }

    /// Ends the watch, before `socket` closes: left to a monitor whose reader has gone
    /// (a reconnect of the closing socket), the I/O thread's blocking send would stop it.
    func close(watching socket: ZMQSocket) {
        socket.stopMonitor()
        pair.close(linger: 0)
    }
}

/// What libzmq said of a child end's connection: how many ZMTP handshakes completed,
/// and why the last one that failed did.
public struct HandshakeReport: Sendable, Equatable {
    public var succeeded = 0
    public var lastFailure: String?

    /// The monitor events a report is made of.
    static let events = ZMQ_EVENT_HANDSHAKE_SUCCEEDED | ZMQ_EVENT_HANDSHAKE_FAILED_NO_DETAIL
        | ZMQ_EVENT_HANDSHAKE_FAILED_PROTOCOL | ZMQ_EVENT_HANDSHAKE_FAILED_AUTH

    mutating func record(_ event: Int32, _ value: UInt32) {
        switch event {
        case ZMQ_EVENT_HANDSHAKE_SUCCEEDED: succeeded += 1
        case ZMQ_EVENT_HANDSHAKE_FAILED_AUTH: lastFailure = "authentication failed (ZAP status \(value))"
        case ZMQ_EVENT_HANDSHAKE_FAILED_PROTOCOL: lastFailure = "ZMTP protocol error \(value)"
        default: lastFailure = "handshake failed (errno \(value))"
        }
    }
}
