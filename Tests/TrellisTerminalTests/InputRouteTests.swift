import Testing
@testable import TrellisTerminal
import TrellisWire

/// Terminal events become exactly the messages a control client injects (`key`,
/// `touch`), so both enter the tree by the same path (docs/TERMINAL.md).
@Suite("Terminal input: routes")
struct InputRouteTests {
    @Test func keysAndTouchesGoToTheRootUnchanged() {
        let key = KeyPress(special: .up, modifiers: .control, timestamp: 5)
        #expect(InputEvent.key(key).route == .root([.key(key)]))
        let touch = TouchInput(phase: .moved, modifiers: [], tapCount: 1, pointer: 2, x: 3, y: 4, timestamp: 6)
        #expect(InputEvent.touch(touch).route == .root([.touch(touch)]))
    }

    @Test func decodedMouseReportsKeepTheirPointerThroughDragAndRelease() {
        var parser = TerminalInputParser()
        let events = parser.feed(Array("\u{1B}[<2;5;6M\u{1B}[<34;6;6M\u{1B}[<2;6;6m".utf8), now: 0)
        let routed = events.map(\.route)
        let phases: [(TouchInput.Phase, UInt32)] = routed.compactMap {
            guard case .root(let messages) = $0, case .touch(let t)? = messages.first else { return nil }
            return (t.phase, t.pointer)
        }
        #expect(phases.map(\.0) == [.began, .moved, .ended])
        #expect(phases.allSatisfy { $0.1 == 2 })
    }

    @Test func aPasteIsPasteKeysWithinTheWireLimit() {
        #expect(InputEvent.paste("hello").route == .root([.key(KeyPress(modifiers: .paste, text: "hello"))]))
        #expect(InputEvent.paste("").route == .root([.key(KeyPress(modifiers: .paste, text: ""))]))
        // Issue 22: a paste up to 64 KiB is one key, so one insertion in the focused view.
        let page = String(repeating: "日", count: 3000)  // 9000 bytes
        #expect(InputEvent.paste(page).route == .root([.key(KeyPress(modifiers: .paste, text: page))]))
        let long = String(repeating: "日", count: 50_000)  // 150,000 bytes
        guard case .root(let messages) = InputEvent.paste(long).route else {
            Issue.record("paste not routed to the root")
            return
        }
        let texts = messages.compactMap { message -> String? in
            guard case .key(let key) = message, key.modifiers == .paste else { return nil }
            return key.text
        }
        #expect(texts.count == 3)
        #expect(texts.allSatisfy { $0.utf8.count <= WireLimits.maxPasteText })
        #expect(texts.joined() == long)
    }

    @Test func pasteChunksNeverCutACharacter() {
        let keys = InputEvent.pasteKeys("ab日本", limit: 4)
        #expect(keys.map(\.text) == ["ab", "日", "本"])
    }

    @Test func wheelGoesToTheRootFocusIsIgnoredAndGarbageIsRejectedWithItsBytes() {
        // Issue 22: the wheel is a `scroll` message, routed by the pointer.
        let notch = ScrollInput(deltaY: 1, x: 3, y: 4, timestamp: 0)
        #expect(InputEvent.scroll(notch).route == .root([.scroll(notch)]))
        guard case .ignored = InputEvent.focus(true).route else {
            Issue.record("focus routed")
            return
        }
        #expect(InputEvent.invalid(bytes: [0x1B, 0x5B, 0x39], reason: "bad").route == .rejected("bad [0x1b 0x5b 0x39]"))
    }
}
