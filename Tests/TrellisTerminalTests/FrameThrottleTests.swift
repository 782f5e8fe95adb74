import Testing
import TrellisTerminal

/// Issue 20: throttle only when the terminal cannot keep up. A frame goes out at once
/// while the last one went through; only a write that would block holds frames back
/// (they coalesce, the newest wins — issue 4), and the blocked bytes are retried at a
/// widening interval. docs/TERMINAL.md, "Output".
@Suite("Terminal output: frame throttle")
struct FrameThrottleTests {
    let ms: UInt64 = 1_000_000

    @Test func anIdleTerminalGetsEveryFrameAtOnce() {
        var t = FrameThrottle()
        #expect(t.mayWrite)
        // A tab switch's frames come in twos and threes a millisecond apart: none waits.
        for _ in 0..<3 {
            t.wrote()
            #expect(t.mayWrite)
        }
    }

    @Test func aBlockedWriteHoldsFramesUntilItsBytesAreThrough() {
        var t = FrameThrottle(firstRetry: 1 * ms, maximumRetry: 64 * ms)
        t.blocked()
        #expect(!t.mayWrite)
        #expect(t.retryInterval == 1 * ms)
        // Retries that block again wait longer each time, up to the maximum.
        var intervals: [UInt64] = []
        for _ in 0..<8 {
            t.blocked()
            intervals.append(t.retryInterval / ms)
        }
        #expect(intervals == [2, 4, 8, 16, 32, 64, 64, 64])
        #expect(!t.mayWrite)
    }

    @Test func onceTheBytesAreThroughTheNextFrameGoesAtOnceAndASlowSpellIsForgotten() {
        var t = FrameThrottle(firstRetry: 1 * ms, maximumRetry: 64 * ms)
        for _ in 0..<5 { t.blocked() }
        #expect(t.retryInterval == 16 * ms)
        t.wrote()
        #expect(t.mayWrite)
        #expect(t.retryInterval == 1 * ms)
        t.blocked()
        #expect(t.retryInterval == 1 * ms)
    }
}
