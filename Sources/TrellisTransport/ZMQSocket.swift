import CZeroMQ

/// A libzmq socket. Not thread-safe, as libzmq sockets are not: it belongs to the
/// thread (the `IOLoop`) that uses it, and is never shared.
public final class ZMQSocket {
    public enum Kind {
        case router, dealer, req, rep, pair
        var raw: Int32 {
            switch self {
            case .router: ZMQ_ROUTER
            case .dealer: ZMQ_DEALER
            case .req: ZMQ_REQ
            case .rep: ZMQ_REP
            case .pair: ZMQ_PAIR
            }
        }
    }

    private var handle: UnsafeMutableRawPointer?
    private let context: ZMQContext
    /// Reused for every receive; heap-allocated once so the `zmq_msg_t` is never
    /// copied by value (libzmq forbids it).
    private let message: UnsafeMutablePointer<zmq_msg_t>
    /// Frames beyond this many in one message are consumed and counted, not kept.
    public var maxFrames = 8

    public init(_ kind: Kind, context: ZMQContext = .shared) throws(ZMQError) {
        guard let h = zmq_socket(context.handle, kind.raw) else { throw ZMQError("zmq_socket") }
        handle = h
        self.context = context
        message = .allocate(capacity: 1)
        zmq_msg_init(message)
        context.socketOpened()
        // Never let a forgotten message hold up zmq_ctx_term forever.
        try set(ZMQ_LINGER, Int32(200))
    }

    deinit { close() }

    private var h: UnsafeMutableRawPointer {
        guard let handle else { preconditionFailure("socket used after close") }
        return handle
    }

    // MARK: Options

    public func set(_ option: Int32, _ value: Int32) throws(ZMQError) {
        var v = value
        guard zmq_setsockopt(h, option, &v, MemoryLayout<Int32>.size) == 0 else { throw ZMQError("zmq_setsockopt(\(option))") }
    }

    public func set(_ option: Int32, _ value: Int64) throws(ZMQError) {
        var v = value
        guard zmq_setsockopt(h, option, &v, MemoryLayout<Int64>.size) == 0 else { throw ZMQError("zmq_setsockopt(\(option))") }
    }

    public func set(_ option: Int32, bytes: [UInt8]) throws(ZMQError) {
        let rc = bytes.withUnsafeBytes { zmq_setsockopt(h, option, $0.baseAddress, $0.count) }
        guard rc == 0 else { throw ZMQError("zmq_setsockopt(\(option))") }
    }

    func getInt32(_ option: Int32) -> Int32 {
        var v: Int32 = 0
        var size = MemoryLayout<Int32>.size
        zmq_getsockopt(h, option, &v, &size)
        return v
    }

    /// The descriptor libzmq signals for this socket. Edge-triggered: it says that
    /// something changed, not that a message is waiting; ask `hasInput`.
    public var fileDescriptor: Int32 {
        var fd: Int32 = -1
        var size = MemoryLayout<Int32>.size
        zmq_getsockopt(h, ZMQ_FD, &fd, &size)
        return fd
    }

    /// True if a message can be received now. Reading ZMQ_EVENTS also processes the
    /// socket's pending commands, which is what re-arms `fileDescriptor`.
    public var hasInput: Bool {
        let ready = getInt32(ZMQ_EVENTS) & Int32(ZMQ_POLLIN) != 0
        settled = !ready
        return ready
    }

    /// True when, since libzmq last said "nothing to receive", nothing has been
    /// sent or received on this socket: `fileDescriptor` is then armed, and
    /// `hasInput` (a system call in libzmq) need not be asked before sleeping.
    /// Any send or receive may process the socket's commands and swallow the edge.
    public private(set) var settled = false

    /// What the I/O loop asks before sleeping: is input waiting that
    /// `fileDescriptor` will not announce?
    public var isReadyBeforeSleep: Bool { handle != nil && !settled && hasInput }

    // MARK: Connections

    public func bind(_ endpoint: String) throws(ZMQError) {
        guard zmq_bind(h, endpoint) == 0 else { throw ZMQError("bind \(endpoint)") }
    }

    public func connect(_ endpoint: String) throws(ZMQError) {
        guard zmq_connect(h, endpoint) == 0 else { throw ZMQError("connect \(endpoint)") }
    }

    /// The endpoint actually bound (resolves `tcp://127.0.0.1:*`).
    public var lastEndpoint: String {
        var buf = [CChar](repeating: 0, count: 1024)
        var size = buf.count
        zmq_getsockopt(h, ZMQ_LAST_ENDPOINT, &buf, &size)
        return String(decoding: buf.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    // MARK: Messages

    /// Sends all frames as one message without blocking. Throws `EAGAIN` when the
    /// peer's queue is full (or, with `ZMQ_IMMEDIATE`, not connected) and
    /// `EHOSTUNREACH` for an unknown routing id under `ZMQ_ROUTER_MANDATORY`.
    /// libzmq sends a multipart message atomically: nothing is sent if the first frame fails.
    public func send(_ frames: [[UInt8]], blocking: Bool = false) throws(ZMQError) {
        try send(frames, from: 0, blocking: blocking)
    }

    /// Sends `frames[first...]` as one message: a link keeps the frames it sends in
    /// one reused array, and skips the routing-id slot when it has no peer to name.
    public func send(_ frames: [[UInt8]], from first: Int, blocking: Bool = false) throws(ZMQError) {
        settled = false
        let wait: Int32 = blocking ? 0 : ZMQ_DONTWAIT
        for i in first..<frames.count {
            let frame = frames[i]
            let flags = wait | (i == frames.count - 1 ? 0 : ZMQ_SNDMORE)
            while true {
                let rc = frame.withUnsafeBytes { zmq_send(h, $0.baseAddress, $0.count, flags) }
                if rc >= 0 { break }
                let e = zmq_errno()
                if e == EINTR { continue }
                throw ZMQError("zmq_send", errno: e)
            }
        }
    }

    /// Receives one whole message into `frames`, or returns nil if none is waiting.
    /// Returns how many frames there were; `frames` then holds the first
    /// `min(count, maxFrames)` of them. The arrays already in `frames` are refilled in
    /// place, so a caller that keeps `frames` receives without allocating.
    public func receive(into frames: inout [[UInt8]]) throws(ZMQError) -> Int? {
        var count = 0
        settled = false
        while true {
            if zmq_msg_recv(message, h, count > 0 ? 0 : ZMQ_DONTWAIT) < 0 {
                let e = zmq_errno()
                if e == EINTR { continue }
                if e == EAGAIN && count == 0 {
                    settled = true
                    return nil
                }
                throw ZMQError("zmq_msg_recv", errno: e)
            }
            if count < maxFrames {
                let data = UnsafeRawBufferPointer(start: zmq_msg_data(message), count: zmq_msg_size(message))
                if count < frames.count {
                    frames[count].removeAll(keepingCapacity: true)
                    frames[count].append(contentsOf: data)
                } else {
                    frames.append(Array(data))
                }
            }
            count += 1
            if zmq_msg_more(message) == 0 {
                let kept = min(count, maxFrames)
                if frames.count > kept { frames.removeLast(frames.count - kept) }
                return count
            }
        }
    }

    /// Closes the socket now; further use is a programming error.
    public func close(linger: Int32? = nil) {
        guard let handle else { return }
        if let linger { try? set(ZMQ_LINGER, linger) }
        zmq_close(handle)
        self.handle = nil
        zmq_msg_close(message)
        message.deallocate()
        context.socketClosed()
    }

    public var isOpen: Bool { handle != nil }
}
