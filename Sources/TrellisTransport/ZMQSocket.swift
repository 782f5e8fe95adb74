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

    // Unchecked exclusivity: the owning thread only reads and assigns these, once
    // per libzmq call, where a run-time check cost more than the assignment.
    @exclusivity(unchecked) private var handle: UnsafeMutableRawPointer?
    private let context: ZMQContext
    /// One `zmq_msg_t` per frame kept, plus one for the frames beyond them,
    /// reused for every receive: heap-allocated once so that no `zmq_msg_t` is
    /// ever copied by value (libzmq forbids it). A receive leaves libzmq's buffers
    /// in them, to be read in place.
    private let messages: UnsafeMutablePointer<zmq_msg_t>
    /// Frames beyond this many in one message are consumed and counted, not kept.
    public static let maxFrames = 8

    public init(_ kind: Kind, context: ZMQContext = .shared) throws(ZMQError) {
        guard let h = zmq_socket(context.handle, kind.raw) else { throw ZMQError("zmq_socket") }
        handle = h
        self.context = context
        messages = .allocate(capacity: Self.maxFrames + 1)
        for i in 0...Self.maxFrames { zmq_msg_init(messages + i) }
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
    @exclusivity(unchecked) public private(set) var settled = false

    /// What the I/O loop asks before sleeping: is input waiting that
    /// `fileDescriptor` will not announce?
    public var isReadyBeforeSleep: Bool { handle != nil && !settled && hasInput }

    /// Waits up to `timeoutMilliseconds` for a message to receive (zmq_poll); true if
    /// one is waiting. For a thread that has nothing else to wait for.
    public func poll(timeoutMilliseconds: Int) -> Bool {
        var item = zmq_pollitem_t(socket: h, fd: 0, events: Int16(ZMQ_POLLIN), revents: 0)
        return zmq_poll(&item, 1, timeoutMilliseconds) > 0 && item.revents & Int16(ZMQ_POLLIN) != 0
    }

    /// What `poll(orReadable:)` woke for.
    enum Readiness {
        /// A message can be received.
        case message
        /// The descriptor is readable, or a signal interrupted the wait (EINTR): the
        /// caller checks its own reason to stop.
        case other
        /// The context is being terminated: nothing will come again.
        case terminated
    }

    /// Waits, with no limit, until a message can be received or `fd` is readable.
    func poll(orReadable fd: Int32) -> Readiness {
        var items = [
            zmq_pollitem_t(socket: h, fd: 0, events: Int16(ZMQ_POLLIN), revents: 0),
            zmq_pollitem_t(socket: nil, fd: fd, events: Int16(ZMQ_POLLIN), revents: 0),
        ]
        guard zmq_poll(&items, 2, -1) >= 0 else { return zmq_errno() == ETERM ? .terminated : .other }
        return items[0].revents & Int16(ZMQ_POLLIN) != 0 ? .message : .other
    }

    // MARK: Connections

    public func bind(_ endpoint: String) throws(ZMQError) {
        guard zmq_bind(h, endpoint) == 0 else { throw ZMQError("bind \(endpoint)") }
    }

    /// Gives `endpoint` up. For `inproc://` at once, where closing the socket gives it up
    /// only once libzmq's reaper thread has the socket: a bind right after a close may
    /// still find it taken.
    public func unbind(_ endpoint: String) throws(ZMQError) {
        guard zmq_unbind(h, endpoint) == 0 else { throw ZMQError("unbind \(endpoint)") }
    }

    public func connect(_ endpoint: String) throws(ZMQError) {
        guard zmq_connect(h, endpoint) == 0 else { throw ZMQError("connect \(endpoint)") }
    }

    /// Has libzmq report `events` of this socket on a PAIR socket it binds at
    /// `endpoint` (inproc), until this socket closes.
    public func monitor(_ endpoint: String, events: Int32) throws(ZMQError) {
        guard zmq_socket_monitor(h, endpoint, events) == 0 else { throw ZMQError("zmq_socket_monitor \(endpoint)") }
    }

    /// Stops `monitor`'s reports.
    public func stopMonitor() {
        zmq_socket_monitor(h, nil, 0)
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
        for (i, frame) in frames.enumerated() { try send(frame: frame, more: i < frames.count - 1, blocking: blocking) }
    }

    /// Sends one frame of a message; `more` when frames of the same message follow.
    public func send(frame: [UInt8], more: Bool, blocking: Bool = false) throws(ZMQError) {
        try frame.withUnsafeBytes { p in
            Result { () throws(ZMQError) in try send(frame: p, more: more, blocking: blocking) }
        }.get()
    }

    /// Sends a string's UTF-8 as one frame of a message (a routing id), without
    /// copying it into an array first.
    public func send(frame text: String, more: Bool, blocking: Bool = false) throws(ZMQError) {
        var text = text
        try text.withUTF8 { p in
            Result { () throws(ZMQError) in try send(frame: UnsafeRawBufferPointer(p), more: more, blocking: blocking) }
        }.get()
    }

    /// Sends one frame of a message; `more` when frames of the same message follow.
    /// libzmq sends a multipart message atomically: if its first frame is refused,
    /// nothing was queued, and once the first is accepted so are the others.
    public func send(frame: UnsafeRawBufferPointer, more: Bool, blocking: Bool = false) throws(ZMQError) {
        settled = false
        let flags = (blocking ? 0 : ZMQ_DONTWAIT) | (more ? ZMQ_SNDMORE : 0)
        while zmq_send(h, frame.baseAddress, frame.count, flags) < 0 {
            let e = zmq_errno()
            if e != EINTR { throw ZMQError("zmq_send", errno: e) }
        }
    }

    /// Receives one whole message and hands its frames to `body` where libzmq put
    /// them, without copying; returns what `body` returns, or nil if no message is
    /// waiting. The frames are valid only inside `body`: a receive decodes what it
    /// needs and copies nothing else.
    public func receive<Result>(_ body: (ReceivedFrames) -> Result) throws(ZMQError) -> Result? {
        var count = 0
        settled = false
        while true {
            let slot = messages + min(count, Self.maxFrames)
            if zmq_msg_recv(slot, h, count > 0 ? 0 : ZMQ_DONTWAIT) < 0 {
                let e = zmq_errno()
                if e == EINTR { continue }
                if e == EAGAIN && count == 0 {
                    settled = true
                    return nil
                }
                throw ZMQError("zmq_msg_recv", errno: e)
            }
            count += 1
            if zmq_msg_more(slot) == 0 {
                return body(ReceivedFrames(messages: messages, count: count))
            }
        }
    }

    /// Closes the socket now; further use is a programming error.
    public func close(linger: Int32? = nil) {
        guard let handle else { return }
        if let linger { try? set(ZMQ_LINGER, linger) }
        zmq_close(handle)
        self.handle = nil
        for i in 0...Self.maxFrames { zmq_msg_close(messages + i) }
        messages.deallocate()
        context.socketClosed()
    }

    public var isOpen: Bool { handle != nil }
}

/// The frames of the message a `ZMQSocket` just received, read in place.
public struct ReceivedFrames {
    fileprivate let messages: UnsafeMutablePointer<zmq_msg_t>

    /// How many frames the message had, kept or not.
    public let count: Int

    /// How many of them can be read: at most `ZMQSocket.maxFrames`.
    public var kept: Int { min(count, ZMQSocket.maxFrames) }

    /// Frame `i` (below `kept`), valid while the `receive` that made these frames runs.
    public subscript(i: Int) -> UnsafeRawBufferPointer {
        precondition(i >= 0 && i < kept, "frame \(i) of \(kept) kept")
        return UnsafeRawBufferPointer(start: zmq_msg_data(messages + i), count: zmq_msg_size(messages + i))
    }

    /// A property libzmq attached to frame `i` (zmq_msg_gets): `User-Id`, the id the ZAP
    /// handler admitted the connection as; `Socket-Type`, `Peer-Address`.
    public func property(_ name: String, ofFrame i: Int) -> String? {
        precondition(i >= 0 && i < kept, "frame \(i) of \(kept) kept")
        return zmq_msg_gets(messages + i, name).map { String(cString: $0) }
    }

    /// The bytes of the frames kept.
    public var byteCount: Int {
        (0..<kept).reduce(0) { $0 + zmq_msg_size(messages + $1) }
    }
}
