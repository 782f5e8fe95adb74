import Testing
import TrellisTerminal
import TrellisWire

let ms: UInt64 = 1_000_000

@Suite("Terminal input: the Esc rule")
struct EscapeTimingTests {
    @Test func loneEscBecomesTheEscKeyAtItsDeadline() {
        var parser = TerminalInputParser()
        #expect(parser.feed([0x1B], now: 1000 * ms).isEmpty)
        #expect(parser.deadline == 1050 * ms)
        #expect(parser.flush(now: 1049 * ms).isEmpty)
        #expect(parser.flush(now: 1050 * ms) == [key(.escape, at: 1000 * ms)])
        #expect(parser.deadline == nil)
        #expect(parser.flush(now: 2000 * ms).isEmpty)
    }

    @Test func sequenceSplitAcrossReadsWithinTheWindowDecodes() {
        var parser = TerminalInputParser()
        #expect(parser.feed([0x1B], now: 0).isEmpty)
        #expect(parser.flush(now: 30 * ms).isEmpty)
        #expect(parser.feed(Array("[".utf8), now: 30 * ms).isEmpty)
        // The window restarts at each byte of the sequence.
        #expect(parser.deadline == 80 * ms)
        #expect(parser.feed(Array("A".utf8), now: 70 * ms) == [key(.up, at: 0)])
        #expect(parser.deadline == nil)
    }

    @Test func escThenLetterIsAlt() {
        var parser = TerminalInputParser()
        #expect(parser.feed([0x1B], now: 0).isEmpty)
        #expect(parser.feed(Array("x".utf8), now: 10 * ms) == [text("x", .alt, at: 0)])
    }

    /// A caller that missed the deadline still gets Esc, then the letter alone: `feed`
    /// settles the stale Esc before reading on.
    @Test func lateLetterAfterMissedDeadlineIsNotAlt() {
        var parser = TerminalInputParser()
        #expect(parser.feed([0x1B], now: 0).isEmpty)
        #expect(parser.feed(Array("x".utf8), now: 60 * ms) == [key(.escape, at: 0), text("x", at: 60 * ms)])
    }

    @Test func escBracketAloneIsAltBracket() {
        var parser = TerminalInputParser()
        #expect(parser.feed(Array("\(esc)[".utf8), now: 0).isEmpty)
        #expect(parser.flush(now: 50 * ms) == [text("[", .alt, at: 0)])
    }

    @Test func timeoutIsConfigurable() {
        var parser = TerminalInputParser(escapeTimeout: 10 * ms)
        _ = parser.feed([0x1B], now: 0)
        #expect(parser.deadline == 10 * ms)
        #expect(parser.flush(now: 10 * ms) == [key(.escape)])
    }

    @Test func completeInputLeavesNoDeadline() {
        var parser = TerminalInputParser()
        _ = parser.feed(Array("a\(esc)[1;5A\(esc)[<0;1;1M".utf8), now: 0)
        #expect(parser.deadline == nil)
    }
}
