import Foundation
import Testing
@testable import TrellisBenchmarks

/// The scale benchmark sums these over 65 processes; they must read this process right.
struct ProcMemoryTests {
    @Test func parsesAKilobyteLine() {
        let text = "Name:\ttrellis\nVmHWM:\t  20480 kB\nVmRSS:\t   10240 kB\n"
        #expect(ProcMemory.parse("VmRSS", text) == 10240)
        #expect(ProcMemory.parse("VmHWM", text) == 20480)
        #expect(ProcMemory.parse("VmSwap", text) == nil)
        // A key is a whole field name, not a prefix of another.
        #expect(ProcMemory.parse("Vm", text) == nil)
    }

    #if os(Linux)
    @Test func readsThisProcess() throws {
        let pid = getpid()
        let rss = try #require(ProcMemory.status("VmRSS", pid: pid))
        let pss = try #require(ProcMemory.pss(pid: pid))
        #expect(rss > 1000)
        // Shared pages are divided among their users, so PSS never exceeds RSS by more
        // than what changed between the two reads.
        #expect(pss > 0 && pss <= rss + 4096)
        #expect(ProcMemory.status("VmRSS", pid: Int32.max) == nil)
    }
    #endif
}
