import Testing
import TrellisTerminal
import TrellisWire

/// Each row's garbage is followed by `z`; the garbage must be exactly `invalid` events
/// and the `z` must survive.
let garbageCases: [InputCase] = [
    InputCase("unknown final byte", "\(esc)[1;5X", []),
    InputCase("unknown tilde number", "\(esc)[99~", []),
    InputCase("modifier out of range", "\(esc)[1;999A", []),
    InputCase("zero modifier", "\(esc)[1;0A", []),
    InputCase("unexpected first parameter", "\(esc)[2;5A", []),
    InputCase("terminal report with a private marker", "\(esc)[?5n", []),
    InputCase("intermediate byte", "\(esc)[1$A", []),
    InputCase("parameter after intermediate", "\(esc)[ 1A", []),
    InputCase("parameter too long", "\(esc)[12345678A", []),
    InputCase("too many tilde parameters", "\(esc)[5;5;5~", []),
    InputCase("CSI u outside Unicode", "\(esc)[55296u", []),
    InputCase("unknown SS3 final", "\(esc)Oz", []),
    InputCase("overlong CSI", "\(esc)[" + String(repeating: "1;", count: 100) + "A", []),
    InputCase("CSI cut by a control", "\(esc)[1;2\u{03}", []),
]

@Suite("Terminal input: garbage")
struct MalformedInputTests {
    @Test(arguments: garbageCases)
    func garbageIsInvalidAndTheNextByteSurvives(_ row: InputCase) {
        let events = decode(row.bytes + Array("z".utf8))
        let last = events.last
        let garbage = events.dropLast(last == text("z") ? 1 : 0)
        #expect(!garbage.isEmpty && garbage.allSatisfy { $0.isInvalid || $0 == text("c", .control) }, "\(events)")
        #expect(last == text("z"))
    }

    @Test func sequenceCutByEscLetsTheNewSequenceDecode() {
        let events = decode(Array("\(esc)[1;2\(esc)[B".utf8))
        #expect(events == [.invalid(bytes: Array("\(esc)[1;2".utf8), reason: "control sequence interrupted by byte 0x1b"), key(.down)])
    }

    @Test func overlongSequenceKeepsABoundedPrefix() {
        let long = Array(("\(esc)[" + String(repeating: "9", count: 10_000) + "A").utf8)
        let events = decode(long)
        guard case .invalid(let bytes, let reason)? = events.first else {
            Issue.record("expected .invalid, got \(events)")
            return
        }
        #expect(events.count == 1)
        #expect(bytes.count == TerminalInputParser.maxSequenceBytes)
        #expect(reason.contains("10003 bytes"))
    }

    @Test func incompleteSequenceTimesOutAsInvalid() {
        var parser = TerminalInputParser()
        #expect(parser.feed(Array("\(esc)[1;".utf8), now: 0).isEmpty)
        let events = parser.flush(now: 50_000_000)
        #expect(events == [.invalid(bytes: Array("\(esc)[1;".utf8), reason: "control sequence incomplete after 50 ms")])
    }

    @Test func incompleteUTF8TimesOutAsInvalid() {
        var parser = TerminalInputParser()
        #expect(parser.feed([0xE6, 0x97], now: 0).isEmpty)
        #expect(parser.flush(now: 50_000_000).first?.isInvalid == true)
    }
}
