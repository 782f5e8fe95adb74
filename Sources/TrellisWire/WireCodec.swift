/// Turns envelopes into the frames of docs/PROTOCOL.md and back.
///
/// Frames after the routing id (which ZeroMQ's ROUTER adds and strips):
/// `[empty delimiter] [protocol "TRL"+version] [96-byte header] [body]`.
public enum WireCodec {
    public static let version: UInt8 = 1
    public static let protocolFrame: [UInt8] = [0x54, 0x52, 0x4C, version]  // "TRL" 1
    public static let headerSize = 96
    public static let frameCount = 4

    /// The four frames of an envelope.
    public static func encode(_ envelope: Envelope) -> [[UInt8]] {
        [[], protocolFrame, encodeHeader(envelope), envelope.message.encodeBody()]
    }

    /// The header of `e` in a new array.
    public static func encodeHeader(_ e: Envelope) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: headerSize)
        bytes.withUnsafeMutableBytes { encodeHeader(e, into: $0) }
        return bytes
    }

    /// Writes the header of `e` into `p`, `headerSize` bytes: a link encodes every
    /// message it sends into the same buffer. Stores the fields in place rather
    /// than appending byte by byte: this runs for every message sent.
    public static func encodeHeader(_ e: Envelope, into p: UnsafeMutableRawBufferPointer) {
        precondition(p.count == headerSize, "a header is \(headerSize) bytes")
        p.storeBytes(of: e.kind.rawValue.littleEndian, toByteOffset: 0, as: UInt16.self)
        p.storeBytes(of: e.flags.rawValue.littleEndian, toByteOffset: 2, as: UInt16.self)
        p.storeBytes(of: UInt32(0), toByteOffset: 4, as: UInt32.self)
        p.storeBytes(of: e.sequence.littleEndian, toByteOffset: 8, as: UInt64.self)
        p.storeBytes(of: e.trace.littleEndian, toByteOffset: 16, as: UInt64.self)
        p.storeBytes(of: e.correlation.littleEndian, toByteOffset: 24, as: UInt64.self)
        storePaddedID(e.source, into: UnsafeMutableRawBufferPointer(rebasing: p[32..<64]))
        storePaddedID(e.target, into: UnsafeMutableRawBufferPointer(rebasing: p[64..<96]))
    }

    /// An id's bytes followed by zeros up to `ControllerID.maxLength`.
    private static func storePaddedID(_ id: ControllerID, into field: UnsafeMutableRawBufferPointer) {
        field.initializeMemory(as: UInt8.self, repeating: 0)
        var text = id.rawValue
        text.withUTF8 { field.copyMemory(from: UnsafeRawBufferPointer($0)) }
    }

    /// Decodes the frames of one message, or says exactly why not. The message's
    /// frames start at `first`, so a ROUTER's routing-id frame can stay in place
    /// rather than be removed by copying the array.
    public static func decode(_ frames: [[UInt8]], from first: Int = 0) throws(Rejection) -> Envelope {
        guard frames.count - first == frameCount else {
            throw Rejection(.malformedFrames, "expected \(frameCount) frames (delimiter, protocol, header, body), got \(frames.count - first)")
        }
        var ids = ControllerIDCache()
        return try frames[first].withUnsafeBytes { delimiter in
            frames[first + 1].withUnsafeBytes { proto in
                frames[first + 2].withUnsafeBytes { header in
                    frames[first + 3].withUnsafeBytes { body in
                        Result { () throws(Rejection) in
                            try decode(delimiter: delimiter, protocolFrame: proto, header: header, body: body, ids: &ids)
                        }
                    }
                }
            }
        }.get()
    }

    /// Decodes one message from its four frames where they lie (a link's receive
    /// buffers), or says exactly why not. `ids` keeps the ids of the fields read,
    /// so that a link reading the same peers again builds none of them again.
    public static func decode(
        delimiter: UnsafeRawBufferPointer, protocolFrame proto: UnsafeRawBufferPointer, header headerFrame: UnsafeRawBufferPointer,
        body: UnsafeRawBufferPointer, ids: inout ControllerIDCache
    ) throws(Rejection) -> Envelope {
        guard delimiter.isEmpty else {
            throw Rejection(.malformedFrames, "the first frame must be the empty delimiter, got \(delimiter.count) bytes")
        }
        guard proto.count == protocolFrame.count, proto.prefix(3).elementsEqual(protocolFrame.prefix(3)) else {
            throw Rejection(.malformedFrames, "the protocol frame is not \"TRL\" and a version byte")
        }
        guard proto[3] == version else {
            throw Rejection(.unsupportedVersion, "protocol version \(proto[3]) is not supported; this peer speaks \(version)")
        }
        return try decode(header: headerFrame, body: body, ids: &ids)
    }

    /// Decodes one message from its header and body, or says exactly why not: the part
    /// of `decode(delimiter:…)` after the frames ZeroMQ carries, and all a lane carries
    /// (docs/TRANSPORT.md, "Lanes"), whose version its link's hello settled.
    public static func decode(
        header headerFrame: UnsafeRawBufferPointer, body: UnsafeRawBufferPointer, ids: inout ControllerIDCache
    ) throws(Rejection) -> Envelope {
        let header = try WireHeader(decoding: headerFrame, ids: &ids)
        guard let kind = MessageKind(rawValue: header.kind) else {
            throw Rejection(.unknownKind, "message kind \(header.kind) is unknown", header: header)
        }
        let flags = EnvelopeFlags(rawValue: header.flags)
        guard EnvelopeFlags.known.isSuperset(of: flags) else {
            throw Rejection(.unsupportedFlags, "flag bits 0x\(String(header.flags, radix: 16)) are not supported", header: header)
        }
        guard body.count <= kind.maxBodySize else {
            throw Rejection(.oversizedBody, "\(kind.name) body is \(body.count) bytes, at most \(kind.maxBodySize) allowed", header: header)
        }
        let message: Message
        do {
            message = try Message.decodeBody(kind: kind, body)
        } catch {
            throw Rejection(error, header: header)
        }
        return Envelope(
            sequence: header.sequence, trace: header.trace, correlation: header.correlation,
            source: header.source, target: header.target, flags: flags, message: message)
    }
}

/// The fixed header as read from the wire, before the kind is known to be valid.
public struct WireHeader: Sendable, Equatable {
    public var kind: UInt16
    public var flags: UInt16
    public var sequence: UInt64
    public var trace: UInt64
    public var correlation: UInt64
    public var source: ControllerID
    public var target: ControllerID

    /// The header of a well-formed envelope.
    public init(_ e: Envelope) {
        kind = e.kind.rawValue
        flags = e.flags.rawValue
        sequence = e.sequence
        trace = e.trace
        correlation = e.correlation
        source = e.source
        target = e.target
    }

    init(decoding bytes: UnsafeRawBufferPointer, ids: inout ControllerIDCache) throws(Rejection) {
        guard bytes.count == WireCodec.headerSize else {
            throw Rejection(.malformedHeader, "header is \(bytes.count) bytes, expected \(WireCodec.headerSize)")
        }
        func u16(_ at: Int) -> UInt16 { UInt16(littleEndian: bytes.loadUnaligned(fromByteOffset: at, as: UInt16.self)) }
        func u64(_ at: Int) -> UInt64 { UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: at, as: UInt64.self)) }
        kind = u16(0)
        flags = u16(2)
        guard bytes.loadUnaligned(fromByteOffset: 4, as: UInt32.self) == 0 else {
            throw Rejection(.malformedHeader, "reserved header bytes 4…7 are not zero")
        }
        sequence = u64(8)
        trace = u64(16)
        correlation = u64(24)
        guard let source = ids.id(inField: UnsafeRawBufferPointer(rebasing: bytes[32..<64])) else {
            throw Rejection(.malformedHeader, "source is not a valid controller id")
        }
        guard let target = ids.id(inField: UnsafeRawBufferPointer(rebasing: bytes[64..<96])) else {
            throw Rejection(.malformedHeader, "target is not a valid controller id")
        }
        self.source = source
        self.target = target
    }
}

/// Why a message was not accepted, with as much of its header as could be read so
/// the error reply can name the sender and the sequence it answers.
public struct Rejection: Error, Sendable, CustomStringConvertible {
    public var error: WireError
    public var header: WireHeader?

    public init(_ code: WireErrorCode, _ text: String, header: WireHeader? = nil) {
        self.init(WireError(code, text), header: header)
    }
    public init(_ error: WireError, header: WireHeader? = nil) {
        self.error = error
        self.header = header
    }
    public var description: String { error.description }
}
