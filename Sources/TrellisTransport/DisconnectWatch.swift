import CZeroMQ
import Synchronization

/// libzmq's word that one of a parent end's connections closed (its socket monitor's
/// `ZMQ_EVENT_DISCONNECTED`): over ipc, the moment a child's process dies.
///
/// The event names the connection's file descriptor, not the peer (libzmq 4.3 without
/// the draft API), so the link asks each peer in turn whether it is still routable
/// (`Link.connectionsClosed`). Without it, a request sent just before a child was killed
/// waited for the child's replacement to say hello, or for its heartbeats to be missed
/// (issue 19: taps waited ~570 ms behind one). Owned, like the socket it watches, by the
/// link's loop, which reads it as a source so that its queue never backs up.
final class DisconnectWatch {
    private let pair: ZMQSocket

    /// Numbers the monitors of this process: each needs an inproc endpoint of its own.
    private static let made = Atomic<Int>(0)

    /// Must be made before `socket` binds, or its first connections are not watched.
    init(watching socket: ZMQSocket, context: ZMQContext) throws(ZMQError) {
        let n = Self.made.add(1, ordering: .relaxed).newValue
        let endpoint = "inproc://trellis-disconnect-\(n)"
        try socket.monitor(endpoint, events: ZMQ_EVENT_DISCONNECTED)
        pair = try ZMQSocket(.pair, context: context)
        // libzmq sends monitor events blocking: an unbounded queue on our side means a
        // loop that is busy for a while delays the events, never the I/O thread.
        try pair.set(ZMQ_RCVHWM, Int32(0))
        try pair.connect(endpoint)
    }

    var fileDescriptor: Int32 { pair.fileDescriptor }
    var isReadyBeforeSleep: Bool { pair.isReadyBeforeSleep }

    /// Reads every event waiting; returns how many connections closed.
    func drain() -> Int {
        var closed = 0
        while let _ = try? pair.receive({ _ in () }) { closed += 1 }
        return closed
    }

    /// Ends the watch, before `socket` closes (see `HandshakeWatch.close`).
    func close(watching socket: ZMQSocket) {
        socket.stopMonitor()
        pair.close(linger: 0)
    }
}
