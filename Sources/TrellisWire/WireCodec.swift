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

    public static func encodeHeader(_ e: Envelope) -> [UInt8] {
        var w = ByteWriter(capacity: headerSize)
        w.u16(e.kind.rawValue); w.u16(e.flags.rawValue); w.u32(0)
        w.u64(e.sequence); w.u64(e.trace); w.u64(e.correlation)
        w.paddedID(e.source); w.paddedID(e.target)
        return w.bytes
    }

    /// Decodes the frames of one message, or says exactly why not.
    public static func decode(_ frames: [[UInt8]]) throws(Rejection) -> Envelope {
        guard frames.count == frameCount else {
            throw Rejection(.malformedFrames, "expected \(frameCount) frames (delimiter, protocol, header, body), got \(frames.count)")
        }
        guard frames[0].isEmpty else {
            throw Rejection(.malformedFrames, "the first frame must be the empty delimiter, got \(frames[0].count) bytes")
        }
        let proto = frames[1]
        guard proto.count == protocolFrame.count, proto.prefix(3).elementsEqual(protocolFrame.prefix(3)) else {
            throw Rejection(.malformedFrames, "the protocol frame is not \"TRL\" and a version byte")
        }
        guard proto[3] == version else {
            throw Rejection(.unsupportedVersion, "protocol version \(proto[3]) is not supported; this peer speaks \(version)")
        }
        let header = try WireHeader(decoding: frames[2])
        guard let kind = MessageKind(rawValue: header.kind) else {
            throw Rejection(.unknownKind, "message kind \(header.kind) is unknown", header: header)
        }
        let flags = EnvelopeFlags(rawValue: header.flags)
        guard EnvelopeFlags.known.isSuperset(of: flags) else {
            throw Rejection(.unsupportedFlags, "flag bits 0x\(String(header.flags, radix: 16)) are not supported", header: header)
        }
        let body = frames[3]
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

    init(decoding bytes: [UInt8]) throws(Rejection) {
        guard bytes.count == WireCodec.headerSize else {
            throw Rejection(.malformedHeader, "header is \(bytes.count) bytes, expected \(WireCodec.headerSize)")
        }
        func u64(_ at: Int) -> UInt64 { (0..<8).reduce(0) { $0 | UInt64(bytes[at + $1]) << UInt64(8 * $1) } }
        kind = UInt16(bytes[0]) | UInt16(bytes[1]) << 8
        flags = UInt16(bytes[2]) | UInt16(bytes[3]) << 8
        guard bytes[4..<8].allSatisfy({ $0 == 0 }) else {
            throw Rejection(.malformedHeader, "reserved header bytes 4…7 are not zero")
        }
        sequence = u64(8)
        trace = u64(16)
        correlation = u64(24)
        guard let source = Self.id(bytes[32..<64]) else {
            throw Rejection(.malformedHeader, "source is not a valid controller id")
        }
        guard let target = Self.id(bytes[64..<96]) else {
            throw Rejection(.malformedHeader, "target is not a valid controller id")
        }
        self.source = source
        self.target = target
    }

    /// An id padded with zeros: the bytes before the first zero, all zeros after it.
    private static func id(_ field: ArraySlice<UInt8>) -> ControllerID? {
        let end = field.firstIndex(of: 0) ?? field.endIndex
        guard field[end...].allSatisfy({ $0 == 0 }) else { return nil }
        return ControllerID(bytes: field[..<end])
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
