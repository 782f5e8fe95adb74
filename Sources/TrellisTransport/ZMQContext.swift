import CZeroMQ
import Synchronization

/// A libzmq context. Usually one per process (`ZMQContext.shared`).
///
/// Termination never hangs: every socket Trellis opens has a bounded linger, and
/// `terminate` refuses to call `zmq_ctx_term` while sockets are still open (it
/// would block until they close), reporting them instead.
public final class ZMQContext: Sendable {
    // Sendable: libzmq contexts are thread-safe; `handle` is immutable.
    nonisolated(unsafe) let handle: UnsafeMutableRawPointer
    private let openSockets = Atomic<Int>(0)
    private let terminated = Atomic<Bool>(false)

    /// Where the context's I/O threads run: beside the loop that leads it.
    public let ioThreadPlacement: IOThreadPlacement

    public static let shared = ZMQContext()

    /// Numbers contexts, so that each one's I/O threads can be told apart by name.
    private static let made = Atomic<Int32>(0)

    /// `followLoop`: let the I/O threads follow the first I/O loop that uses the
    /// context (`IOThreadPlacement`); the raw-libzmq baselines of the benchmarks
    /// turn it off, as a plain libzmq program has nothing like it.
    public init(ioThreads: Int32 = 1, followLoop: Bool = IOThreadPlacement.followsByDefault) {
        guard let h = zmq_ctx_new() else { fatalError("zmq_ctx_new failed: \(ZMQError("zmq_ctx_new"))") }
        zmq_ctx_set(h, ZMQ_IO_THREADS, ioThreads)
        // Let the process be the only one deciding what signals do.
        zmq_ctx_set(h, ZMQ_BLOCKY, 0)
        // Before the first socket starts the I/O threads, which take the name then.
        let number = Self.made.add(1, ordering: .relaxed).newValue
        zmq_ctx_set(h, ZMQ_THREAD_NAME_PREFIX, number)
        ioThreadPlacement = IOThreadPlacement(namePrefix: number, follows: followLoop)
        handle = h
    }

    /// The libzmq context itself, for code that calls libzmq directly (the
    /// benchmarks' raw baselines). Sockets made from it are not counted.
    public var rawHandle: UnsafeMutableRawPointer { handle }

    /// Sockets created in this context and not yet closed.
    public var socketCount: Int { openSockets.load(ordering: .acquiring) }

    func socketOpened() { openSockets.add(1, ordering: .relaxed) }
    func socketClosed() { openSockets.subtract(1, ordering: .releasing) }

    /// Ends the context. Returns false (and leaves the context alive) if sockets
    /// are still open: their owners must close them first, on their own threads.
    @discardableResult
    public func terminate() -> Bool {
        guard socketCount == 0 else { return false }
        guard !terminated.exchange(true, ordering: .acquiringAndReleasing) else { return true }
        while zmq_ctx_term(handle) != 0 && zmq_errno() == EINTR {}
        return true
    }

    /// libzmq's version, e.g. "4.3.4".
    public static var libraryVersion: String {
        var major: Int32 = 0, minor: Int32 = 0, patch: Int32 = 0
        zmq_version(&major, &minor, &patch)
        return "\(major).\(minor).\(patch)"
    }
}
