import Foundation
import TrellisWire

/// One line of the routing log: something a link did with one message.
public struct RoutingRecord: Sendable, Equatable, Codable {
    /// What happened to the message at the end of the link that wrote the line.
    public enum Outcome: String, Sendable, Codable, CaseIterable {
        /// Handed to the socket (or the same-process path) for the peer.
        case sent
        /// Consumed by the link itself (ack, heartbeat, hello, reply matching).
        case received
        /// Handed to the target controller's handler.
        case delivered
        /// Not accepted: malformed, unknown kind or target; an error reply went back.
        case rejected
        /// Lost on purpose or by necessity: no route, a full queue, a closed link.
        case dropped
        /// A request whose answer did not come in time.
        case timeout
        /// A peer that stopped heartbeating.
        case lost
        /// A decision or event that is not a message (supervisor, link lifecycle).
        case event
    }

    /// CLOCK_MONOTONIC nanoseconds: comparable across the processes of one machine.
    public var mono: UInt64
    /// Wall-clock nanoseconds since 1970, for people.
    public var wall: UInt64
    /// The process role that wrote the line (a controller host, "compositor", …).
    public var host: String
    public var pid: Int32
    /// The local end of the link: the controller (or endpoint) that wrote the line.
    public var at: String
    public var source: String
    public var target: String
    public var kind: String
    public var sequence: UInt64
    public var trace: UInt64
    public var bytes: Int
    public var outcome: Outcome
    /// How the message travelled: "ipc", "tcp", "inproc", or "local" (same-process fast path).
    public var via: String
    /// Why, when the outcome is not `sent`, `received` or `delivered`.
    public var reason: String?

    public init(
        mono: UInt64 = MonotonicClock.nanoseconds(), wall: UInt64 = WallClock.nanoseconds(),
        host: String, pid: Int32 = getpid(), at: String, source: String, target: String,
        kind: String, sequence: UInt64 = 0, trace: UInt64 = 0, bytes: Int = 0, outcome: Outcome,
        via: String = "", reason: String? = nil
    ) {
        self.mono = mono
        self.wall = wall
        self.host = host
        self.pid = pid
        self.at = at
        self.source = source
        self.target = target
        self.kind = kind
        self.sequence = sequence
        self.trace = trace
        self.bytes = bytes
        self.outcome = outcome
        self.via = via
        self.reason = reason
    }

    enum CodingKeys: String, CodingKey {
        case mono = "mono_ns", wall = "time", host, pid, at, source = "src", target = "dst", kind
        case sequence = "seq", trace, bytes, outcome, via, reason
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        mono = try c.decode(UInt64.self, forKey: .mono)
        let time = try c.decode(String.self, forKey: .wall)
        guard let wall = WallClock.parse(time) else {
            throw DecodingError.dataCorruptedError(forKey: .wall, in: c, debugDescription: "not an RFC 3339 UTC time: \(time)")
        }
        self.wall = wall
        host = try c.decode(String.self, forKey: .host)
        pid = try c.decode(Int32.self, forKey: .pid)
        at = try c.decode(String.self, forKey: .at)
        source = try c.decode(String.self, forKey: .source)
        target = try c.decode(String.self, forKey: .target)
        kind = try c.decode(String.self, forKey: .kind)
        sequence = try c.decode(UInt64.self, forKey: .sequence)
        let traceHex = try c.decode(String.self, forKey: .trace)
        guard let trace = UInt64(traceHex, radix: 16) else {
            throw DecodingError.dataCorruptedError(forKey: .trace, in: c, debugDescription: "trace is not hex: \(traceHex)")
        }
        self.trace = trace
        bytes = try c.decode(Int.self, forKey: .bytes)
        outcome = try c.decode(Outcome.self, forKey: .outcome)
        via = try c.decode(String.self, forKey: .via)
        reason = try c.decodeIfPresent(String.self, forKey: .reason)
    }

    /// Writes the same JSON the hand-written `appendJSON` does; kept for `Codable` users.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(mono, forKey: .mono)
        try c.encode(WallClock.format(wall), forKey: .wall)
        try c.encode(host, forKey: .host)
        try c.encode(pid, forKey: .pid)
        try c.encode(at, forKey: .at)
        try c.encode(source, forKey: .source)
        try c.encode(target, forKey: .target)
        try c.encode(kind, forKey: .kind)
        try c.encode(sequence, forKey: .sequence)
        try c.encode(TraceID.hex(trace), forKey: .trace)
        try c.encode(bytes, forKey: .bytes)
        try c.encode(outcome, forKey: .outcome)
        try c.encode(via, forKey: .via)
        try c.encodeIfPresent(reason, forKey: .reason)
    }

    /// Appends this record as one JSON line. Hand-written because the log thread
    /// formats hundreds of thousands of lines a second; `JSONEncoder` cannot.
    public func appendJSON(to out: inout [UInt8]) {
        func key(_ k: StaticString) {
            out.append(UInt8(ascii: "\""))
            k.withUTF8Buffer { out.append(contentsOf: $0) }
            out.append(contentsOf: [UInt8(ascii: "\""), UInt8(ascii: ":")])
        }
        func number<N: BinaryInteger>(_ k: StaticString, _ v: N) { key(k); out.append(contentsOf: String(v).utf8); out.append(UInt8(ascii: ",")) }
        func string(_ k: StaticString, _ v: String) { key(k); JSONText.appendQuoted(v, to: &out); out.append(UInt8(ascii: ",")) }
        out.append(UInt8(ascii: "{"))
        number("mono_ns", mono)
        string("time", WallClock.format(wall))
        string("host", host)
        number("pid", pid)
        string("at", at)
        string("src", source)
        string("dst", target)
        string("kind", kind)
        number("seq", sequence)
        string("trace", TraceID.hex(trace))
        number("bytes", bytes)
        string("outcome", outcome.rawValue)
        string("via", via)
        if let reason { string("reason", reason) }
        out[out.count - 1] = UInt8(ascii: "}")
        out.append(UInt8(ascii: "\n"))
    }
}

/// Trace ids are 64-bit and printed as 16 hex digits (JSON numbers lose precision past 2^53).
public enum TraceID {
    public static func hex(_ v: UInt64) -> String {
        let s = String(v, radix: 16)
        return String(repeating: "0", count: 16 - s.count) + s
    }
    /// A fresh random non-zero trace id.
    public static func make() -> UInt64 { UInt64.random(in: 1...UInt64.max) }
}

enum JSONText {
    static func appendQuoted(_ s: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for b in s.utf8 {
            switch b {
            case UInt8(ascii: "\""): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case UInt8(ascii: "\n"): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case UInt8(ascii: "\r"): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case UInt8(ascii: "\t"): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), hex[Int(b >> 4)], hex[Int(b & 15)]])
            default: out.append(b)
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}
