import Foundation
import SeededRandom
import Synchronization
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
        /// A peer that stopped heartbeating; or a request that failed before its
        /// deadline because its peer is known not to answer (restarted or lost).
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
    /// What the message said, in a few words, where that is what a reader of the log
    /// needs: an appearance phase, a containment's new parent, a placement's frame.
    public var detail: String?

    public init(
        mono: UInt64 = MonotonicClock.nanoseconds(), wall: UInt64 = WallClock.nanoseconds(),
        host: String, pid: Int32 = ProcessIdentity.pid, at: String, source: String, target: String,
        kind: String, sequence: UInt64 = 0, trace: UInt64 = 0, bytes: Int = 0, outcome: Outcome,
        via: String = "", reason: String? = nil, detail: String? = nil
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
        self.detail = detail
    }

    enum CodingKeys: String, CodingKey {
        case mono = "mono_ns", wall = "time", host, pid, at, source = "src", target = "dst", kind
        case sequence = "seq", trace, bytes, outcome, via, reason, detail
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
        detail = try c.decodeIfPresent(String.self, forKey: .detail)
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
        try c.encodeIfPresent(detail, forKey: .detail)
    }

    /// Appends this record as one JSON line (the routing log's own format, written by
    /// `JSONLineWriter`, which the log's writer thread uses directly).
    public func appendJSON(to out: inout [UInt8]) {
        var w = JSONLineWriter(capacity: 512)
        w.append(self)
        out.append(contentsOf: w.bytes)
        w.deallocate()
    }
}

/// This process's id, asked once: `getpid()` is a system call on glibc, and a
/// record is made for every message.
public enum ProcessIdentity {
    public static let pid: Int32 = getpid()
}

/// Trace ids are 64-bit and printed as 16 hex digits (JSON numbers lose precision past 2^53).
public enum TraceID {
    public static func hex(_ v: UInt64) -> String {
        var out: [UInt8] = []
        append(v, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends the 16 lowercase hex digits of `v`.
    public static func append(_ v: UInt64, to out: inout [UInt8]) {
        for shift in stride(from: 60, through: 0, by: -4) {
            out.append(JSONText.hexDigits[Int((v >> UInt64(shift)) & 15)])
        }
    }
    /// A fresh non-zero trace id, never repeated within a process and unlike another
    /// process's (a trace id names, it guards nothing): the `n`th value of a SplitMix64
    /// sequence from a random seed drawn once. One `getrandom(2)` per input, which
    /// `UInt64.random` costs, was a system call on every click and key the terminal reads
    /// (issue 20).
    public static func make() -> UInt64 {
        let n = counter.wrappingAdd(1, ordering: .relaxed).oldValue
        // The sequence's `n`th value, without keeping a generator under a lock.
        var generator = SplitMix64(seed: start &+ n &* 0x9E37_79B9_7F4A_7C15)
        let id = generator.next()
        return id == 0 ? 1 : id
    }

    private static let start = UInt64.random(in: 0...UInt64.max)
    private static let counter = Atomic<UInt64>(0)
}

enum JSONText {
    static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    /// Appends `v` in decimal (with a minus sign if `negative`, `v` then being the
    /// two's-complement bit pattern of the negative number).
    static func appendDecimal(_ v: UInt64, negative: Bool = false, to out: inout [UInt8]) {
        var value = negative ? UInt64(bitPattern: -Int64(bitPattern: v)) : v
        if negative { out.append(UInt8(ascii: "-")) }
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                     UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var count = 0
        withUnsafeMutableBytes(of: &digits) { buf in
            repeat {
                buf[19 - count] = UInt8(ascii: "0") + UInt8(value % 10)
                value /= 10
                count += 1
            } while value > 0
            out.append(contentsOf: buf[(20 - count)...])
        }
    }

    /// Appends `v` in decimal, zero-padded to `width` digits.
    static func appendPadded(_ v: Int, width: Int, to out: inout [UInt8]) {
        var divisor = 1
        for _ in 1..<width { divisor *= 10 }
        var rest = v
        while divisor > 0 {
            out.append(UInt8(ascii: "0") + UInt8(rest / divisor % 10))
            rest %= divisor
            divisor /= 10
        }
    }

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
                out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), hexDigits[Int(b >> 4)], hexDigits[Int(b & 15)]])
            default: out.append(b)
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}
