import Testing
import TrellisControllers
import TrellisHost
import TrellisSeeds
import TrellisWire

/// Issue 22, focus across processes (docs/LIFECYCLE.md, "Focus across processes"): what
/// a host does with its parent's focus requests, garbage included.
@MainActor
@Suite(.timeLimit(.minutes(1))) struct FocusRequestTests {
    @Test func focusEntersAtEitherEndResignsAndRefusesAnythingElse() async throws {
        let t = try await HostUnderTest("focus", controller: ParityForm(id: "Child"))
        try await t.adopt(size: SizeTransition(width: 30, height: 4))
        let window = t.host.window
        // Tab from the parent: the first field; Shift-Tab: the last.
        #expect(try await t.request(ProcessChildRequest.focusEnter, Array("first".utf8)) == .ok)
        #expect(window.focusedView?.identifier == "b")
        #expect(try await t.request(ProcessChildRequest.focusEnter, Array("last".utf8)) == .ok)
        #expect(window.focusedView?.identifier == "c")
        // Garbage is refused with the reason, and focus stays where it was.
        for payload in [[], Array("middle".utf8), [0xFF, 0xFE], Array(repeating: UInt8(ascii: "f"), count: 4096)] {
            let answer = try await t.send(.request(Request(name: ProcessChildRequest.focusEnter, payload: payload)))
            #expect(answer?.status == .failed && String(decoding: answer?.payload ?? [], as: UTF8.self).contains("first or last"))
        }
        #expect(window.focusedView?.identifier == "c")
        // Focus left the child's tree.
        #expect(try await t.request(ProcessChildRequest.focusResign) == .ok)
        #expect(window.focusedView == nil)
        await t.close()
    }

    @Test func aTreeWithNothingFocusableDeclinesFocus() async throws {
        let t = try await HostUnderTest("no-focus", controller: ParityLeaf(id: "Child"))
        try await t.adopt(size: SizeTransition(width: 20, height: 4))
        #expect(try await t.request(ProcessChildRequest.focusEnter, Array("first".utf8)) == .declined)
        #expect(t.host.window.focusedView == nil)
        await t.close()
    }
}
