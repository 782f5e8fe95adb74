import Foundation

/// CLOCK_MONOTONIC: the same clock in every process of a machine, so the lines of
/// several processes' logs merge into one order.
public enum MonotonicClock {
    public static func nanoseconds() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
    }
}

extension Duration {
    /// The duration in whole nanoseconds, for the clocks above (negative: 0).
    public var nanoseconds: UInt64 {
        let (s, a) = components
        return UInt64(max(0, s)) * 1_000_000_000 + UInt64(max(0, a) / 1_000_000_000)
    }
}

/// Wall-clock time, written as RFC 3339 UTC with microseconds.
public enum WallClock {
    public static func nanoseconds() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
    }

    /// "2026-11-22T14:03:41.123456Z"
    public static func format(_ ns: UInt64) -> String {
        var out: [UInt8] = []
        append(ns, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends what `format` returns, without building strings on the way.
    public static func append(_ ns: UInt64, to out: inout [UInt8]) {
        var seconds = time_t(ns / 1_000_000_000)
        var tm = tm()
        gmtime_r(&seconds, &tm)
        JSONText.appendPadded(Int(tm.tm_year) + 1900, width: 4, to: &out)
        out.append(UInt8(ascii: "-"))
        JSONText.appendPadded(Int(tm.tm_mon) + 1, width: 2, to: &out)
        out.append(UInt8(ascii: "-"))
        JSONText.appendPadded(Int(tm.tm_mday), width: 2, to: &out)
        out.append(UInt8(ascii: "T"))
        JSONText.appendPadded(Int(tm.tm_hour), width: 2, to: &out)
        out.append(UInt8(ascii: ":"))
        JSONText.appendPadded(Int(tm.tm_min), width: 2, to: &out)
        out.append(UInt8(ascii: ":"))
        JSONText.appendPadded(Int(tm.tm_sec), width: 2, to: &out)
        out.append(UInt8(ascii: "."))
        JSONText.appendPadded(Int(ns % 1_000_000_000 / 1000), width: 6, to: &out)
        out.append(UInt8(ascii: "Z"))
    }

    /// Parses what `format` writes; nil for anything else.
    public static func parse(_ s: String) -> UInt64? {
        let u = Array(s.utf8)
        guard u.count == 27, u[4] == UInt8(ascii: "-"), u[7] == UInt8(ascii: "-"), u[10] == UInt8(ascii: "T"),
            u[13] == UInt8(ascii: ":"), u[16] == UInt8(ascii: ":"), u[19] == UInt8(ascii: "."), u[26] == UInt8(ascii: "Z")
        else { return nil }
        func int(_ r: Range<Int>) -> Int? {
            var v = 0
            for i in r {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(u[i]) else { return nil }
                v = v * 10 + Int(u[i] - UInt8(ascii: "0"))
            }
            return v
        }
        guard let year = int(0..<4), let month = int(5..<7), let day = int(8..<10), let hour = int(11..<13),
            let minute = int(14..<16), let second = int(17..<19), let micros = int(20..<26),
            (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61
        else { return nil }
        var tm = tm()
        tm.tm_year = Int32(year - 1900)
        tm.tm_mon = Int32(month - 1)
        tm.tm_mday = Int32(day)
        tm.tm_hour = Int32(hour)
        tm.tm_min = Int32(minute)
        tm.tm_sec = Int32(second)
        let t = timegm(&tm)
        guard t >= 0 else { return nil }
        return UInt64(t) * 1_000_000_000 + UInt64(micros) * 1000
    }
}
