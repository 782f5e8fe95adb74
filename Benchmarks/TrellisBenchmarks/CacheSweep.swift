import CPlatform
import Foundation

/// Empties the CPU caches, the last level included, by writing one byte in every line of
/// a buffer twice the last level's size from a thread on each CPU this process may use:
/// what a host's next click finds after idling while the rest of the machine ran
/// (docs/BENCHMARKS.md, "Cold caches"). A step timed after a sweep pays for every line of
/// code and data it touches coming from memory, as a click on an idle terminal does; the
/// same step timed warm, in a loop, does not.
public final class CacheSweep {
    /// One buffer per CPU, swept by a thread pinned there. Each twice the last level whole:
    /// two CPUs may not share one (a virtual machine's two CPUs may sit on two of the
    /// host's core complexes, each with its own), and 32 MB from each of two CPUs left
    /// `bench render`'s `tab_cold_us` at 49–57 µs where 64 MB from one left it at 77–91.
    private var buffers: [(cpu: Int32, bytes: [UInt8])]
    /// What the sweeps read back, so that no compiler may drop them.
    public private(set) var checksum = 0

    /// Twice the last-level cache this machine reports (at least 64 MiB where it says
    /// none) for each CPU this process may use.
    public init() {
        let size = max(64 << 20, 2 * Self.lastLevelCacheBytes())
        buffers = Self.allowedCPUs().map { ($0, [UInt8](repeating: 1, count: size)) }
    }

    /// Sweeps every CPU's buffer at once, each from its own CPU; returns when all are done.
    /// Each sweep adds one to every byte it writes, so `checksum` grows by one per CPU.
    public func sweep() {
        let group = DispatchGroup()
        var sums = [Int](repeating: 0, count: buffers.count)
        sums.withUnsafeMutableBufferPointer { sums in
            for k in buffers.indices {
                group.enter()
                let cpu = buffers[k].cpu
                buffers[k].bytes.withUnsafeMutableBufferPointer { b in
                    // The buffer and the sum outlive the thread: `group.wait()` below.
                    let bytes = UncheckedPointer(b), sum = UncheckedPointer(sums.baseAddress! + k)
                    Thread {
                        _ = trellis_pin_thread(0, cpu)
                        var i = 0
                        while i < bytes.value.count {
                            bytes.value[i] &+= 1
                            i += 64
                        }
                        sum.value.pointee = Int(bytes.value[bytes.value.count / 2])
                        group.leave()
                    }.start()
                }
            }
            group.wait()
        }
        checksum &+= sums.reduce(0, &+)
    }

    /// The median thread CPU microseconds of one call of `body`, over `count` calls, each
    /// timed alone right after a sweep (the sweep not timed): the median, not the mean, as
    /// memory's latency on a shared machine moves with its neighbours' load. What every
    /// cold figure (`tap_cold_us`, `tab_cold_us`, `tab_switch_cold_us`) is.
    public func medianMicroseconds(of count: Int, _ body: () throws -> Void) rethrows -> Double {
        precondition(count >= 1, "a median of no calls")
        var times: [UInt64] = []
        times.reserveCapacity(count)
        for _ in 0..<count {
            sweep()
            let start = threadCPUNanoseconds()
            try body()
            times.append(threadCPUNanoseconds() - start)
        }
        return Double(times.sorted()[count / 2]) / 1e3
    }

    /// The CPUs this process may run on (CPU 0 alone where it cannot say).
    public static func allowedCPUs() -> [Int32] {
        var mask = trellis_cpu_mask()
        guard trellis_get_cpu_mask(0, &mask) == 0 else { return [0] }
        let cpus = withUnsafeBytes(of: mask.bits) { bits in
            (0..<Int32(bits.count * 8)).filter { bits[Int($0) / 8] & (1 << ($0 % 8)) != 0 }
        }
        return cpus.isEmpty ? [0] : cpus
    }

    /// The largest cache of CPU 0, from sysfs; 0 when it does not say.
    public static func lastLevelCacheBytes() -> Int {
        let base = "/sys/devices/system/cpu/cpu0/cache"
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: base)) ?? []
        return entries.filter { $0.hasPrefix("index") }.compactMap { entry -> Int? in
            guard let text = try? String(contentsOfFile: "\(base)/\(entry)/size", encoding: .utf8) else { return nil }
            let t = text.trimmingCharacters(in: .whitespacesAndNewlines)
            let scale = t.hasSuffix("K") ? 1 << 10 : t.hasSuffix("M") ? 1 << 20 : 1
            return Int(t.trimmingCharacters(in: CharacterSet.decimalDigits.inverted)).map { $0 * scale }
        }.max() ?? 0
    }
}

/// A pointer handed to a sweeping thread that the caller waits for: the caller's
/// `group.wait()` keeps what it points to alive and untouched until the thread is done,
/// and each thread writes through its own pointer only.
private struct UncheckedPointer<P>: @unchecked Sendable {
    let value: P
    init(_ value: P) { self.value = value }
}
