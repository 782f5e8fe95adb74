import Foundation
import Testing
import TrellisBenchmarks

/// The cold figures (`bench render`, `bench compose`, `bench latency`) rest on a sweep
/// that really runs on every CPU the process may use and returns when all are done.
struct CacheSweepTests {
    @Test func theSweepRunsOnEveryAllowedCPUAndFinishesBeforeItReturns() {
        let cpus = CacheSweep.allowedCPUs()
        #expect(!cpus.isEmpty)
        #expect(Set(cpus).count == cpus.count, "each CPU once: \(cpus)")
        let sweep = CacheSweep()
        // Every byte starts at 1; each sweep adds 1 to the middle byte of each CPU's buffer,
        // and `checksum` sums those bytes after it: 2 per CPU, then 3.
        sweep.sweep()
        #expect(sweep.checksum == 2 * cpus.count)
        sweep.sweep()
        #expect(sweep.checksum == 2 * cpus.count + 3 * cpus.count)
    }

    @Test func aColdFigureTimesEachCallAfterASweepOfItsOwn() {
        let cpus = CacheSweep.allowedCPUs().count
        let sweep = CacheSweep()
        var calls = 0
        _ = sweep.medianMicroseconds(of: 3) { calls += 1 }
        #expect(calls == 3)
        // Three sweeps, one before each call: every CPU's middle byte went 1 → 2 → 3 → 4.
        #expect(sweep.checksum == (2 + 3 + 4) * cpus)
    }

    @Test func theLastLevelCacheIsReadFromSysfsWhereLinuxHasIt() throws {
        guard FileManager.default.fileExists(atPath: "/sys/devices/system/cpu/cpu0/cache/index0/size") else { return }
        // A machine that says anything about its caches has one of at least 4 KiB.
        #expect(CacheSweep.lastLevelCacheBytes() >= 4096)
    }
}
