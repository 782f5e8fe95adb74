import Testing
import TrellisTerminal

/// Latest frame wins at a lower rate when the terminal cannot keep up (issue 4,
/// "the compositor owns the terminal": coalesce rather than queue).
@Suite("Terminal output: frame throttle")
struct FrameThrottleTests {
    let ms: UInt64 = 1_000_000

    @Test func aFastTerminalIsWrittenAtTheMinimumInterval() {
        var t = FrameThrottle(minimumInterval: 8 * ms, maximumInterval: 250 * ms)
        #expect(t.mayWrite(at: 0))
        t.wrote(at: 100 * ms)
        #expect(t.interval == 8 * ms)
        #expect(!t.mayWrite(at: 107 * ms))
        #expect(t.mayWrite(at: 108 * ms))
    }

    @Test func blockedWritesStretchTheIntervalUpToTheMaximum() {
        var t = FrameThrottle(minimumInterval: 8 * ms, maximumInterval: 250 * ms)
        t.blocked(at: 0)
        #expect(t.interval == 16 * ms)
        #expect(t.notBefore == 16 * ms)
        var intervals: [UInt64] = []
        for _ in 0..<6 {
            t.blocked(at: 0)
            intervals.append(t.interval / ms)
        }
        #expect(intervals == [32, 64, 128, 250, 250, 250])
    }

    /// Issue 20: a terminal that keeps up is never made to wait — a tab switch's frames
    /// come in twos and threes a millisecond apart, and each goes out at once.
    @Test func byDefaultATerminalThatKeepsUpGetsEveryFrameAtOnce() {
        var t = FrameThrottle()
        #expect(t.mayWrite(at: 0))
        t.wrote(at: 100 * ms)
        #expect(t.interval == 0)
        #expect(t.mayWrite(at: 100 * ms))
        // A slow spell stretches it; frames that go through bring it back to none.
        t.blocked(at: 200 * ms)
        #expect(!t.mayWrite(at: 210 * ms) && t.mayWrite(at: 216 * ms))
        var intervals: [UInt64] = []
        for _ in 0..<3 {
            t.wrote(at: 300 * ms)
            intervals.append(t.interval / ms)
        }
        #expect(intervals == [8, 4, 0])
        #expect(t.mayWrite(at: 300 * ms))
    }

    @Test func framesThatGoThroughSpeedItBackUp() {
        var t = FrameThrottle(minimumInterval: 8 * ms, maximumInterval: 250 * ms)
        for _ in 0..<5 { t.blocked(at: 0) }
        #expect(t.interval == 250 * ms)
        var intervals: [UInt64] = []
        for _ in 0..<6 {
            t.wrote(at: 0)
            intervals.append(t.interval / ms)
        }
        #expect(intervals == [125, 62, 31, 15, 8, 8])
    }
}
