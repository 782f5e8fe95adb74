import Foundation

/// Empties the CPU caches, the last level included, by writing one byte in every line of
/// a buffer twice the last level's size: what a host's next click finds after idling
/// while the rest of the machine ran (docs/BENCHMARKS.md, "Cold"). A step timed after a
/// sweep pays for every line of code and data it touches coming from memory, as a click
/// on an idle terminal does; the same step timed warm, in a loop, does not.
final class CacheSweep {
    private var buffer: [UInt8]
    /// What the sweeps read back, so that no compiler may drop them.
    private(set) var checksum = 0

    /// Twice the last-level cache this machine reports (at least 64 MiB where it says none).
    init() {
        buffer = [UInt8](repeating: 1, count: max(64 << 20, 2 * Self.lastLevelCacheBytes()))
    }

    func sweep() {
        buffer.withUnsafeMutableBufferPointer { b in
            var i = 0
            while i < b.count {
                b[i] &+= 1
                i += 64
            }
            checksum &+= Int(b[b.count / 2])
        }
    }

    /// The largest cache of CPU 0, from sysfs; 0 when it does not say.
    static func lastLevelCacheBytes() -> Int {
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
