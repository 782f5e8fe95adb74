import Foundation
import TrellisWire

/// One lane: the Unix stream socket a link's two ends in two processes carry their
/// messages over once both have switched to it, with no libzmq I/O thread at either
/// end (docs/TRANSPORT.md, "Lanes"). It writes what it is given in order, keeps what
/// the socket does not take yet, and reads what arrives into a `LaneReader`.
///
/// A lane belongs to its link and is touched only in the link's frames on the link's
/// loop thread, as the link's socket is: it is not `Sendable`, and needs no lock.
final class Lane {
    let fd: Int32
    /// Whose messages it carries: a child's id at a parent end, set once the child's
    /// token matched; the parent's at a child end.
    var peer: ControllerID?
    var reader = LaneReader()
    /// A parent end's connection not yet claimed: the token read from it so far, and
    /// when it was accepted (an unclaimed one is closed after the request timeout).
    var token: [UInt8] = []
    let accepted: UInt64
    var sourceID: Int?
    /// The bytes the socket has not taken yet, from `queuedStart` on, in order.
    private var queued: [UInt8] = []
    private var queuedStart = 0
    /// Set once a write failed (the peer is gone): nothing more is written. Its end is
    /// what the reading side sees, as the end of the stream.
    private(set) var failed: String?
    private(set) var isClosed = false

    /// The bytes a lane holds for a slow reader before it drops what it is given, as
    /// a link drops at its high-water mark.
    static let queueLimit = 64 * 1024 * 1024
    /// The size of a token: 32 random bytes, as a CURVE key is.
    static let tokenSize = 32

    init(fd: Int32, peer: ControllerID? = nil, accepted: UInt64 = 0) {
        self.fd = fd
        self.peer = peer
        self.accepted = accepted
    }

    var isWaitingToWrite: Bool { queuedStart < queued.count }
    /// What waits was written while its link was corked: it goes when the link uncorks,
    /// not when the socket is writable.
    var held = false

    enum WriteError: Error {
        /// The queue is over `queueLimit`: this message is dropped, the lane stays.
        case full
        /// The lane cannot be written any more.
        case failed(String)
    }

    /// Writes one message (`LaneFraming`): what the socket does not take now is queued
    /// and written when it is writable again (`flush`). `holding`: queued only, for a
    /// `flush` to write with what follows it.
    func write(header: [UInt8], body: [UInt8], holding: Bool = false) throws(WriteError) {
        if let failed { throw .failed(failed) }
        if holding { held = true }
        // A tuple, not an array: this runs for every message, and an array allocates.
        let prefix = LaneFraming.prefix(bodyCount: body.count)
        let total = LaneFraming.prefixSize + header.count + body.count
        var sent = 0
        if !isWaitingToWrite && !holding {
            let n = withUnsafeBytes(of: prefix) { a in
                header.withUnsafeBytes { b in
                    body.withUnsafeBytes { c in
                        UnixStream.send(fd, a, b, c)
                    }
                }
            }
            if n == total { return }
            if n < 0 {
                let e = errno
                guard e == EAGAIN || e == EWOULDBLOCK || e == EINTR else { throw fail(e) }
            } else {
                sent = n
            }
        } else if queued.count - queuedStart + total > Self.queueLimit {
            throw .full
        }
        // The rest, in order, after what waits already.
        withUnsafeBytes(of: prefix) { queue($0, from: sent) }
        header.withUnsafeBytes { queue($0, from: sent - LaneFraming.prefixSize) }
        body.withUnsafeBytes { queue($0, from: sent - LaneFraming.prefixSize - header.count) }
    }

    /// Queues what of `part` is left from its byte `from` on (negative: all of it).
    private func queue(_ part: UnsafeRawBufferPointer, from: Int) {
        if max(from, 0) < part.count { queued.append(contentsOf: part[max(from, 0)...]) }
    }

    /// Writes what is queued, as much as the socket takes.
    func flush() throws(WriteError) {
        if let failed { throw .failed(failed) }
        while isWaitingToWrite {
            let n = queued.withUnsafeBytes { q in
                UnixStream.send(fd, UnsafeRawBufferPointer(rebasing: q[queuedStart...]))
            }
            if n < 0 {
                let e = errno
                if e == EINTR { continue }
                if e == EAGAIN || e == EWOULDBLOCK { return }
                throw fail(e)
            }
            queuedStart += n
        }
        queued.removeAll(keepingCapacity: queued.capacity <= 1 << 20)
        queuedStart = 0
    }

    private func fail(_ e: Int32) -> WriteError {
        let why = "write failed: \(String(cString: strerror(e)))"
        failed = why
        return .failed(why)
    }

    static let endOfStream = "end of stream"

    enum Received {
        case bytes
        case nothing
        case ended(String)
    }

    /// Reads what the socket holds into `reader`.
    func receive() -> Received {
        while true {
            let n = reader.fill { free in UnixStream.receive(fd, into: free) }
            if n > 0 { return .bytes }
            if n == 0 { return .ended(Self.endOfStream) }
            let e = errno
            if e == EINTR { continue }
            if e == EAGAIN || e == EWOULDBLOCK { return .nothing }
            return .ended("read failed: \(String(cString: strerror(e)))")
        }
    }

    /// A child end's, first on a new connection: all of it or nothing (a new socket's
    /// buffer always has room for it).
    func writeToken(_ token: [UInt8]) -> Bool {
        token.withUnsafeBytes { UnixStream.send(fd, $0) } == token.count
    }

    /// A parent end's: reads the token, up to its size and no further, so that what
    /// follows it stays in the socket for `reader`. False when the stream ended first.
    func readToken() -> Bool {
        while token.count < Self.tokenSize {
            var chunk = [UInt8](repeating: 0, count: Self.tokenSize - token.count)
            let n = chunk.withUnsafeMutableBytes { UnixStream.receive(fd, into: $0) }
            if n > 0 { token += chunk.prefix(n); continue }
            let e = errno
            if n < 0 && e == EINTR { continue }
            return !(n == 0 || (n < 0 && e != EAGAIN && e != EWOULDBLOCK))
        }
        return true
    }

    func close() {
        guard !isClosed else { return }
        isClosed = true
        UnixStream.close(fd)
    }

    deinit { close() }
}
