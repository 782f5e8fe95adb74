import Foundation

/// Formats routing records into raw memory, for the log's writer thread.
///
/// The writer formats every line the process logs — hundreds of thousands a second
/// in the transport benchmark's fan-out — on the same two cores the I/O threads
/// need. Appending byte by byte to an `[UInt8]` (a uniqueness check and a capacity
/// check per byte) made the writer use as much CPU as a link's loop thread; storing
/// through a pointer into space reserved once per line, and formatting the date and
/// time of day only when the second changes, makes it a fraction of that.
struct JSONLineWriter {
    private var base: UnsafeMutableRawPointer
    private var capacity: Int
    /// Bytes formatted so far.
    private(set) var count = 0
    /// The second whose "YYYY-MM-DDTHH:MM:SS." prefix is in `secondText`.
    private var cachedSecond: UInt64 = .max
    private var secondText: (UInt64, UInt64, UInt64) = (0, 0, 0)

    init(capacity: Int = 1 << 16) {
        self.capacity = capacity
        base = .allocate(byteCount: capacity, alignment: 8)
    }

    /// Frees the memory; the writer is unusable afterwards.
    mutating func deallocate() {
        base.deallocate()
        capacity = 0
        count = 0
    }

    /// The formatted bytes, valid until the next mutation.
    var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: base, count: count) }

    mutating func removeAll() { count = 0 }

    /// Appends one record as one JSON line, exactly as `RoutingRecord.appendJSON` does.
    mutating func append(_ r: RoutingRecord) {
        line(
            mono: r.mono, wall: r.wall, host: r.host, pid: r.pid, at: r.at, source: r.source, target: r.target,
            kind: r.kind, sequence: r.sequence, trace: r.trace, bytes: r.bytes, outcome: r.outcome, via: r.via,
            reason: r.reason, detail: r.detail)
    }

    /// The parts of a line that are the same for every event of one origin, formatted
    /// once: from the end of `time` to the start of `src`'s value, and the `via` field.
    struct OriginText {
        var afterTime: [UInt8]
        var via: [UInt8]

        init(host: String, at: String, via: String) {
            var w = JSONLineWriter(capacity: 256 + 6 * (host.utf8.count + at.utf8.count + via.utf8.count))
            w.raw(#"","host":"#)
            w.quoted(host)
            w.raw(#","pid":"#)
            if ProcessIdentity.pid < 0 { w.byte(UInt8(ascii: "-")) }
            w.decimal(UInt64(ProcessIdentity.pid.magnitude))
            w.raw(#","at":"#)
            w.quoted(at)
            w.raw(#","src":"#)
            afterTime = Array(w.bytes)
            w.removeAll()
            w.raw(#","via":"#)
            w.quoted(via)
            self.via = Array(w.bytes)
            w.deallocate()
        }
    }

    /// Appends the line of a link's event, without building a `RoutingRecord` first:
    /// the same bytes `append(_: RoutingRecord)` writes for the record it stands for.
    mutating func append(_ m: MessageEvent, wall: UInt64, origin: OriginText) {
        let source = m.source.rawValue, target = m.target.rawValue, kind = m.kind.name
        var bound = 256 + origin.afterTime.count + origin.via.count
            + 6 * (source.utf8.count + target.utf8.count + kind.utf8.count)
        if let reason = m.reason { bound += 16 + 6 * reason.utf8.count }
        reserve(bound)

        raw(#"{"mono_ns":"#)
        decimal(m.mono)
        raw(#","time":""#)
        wallClock(wall)
        copy(origin.afterTime)
        quoted(source)
        raw(#","dst":"#)
        quoted(target)
        raw(#","kind":"#)
        quoted(kind)
        raw(#","seq":"#)
        decimal(m.sequence)
        raw(#","trace":""#)
        hex16(m.trace)
        raw(#"","bytes":"#)
        if m.bytes < 0 { byte(UInt8(ascii: "-")) }
        decimal(UInt64(m.bytes.magnitude))
        raw(#","outcome":"#)
        quoted(m.outcome.rawValue)
        copy(origin.via)
        if let reason = m.reason {
            raw(#","reason":"#)
            quoted(reason)
        }
        raw("}\n")
    }

    private mutating func copy(_ b: [UInt8]) {
        b.withUnsafeBytes { if let start = $0.baseAddress { (base + count).copyMemory(from: start, byteCount: $0.count) } }
        count += b.count
    }

    private mutating func line(
        mono: UInt64, wall: UInt64, host: String, pid: Int32, at: String, source: String, target: String,
        kind: String, sequence: UInt64, trace: UInt64, bytes: Int, outcome: RoutingRecord.Outcome, via: String,
        reason: String?, detail: String?
    ) {
        // Bound the line before writing it, so the stores below need no checks: fixed
        // text and numbers stay under 256 bytes; an escaped byte takes at most 6.
        var bound = 256 + 6 * (host.utf8.count + at.utf8.count + source.utf8.count + target.utf8.count
            + kind.utf8.count + via.utf8.count + outcome.rawValue.utf8.count)
        if let reason { bound += 16 + 6 * reason.utf8.count }
        if let detail { bound += 16 + 6 * detail.utf8.count }
        reserve(bound)

        raw(#"{"mono_ns":"#)
        decimal(mono)
        raw(#","time":""#)
        wallClock(wall)
        raw(#"","host":"#)
        quoted(host)
        raw(#","pid":"#)
        if pid < 0 { byte(UInt8(ascii: "-")) }
        decimal(UInt64(pid.magnitude))
        raw(#","at":"#)
        quoted(at)
        raw(#","src":"#)
        quoted(source)
        raw(#","dst":"#)
        quoted(target)
        raw(#","kind":"#)
        quoted(kind)
        raw(#","seq":"#)
        decimal(sequence)
        raw(#","trace":""#)
        hex16(trace)
        raw(#"","bytes":"#)
        if bytes < 0 { byte(UInt8(ascii: "-")) }
        decimal(UInt64(bytes.magnitude))
        raw(#","outcome":"#)
        quoted(outcome.rawValue)
        raw(#","via":"#)
        quoted(via)
        if let reason {
            raw(#","reason":"#)
            quoted(reason)
        }
        if let detail {
            raw(#","detail":"#)
            quoted(detail)
        }
        raw("}\n")
    }

    private mutating func reserve(_ n: Int) {
        guard count + n > capacity else { return }
        let newCapacity = max(capacity * 2, count + n)
        let newBase = UnsafeMutableRawPointer.allocate(byteCount: newCapacity, alignment: 8)
        newBase.copyMemory(from: base, byteCount: count)
        base.deallocate()
        base = newBase
        capacity = newCapacity
    }

    private mutating func byte(_ b: UInt8) {
        base.storeBytes(of: b, toByteOffset: count, as: UInt8.self)
        count += 1
    }

    private mutating func raw(_ s: StaticString) {
        (base + count).copyMemory(from: s.utf8Start, byteCount: s.utf8CodeUnitCount)
        count += s.utf8CodeUnitCount
    }

    private mutating func decimal(_ v: UInt64) {
        var digits = 1
        var rest = v
        while rest >= 10 {
            rest /= 10
            digits += 1
        }
        var value = v
        let end = base + count + digits
        for i in 1...digits {
            (end - i).storeBytes(of: UInt8(ascii: "0") &+ UInt8(value % 10), as: UInt8.self)
            value /= 10
        }
        count += digits
    }

    private mutating func padded(_ v: Int, width: Int) {
        var value = v
        for i in stride(from: width - 1, through: 0, by: -1) {
            base.storeBytes(of: UInt8(ascii: "0") &+ UInt8(value % 10), toByteOffset: count + i, as: UInt8.self)
            value /= 10
        }
        count += width
    }

    private mutating func hex16(_ v: UInt64) {
        for i in 0..<16 {
            let nibble = UInt8(truncatingIfNeeded: v >> UInt64(60 - 4 * i)) & 15
            byte(nibble < 10 ? UInt8(ascii: "0") &+ nibble : UInt8(ascii: "a") &+ nibble &- 10)
        }
    }

    /// "2026-11-22T14:03:41.123456Z" without the quotes.
    private mutating func wallClock(_ ns: UInt64) {
        let second = ns / 1_000_000_000
        if second != cachedSecond {
            let start = count
            var seconds = time_t(second)
            var tm = tm()
            gmtime_r(&seconds, &tm)
            padded(Int(tm.tm_year) + 1900, width: 4)
            byte(UInt8(ascii: "-"))
            padded(Int(tm.tm_mon) + 1, width: 2)
            byte(UInt8(ascii: "-"))
            padded(Int(tm.tm_mday), width: 2)
            byte(UInt8(ascii: "T"))
            padded(Int(tm.tm_hour), width: 2)
            byte(UInt8(ascii: ":"))
            padded(Int(tm.tm_min), width: 2)
            byte(UInt8(ascii: ":"))
            padded(Int(tm.tm_sec), width: 2)
            byte(UInt8(ascii: "."))
            withUnsafeMutableBytes(of: &secondText) { $0.copyMemory(from: UnsafeRawBufferPointer(start: base + start, count: 20)) }
            cachedSecond = second
        } else {
            withUnsafeBytes(of: secondText) { (base + count).copyMemory(from: $0.baseAddress!, byteCount: 20) }
            count += 20
        }
        padded(Int(ns % 1_000_000_000 / 1000), width: 6)
        byte(UInt8(ascii: "Z"))
    }

    /// A JSON string: quotes, and escapes for the quote, the backslash and control bytes.
    private mutating func quoted(_ s: String) {
        byte(UInt8(ascii: "\""))
        if s.utf8.withContiguousStorageIfAvailable({ escaped($0) }) == nil {
            Array(s.utf8).withUnsafeBufferPointer { escaped($0) }
        }
        byte(UInt8(ascii: "\""))
    }

    private mutating func escaped(_ bytes: UnsafeBufferPointer<UInt8>) {
        // Ids, kinds and hosts never need escaping: copy them whole.
        var plain = true
        for b in bytes where b < 0x20 || b == UInt8(ascii: "\"") || b == UInt8(ascii: "\\") {
            plain = false
            break
        }
        if plain {
            if let start = bytes.baseAddress { (base + count).copyMemory(from: start, byteCount: bytes.count) }
            count += bytes.count
            return
        }
        for b in bytes {
            switch b {
            case UInt8(ascii: "\""): byte(UInt8(ascii: "\\")); byte(UInt8(ascii: "\""))
            case UInt8(ascii: "\\"): byte(UInt8(ascii: "\\")); byte(UInt8(ascii: "\\"))
            case UInt8(ascii: "\n"): byte(UInt8(ascii: "\\")); byte(UInt8(ascii: "n"))
            case UInt8(ascii: "\r"): byte(UInt8(ascii: "\\")); byte(UInt8(ascii: "r"))
            case UInt8(ascii: "\t"): byte(UInt8(ascii: "\\")); byte(UInt8(ascii: "t"))
            case 0..<0x20:
                raw("\\u00")
                byte(JSONText.hexDigits[Int(b >> 4)])
                byte(JSONText.hexDigits[Int(b & 15)])
            default: byte(b)
            }
        }
    }
}
