/// How messages lie on a lane, a link's Unix stream socket (docs/TRANSPORT.md, "Lanes"):
/// each is the length of its body (u32, little-endian), its 96-byte header and its body,
/// back to back. A stream has no frames of its own, so the length is what keeps them apart.
public enum LaneFraming {
    public static let prefixSize = 4
    /// The largest body a lane carries: the bound libzmq puts on a link's frames
    /// (ZMQ_MAXMSGSIZE), so that a message is refused alike on either path.
    public static let maxBody = WireLimits.maxSocketFrame

    /// The length prefix of a message whose body is `bodyCount` bytes.
    public static func prefix(bodyCount: Int) -> (UInt8, UInt8, UInt8, UInt8) {
        let n = UInt32(bodyCount)
        return (UInt8(truncatingIfNeeded: n), UInt8(truncatingIfNeeded: n >> 8), UInt8(truncatingIfNeeded: n >> 16),
                UInt8(truncatingIfNeeded: n >> 24))
    }

    /// `envelope` as it lies on a lane: for tests, fuzz seeds and peers in other languages.
    public static func encode(_ envelope: Envelope) -> [UInt8] {
        let body = envelope.message.encodeBody()
        let p = prefix(bodyCount: body.count)
        return [p.0, p.1, p.2, p.3] + WireCodec.encodeHeader(envelope) + body
    }
}

/// The receiving side of a lane: bytes as the stream brings them, in any pieces, and
/// the messages they hold once whole.
///
/// The buffer keeps its size between reads, and the bytes of messages taken are dropped
/// by moving what is left to the front only when room is needed at the end: a read
/// allocates nothing once the buffer is as large as the largest message.
public struct LaneReader: Sendable {
    private var buffer: [UInt8]
    /// What is buffered and not yet taken: `buffer[start..<end]`.
    private var start = 0
    private var end = 0
    /// Set by a length over the limit: after it, nothing on the stream can be trusted.
    public private(set) var broken = false
    /// The bytes of the stream taken so far, as messages or refused ones.
    public private(set) var taken = 0

    /// Small to start: a host holds a lane per link, and most messages are a few hundred
    /// bytes (`bench scale`'s 64 hosts paid 13 MB of PSS for 64 KiB each); it grows,
    /// doubling, to the largest message it is sent.
    public init(capacity: Int = 4 * 1024) {
        buffer = [UInt8](repeating: 0, count: max(capacity, LaneFraming.prefixSize + WireCodec.headerSize))
    }

    public var bufferedCount: Int { end - start }

    /// Whether a whole message (or a length that breaks the stream) waits to be taken.
    public var hasWholeMessage: Bool {
        guard let body = bodyLength else { return false }
        return body > LaneFraming.maxBody || end - start >= LaneFraming.prefixSize + WireCodec.headerSize + body
    }

    private var bodyLength: Int? {
        guard end - start >= LaneFraming.prefixSize else { return nil }
        return Int(buffer[start]) | Int(buffer[start + 1]) << 8 | Int(buffer[start + 2]) << 16 | Int(buffer[start + 3]) << 24
    }

    /// Lets `read` write into the free space at the end of the buffer (made at least
    /// `minimum` bytes) and keeps the count it returns; returns that count (≤ 0 is kept
    /// as nothing read). The buffer grows with what arrives, not with what a length
    /// claims: a peer that announces 4 MiB and sends nothing costs nothing.
    public mutating func fill(minimum: Int = 2 * 1024, _ read: (UnsafeMutableRawBufferPointer) -> Int) -> Int {
        makeRoom(minimum)
        let n = buffer.withUnsafeMutableBytes { all in
            read(UnsafeMutableRawBufferPointer(rebasing: all[end...]))
        }
        if n > 0 { end += n }
        return n
    }

    /// Appends `bytes` (a test's or the fuzz target's stream).
    public mutating func append(_ bytes: some Collection<UInt8>) {
        var rest = bytes[...]
        while !rest.isEmpty {
            _ = fill(minimum: rest.count) { free in
                let n = min(free.count, rest.count)
                free.copyBytes(from: rest.prefix(n))
                rest = rest.dropFirst(n)
                return n
            }
        }
    }

    /// The next whole message and the bytes it took on the stream, nil until one is
    /// whole. Throws for a length over `LaneFraming.maxBody` (and from then on: the
    /// stream is `broken`), or for a message that does not decode — which is taken, so
    /// the stream itself stays readable; what to do about it is the link's decision.
    public mutating func next(ids: inout ControllerIDCache) throws(Rejection) -> (Envelope, bytes: Int)? {
        guard let body = bodyLength else { return nil }
        guard !broken, body <= LaneFraming.maxBody else {
            broken = true
            throw Rejection(.oversizedBody, "a lane message's body is \(body) bytes, at most \(LaneFraming.maxBody) allowed")
        }
        let total = LaneFraming.prefixSize + WireCodec.headerSize + body
        guard end - start >= total else { return nil }
        let headerAt = start + LaneFraming.prefixSize
        defer {
            start += total
            taken += total
            if start == end { start = 0; end = 0 }
        }
        let end = start + total
        let decoded = buffer.withUnsafeBytes { all in
            Result { () throws(Rejection) in
                try WireCodec.decode(
                    header: UnsafeRawBufferPointer(rebasing: all[headerAt..<headerAt + WireCodec.headerSize]),
                    body: UnsafeRawBufferPointer(rebasing: all[headerAt + WireCodec.headerSize..<end]), ids: &ids)
            }
        }
        return (try decoded.get(), total)
    }

    /// At least `count` free bytes after `end`: what is buffered moves to the front
    /// first, and the buffer grows only if that is not enough.
    private mutating func makeRoom(_ count: Int) {
        if buffer.count - end >= count { return }
        let held = end - start
        if start > 0 {
            buffer.withUnsafeMutableBytes { p in
                guard let base = p.baseAddress else { return }
                base.copyMemory(from: base + start, byteCount: held)
            }
            start = 0
            end = held
        }
        if buffer.count - end < count {
            buffer.append(contentsOf: repeatElement(0, count: max(count - (buffer.count - end), buffer.count)))
        }
    }
}
