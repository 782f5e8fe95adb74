import SeededRandom
import Testing
import TrellisTerminal
import TrellisWire

/// Every table's bytes back to back: a stream with every kind of input in it.
let everyTableStream: [UInt8] = (textCases + controlCases + altCases + csiCases + mouseCases + badMouseCases + garbageCases)
    .flatMap(\.bytes)
    + Array("\(pasteStart)pasted \(esc)[A text\(pasteEnd)".utf8) + [0xFF, 0xE6, 0x97, 0x61]

func randomBytes(_ count: Int, seed: UInt64) -> [UInt8] {
    var generator = SplitMix64(seed: seed)
    return (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
}

@Suite("Terminal input: chunking and fuzz")
struct ChunkingAndFuzzTests {
    @Test(arguments: [("tables", everyTableStream), ("random", randomBytes(20_000, seed: 7))])
    func byteAtATimeEqualsAllAtOnce(_ name: String, _ stream: [UInt8]) {
        var whole = TerminalInputParser()
        let expected = whole.feed(stream, now: 0) + whole.flush(now: .max)

        var single = TerminalInputParser()
        var events: [InputEvent] = []
        for byte in stream { events += single.feed([byte], now: 0) }
        events += single.flush(now: .max)
        #expect(events == expected, "\(name)")

        var chunked = TerminalInputParser()
        var generator = SplitMix64(seed: 99)
        var chunks: [InputEvent] = []
        var rest = stream[...]
        while !rest.isEmpty {
            let n = Int.random(in: 1...17, using: &generator)
            chunks += chunked.feed(rest.prefix(n), now: 0)
            rest = rest.dropFirst(n)
        }
        chunks += chunked.flush(now: .max)
        #expect(chunks == expected, "\(name)")
    }

    /// 100k random bytes, then valid input at the same instant: garbage may eat nothing
    /// of a sequence that starts with Esc, and nothing at all once its deadline is past.
    @Test func validInputSurvivesRandomGarbage() {
        let valid = Array("\(esc)[A\(esc)[<0;5;6Mok".utf8)
        let wanted = [key(.up), touch(.began, pointer: 0, x: 4, y: 5), text("o"), text("k")]
        for seed: UInt64 in [1, 2, 3] {
            var parser = TerminalInputParser()
            let garbage = parser.feed(randomBytes(100_000, seed: seed), now: 0)
            #expect(garbage.count > 10_000)
            for case .invalid(let bytes, _) in garbage {
                #expect(bytes.count <= TerminalInputParser.maxSequenceBytes)
            }
            let tail = parser.feed(valid, now: 0) + parser.flush(now: .max)
            #expect(Array(tail.suffix(4)) == wanted, "seed \(seed)")

            var later = TerminalInputParser()
            _ = later.feed(randomBytes(100_000, seed: seed), now: 0)
            #expect(later.feed(valid, now: 2_000 * ms).suffix(4).map(\.untimed) == wanted, "seed \(seed)")
        }
    }
}

extension InputEvent {
    /// The event with its timestamp zeroed, to compare events decoded at different times.
    var untimed: InputEvent {
        switch self {
        case .key(var key):
            key.timestamp = 0
            return .key(key)
        case .touch(var touch):
            touch.timestamp = 0
            return .touch(touch)
        case .scroll(var scroll):
            scroll.timestamp = 0
            return .scroll(scroll)
        default:
            return self
        }
    }
}
