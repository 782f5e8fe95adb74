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

/// Wall-clock time, written as RFC 3339 UTC with microseconds.
public enum WallClock {
    public static func nanoseconds() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
    }

    /// "2026-11-22T14:03:41.123456Z"
    public static func format(_ ns: UInt64) -> String {
        var seconds = time_t(ns / 1_000_000_000)
        var tm = tm()
        gmtime_r(&seconds, &tm)
        let micros = Int(ns % 1_000_000_000 / 1000)
        func pad(_ v: Int, _ w: Int) -> String {
            let s = String(v)
            return String(repeating: "0", count: max(0, w - s.count)) + s
        }
        return "\(pad(Int(tm.tm_year) + 1900, 4))-\(pad(Int(tm.tm_mon) + 1, 2))-\(pad(Int(tm.tm_mday), 2))T"
            + "\(pad(Int(tm.tm_hour), 2)):\(pad(Int(tm.tm_min), 2)):\(pad(Int(tm.tm_sec), 2)).\(pad(micros, 6))Z"
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
