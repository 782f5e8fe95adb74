import Testing
import TrellisCanvas
import TrellisControllers
import TrellisHost
import TrellisSeeds
import TrellisWire

/// Issue 23, a presented controller in another process (docs/LIFECYCLE.md, "Presented in
/// another process"): what a host does with its presenter's requests, garbage included,
/// and what the presented controller sees there.
@MainActor
@Suite(.timeLimit(.minutes(1))) struct PresentRequestTests {
    @Test func aHostPresentsItsControllerWithoutAParentAndEndsThePresentation() async throws {
        let sheet = ParityPresented(id: "Sheet")
        let t = try await HostUnderTest("present", controller: sheet)
        // Garbage is refused with the reason, and nothing is presented.
        for payload in [[], Array("none".utf8), Array("sideways".utf8), [0xFF, 0xFE], Array(repeating: UInt8(ascii: "f"), count: 4096)] {
            let answer = try await t.send(.request(Request(name: ProcessChildRequest.present, payload: payload)))
            #expect(answer?.status == .failed && String(decoding: answer?.payload ?? [], as: UTF8.self).contains("presentation style"))
        }
        #expect(sheet.presentingViewController == nil)
        #expect(try await t.request(ProcessChildRequest.present, Array("formSheet".utf8)) == .ok)
        // What the presented controller sees in its process: presented by the proxy of the
        // presenter's process, no parent, the style asked for, being presented.
        #expect(sheet.presentingViewController === t.host.proxy && sheet.parent == nil)
        #expect(t.host.proxy.presentedViewController === sheet)
        #expect(sheet.modalPresentationStyle == .formSheet && sheet.isBeingPresented)
        #expect(try await t.request(ProcessChildRequest.present, Array("fullScreen".utf8)) == .failed, "presented already")
        _ = try await t.request(ProcessChildRequest.loadView)
        _ = try await t.send(.sizeTransition(SizeTransition(width: 20, height: 6)))
        #expect(sheet.view.convert(sheet.view.bounds, to: nil) == Rect(x: 0, y: 0, width: 20, height: 6), "it fills its window")
        _ = try await t.send(.appearance(Appearance(.willAppear, animated: false)))
        #expect(sheet.isBeingPresented)
        _ = try await t.send(.appearance(Appearance(.didAppear, animated: false)))
        #expect(!sheet.isBeingPresented && sheet.appearanceState == .appeared)
        // The dismissal.
        #expect(try await t.request(ProcessChildRequest.dismissing) == .ok)
        #expect(sheet.isBeingDismissed)
        _ = try await t.send(.appearance(Appearance(.willDisappear, animated: false)))
        _ = try await t.send(.appearance(Appearance(.didDisappear, animated: false)))
        #expect(try await t.request(ProcessChildRequest.presentEnd) == .ok)
        #expect(!sheet.isBeingDismissed && sheet.presentingViewController == nil && t.host.proxy.presentedViewController == nil)
        #expect(sheet.view.superview == nil)
        await t.close()
    }
}
