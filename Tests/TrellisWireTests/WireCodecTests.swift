import SeededRandom
import Testing
import TrellisTestSupport
import TrellisWire

/// One value of every message kind, with fields away from their defaults so that a
/// field the codec forgets shows up as a difference.
let everyKind: [Message] = [
    .hello(Hello(pid: 4242, heartbeatMilliseconds: 500)),
    .ack,
    .error(WireError(.unknownTarget, "target x is not served here")),
    .heartbeat,
    .touch(TouchInput(phase: .cancelled, modifiers: [.shift, .control], tapCount: 2, pointer: 7, x: -3, y: 41, timestamp: 99)),
    .key(KeyPress(special: .escape, modifiers: [.alt], text: "日本語", timestamp: 12)),
    // Press phases from the kitty keyboard protocol (issue 22).
    .key(KeyPress(special: .up, modifiers: [.shift], timestamp: 14, phase: .repeated)),
    .key(KeyPress(text: "a", timestamp: 15, phase: .ended)),
    .scroll(ScrollInput(deltaX: 1, deltaY: -3, modifiers: [.control], x: -2, y: 40, timestamp: 13)),
    .traits(Traits(horizontal: .compact, vertical: .regular, style: .dark, direction: .rightToLeft, colorDepth: .ansi256, contentSize: .large)),
    .appearance(Appearance(.willDisappear, animated: true)),
    .containment(Containment(.willMove, parent: "root")),
    .containment(Containment(.didMove, parent: nil)),
    .sizeTransition(SizeTransition(width: 200, height: 60, durationMilliseconds: 250)),
    .memoryWarning,
    .frame(FrameUpdate(number: 3, width: 4, height: 2, damage: [
        .init(rect: CellRect(x: 0, y: 0, width: 2, height: 1), cells: [
            Cell(scalar: 0x3042, foreground: .rgb(1, 2, 3), background: .indexed(17), attributes: [.bold]),
            Cell(scalar: Cell.continuation),
        ]),
        .init(rect: CellRect(x: 3, y: 1, width: 1, height: 1), cells: [Cell(scalar: 0x41)]),
    ])),
    // A layer an in-process child was lifted into for the compositor to move (issue 20).
    .frame(FrameUpdate(layer: "card.2", number: 4, width: 2, height: 1, damage: [
        .init(rect: CellRect(x: 0, y: 0, width: 2, height: 1), cells: [Cell(scalar: 0x41), Cell(scalar: 0x42)]),
    ])),
    .placement(Placement(surface: "sub1", frame: CellRect(x: 2, y: 3, width: 40, height: 10), z: -1, clip: CellRect(x: 0, y: 0, width: 40, height: 9), visible: false)),
    .animation(Animation(surface: "sub2", from: CellRect(x: 0, y: 20, width: 10, height: 5), to: CellRect(x: 0, y: 0, width: 10, height: 5), durationMilliseconds: 300, delayMilliseconds: 10, curve: .easeOut)),
    .request(Request(name: "didSelect", payload: [0, 1, 255])),
    .reply(Reply(status: .declined, payload: Array("no".utf8))),
]

func envelope(_ m: Message, flags: EnvelopeFlags = []) -> Envelope {
    Envelope(sequence: 77, trace: 0xDEAD_BEEF_0000_0001, correlation: 5, source: "parent.a", target: "child:b-1", flags: flags, message: m)
}

func rejection(_ frames: [[UInt8]]) -> Rejection? {
    do {
        _ = try WireCodec.decode(frames)
        return nil
    } catch {
        return error
    }
}

@Suite("The wire codec of docs/PROTOCOL.md")
struct WireCodecTests {
    @Test("every message kind survives encoding and decoding unchanged")
    func everyKindRoundTrips() throws {
        #expect(Set(everyKind.map(\.kind)) == Set(MessageKind.allCases), "the sample must cover every kind")
        for message in everyKind {
            let e = envelope(message, flags: [.ackRequested])
            let frames = WireCodec.encode(e)
            #expect(frames.count == WireCodec.frameCount)
            #expect(frames[2].count == WireCodec.headerSize)
            #expect(try WireCodec.decode(frames) == e)
        }
    }

    @Test("the header is laid out as the document says: little-endian <HHIQQQ32s32s>")
    func headerLayout() {
        let h = WireCodec.encodeHeader(envelope(.touch(TouchInput(phase: .began, x: 1, y: 1, timestamp: 0)), flags: [.ackRequested]))
        #expect(Array(h[0..<2]) == [16, 0])  // kind touch
        #expect(Array(h[2..<4]) == [1, 0])  // ackRequested
        #expect(Array(h[4..<8]) == [0, 0, 0, 0])  // reserved
        #expect(Array(h[8..<16]) == [77, 0, 0, 0, 0, 0, 0, 0])
        #expect(Array(h[16..<24]) == [1, 0, 0, 0, 0xEF, 0xBE, 0xAD, 0xDE])
        #expect(Array(h[24..<32]) == [5, 0, 0, 0, 0, 0, 0, 0])
        #expect(Array(h[32..<40]) == Array("parent.a".utf8))
        #expect(h[40..<64].allSatisfy { $0 == 0 })
        #expect(Array(h[64..<73]) == Array("child:b-1".utf8))
    }

    @Test("each malformed message is rejected with the code the document gives it")
    func malformedMessagesAreRejectedWithTheirCode() {
        let good = WireCodec.encode(envelope(.request(Request(name: "x"))))
        var cases: [(String, [[UInt8]], WireErrorCode)] = [
            ("too few frames", Array(good.prefix(3)), .malformedFrames),
            ("too many frames", good + [[]], .malformedFrames),
            ("non-empty delimiter", [[1]] + good.dropFirst(), .malformedFrames),
            ("wrong protocol", [[], Array("HTTP".utf8), good[2], good[3]], .malformedFrames),
            ("future version", [[], [0x54, 0x52, 0x4C, 2], good[2], good[3]], .unsupportedVersion),
            ("short header", [[], good[1], Array(good[2].prefix(95)), good[3]], .malformedHeader),
        ]
        var header = good[2]
        header[0] = 0xFF
        cases.append(("unknown kind", [[], good[1], header, good[3]], .unknownKind))
        header = good[2]
        header[2] = 0x80
        cases.append(("unknown flag", [[], good[1], header, good[3]], .unsupportedFlags))
        header = good[2]
        header[32] = UInt8(ascii: " ")
        cases.append(("invalid source id", [[], good[1], header, good[3]], .malformedHeader))
        header = good[2]
        header[64] = 0
        cases.append(("empty target id", [[], good[1], header, good[3]], .malformedHeader))
        cases.append(("truncated body", [[], good[1], good[2], Array(good[3].dropLast())], .truncatedBody))
        cases.append(("trailing bytes", [[], good[1], good[2], good[3] + [0]], .invalidBody))
        let touch = WireCodec.encode(envelope(.touch(TouchInput(phase: .began, x: 0, y: 0, timestamp: 0))))
        cases.append(("oversized touch", [[], touch[1], touch[2], touch[3] + Array(repeating: 0, count: 4096)], .oversizedBody))
        var badPhase = touch[3]
        badPhase[0] = 9
        cases.append(("unknown touch phase", [[], touch[1], touch[2], badPhase], .invalidBody))
        // The key's phase is the byte after its modifiers; 3 and up mean nothing (issue 22).
        let key = WireCodec.encode(envelope(.key(KeyPress(text: "a", phase: .ended))))
        #expect(key[3][3] == 2, "a key's phase is byte 3 of its body, as PROTOCOL.md §5.2 says")
        var badKeyPhase = key[3]
        badKeyPhase[3] = 3
        cases.append(("unknown key phase", [[], key[1], key[2], badKeyPhase], .invalidBody))

        // A frame's layer (issue 20) is a controller id like any other.
        var layered = WireCodec.encode(envelope(.frame(FrameUpdate(layer: "card", number: 1, width: 1, height: 1, damage: []))))
        layered[3][1] = UInt8(ascii: " ")
        cases.append(("invalid frame layer", layered, .invalidBody))

        for (name, frames, code) in cases {
            let r = rejection(frames)
            #expect(r?.error.code == code, "\(name): got \(r.map { "\($0)" } ?? "accepted")")
        }
    }

    @Test("a paste's key carries up to 65,535 bytes, any other key up to 4096 (issue 22: a paste is one insertion)")
    func aPasteKeyMayBeLongerThanAnyOtherKey() throws {
        let page = String(repeating: "日本", count: 10_000)  // 60,000 bytes
        let frames = WireCodec.encode(envelope(.key(KeyPress(modifiers: .paste, text: page))))
        let decoded = try WireCodec.decode(frames)
        guard case .key(let key) = decoded.message else { Issue.record("not a key: \(decoded.message)"); return }
        #expect(key.text == page && key.modifiers == .paste)
        // The same text without the paste modifier is more than a key may carry.
        let short = WireCodec.encode(envelope(.key(KeyPress(modifiers: .paste, text: String(repeating: "a", count: 5000)))))
        var body = short[3]
        body[2] = 0
        let r = rejection([[], short[1], short[2], body])
        #expect(r != nil, "a 5000-byte key that is not a paste was accepted")
    }

    @Test("a rejection past the header names the message it rejects, so the error reply can correlate")
    func rejectionCarriesTheHeader() {
        let good = WireCodec.encode(envelope(.request(Request(name: "x"))))
        let r = rejection([[], good[1], good[2], []])
        #expect(r?.header?.sequence == 77)
        #expect(r?.header?.source == "parent.a")
    }

    @Test("random garbage never crashes the decoder and is always rejected or decoded whole")
    func garbageNeverCrashes() throws {
        var rng = SplitMix64(seed: 0x5EED)
        let good = everyKind.map { WireCodec.encode(envelope($0)) }
        for i in 0..<20_000 {
            var frames = good[i % good.count]
            // Flip, cut or extend one frame at random.
            let f = Int(rng.next() % 4)
            switch rng.next() % 3 {
            case 0 where !frames[f].isEmpty:
                frames[f][Int(rng.next() % UInt64(frames[f].count))] = UInt8(truncatingIfNeeded: rng.next())
            case 1:
                frames[f] = Array(frames[f].prefix(Int(rng.next() % UInt64(frames[f].count + 1))))
            default:
                frames[f] += (0..<Int(rng.next() % 16)).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
            }
            if let e = try? WireCodec.decode(frames) {
                // Whatever decodes must encode back to a message that decodes the same.
                #expect(try WireCodec.decode(WireCodec.encode(e)) == e)
            }
        }
    }

    @Test("controller ids are 1–32 bytes of [A-Za-z0-9._:-]")
    func controllerIDs() {
        func valid(_ s: String) -> Bool { ControllerID(s) != nil }
        #expect(valid("sub1"))
        #expect(valid("a.b_c:d-9"))
        #expect(valid(String(repeating: "x", count: 32)))
        #expect(!valid(String(repeating: "x", count: 33)))
        #expect(!valid(""))
        #expect(!valid("has space"))
        #expect(!valid("日本"))
        #expect(ControllerID(bytes: [0x61, 0x00]) == nil)
    }

    @Test("kinds are found by their documented names")
    func kindNames() {
        for kind in MessageKind.allCases {
            #expect(MessageKind(name: kind.name) == kind)
        }
        #expect(MessageKind(name: "nonsense") == nil)
    }

    @Test("a touch's and an appearance's phase and a reply's status print as their cases' names, as the routing log has always named them (issue 20: without reflection)")
    func phasesAndStatusesPrintAsTheirCaseNames() {
        #expect(TouchInput.Phase.allCases.map { "\($0)" } == ["began", "moved", "ended", "cancelled"])
        #expect(Appearance.Phase.allCases.map { "\($0)" } == ["willAppear", "didAppear", "willDisappear", "didDisappear"])
        #expect(Reply.Status.allCases.map { "\($0)" } == ["ok", "declined", "failed", "stale"])
    }

    @Test("a containment's phase and a traits message's size classes and style print as their cases' names, as the routing log has always named them (issue 20: without reflection)")
    func containmentAndTraitsPrintAsTheirCaseNames() {
        #expect(Containment.Phase.allCases.map { "\($0)" } == ["willMove", "didMove"])
        #expect(Traits.SizeClass.allCases.map { "\($0)" } == ["unspecified", "compact", "regular"])
        #expect(Traits.Style.allCases.map { "\($0)" } == ["unspecified", "light", "dark"])
    }
}
