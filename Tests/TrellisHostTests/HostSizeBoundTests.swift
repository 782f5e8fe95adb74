import Foundation
import Testing
import TrellisCanvas
import TrellisControllers
import TrellisHost
import TrellisSeeds
import TrellisTransport
import TrellisWire

/// Issue 19, "bounds on every input": a size transition carries UInt32 sides, and a
/// window of 65535×65535 cells is 4 billion of them. A host refuses a size past
/// `Size.surfaceCells` with a `failed` reply and keeps the size it had.
@MainActor
@Suite(.timeLimit(.minutes(1))) struct HostSizeBoundTests {
    @Test func aSizeNoSurfaceMayHaveIsRefusedAndTheHostGoesOn() async throws {
        let t = try await HostUnderTest("size", controller: ParityChild(id: "Child"))
        let parent = t.parent, host = t.host
        _ = try await parent.request(.sizeTransition(SizeTransition(width: 20, height: 4)), to: "Child")

        for (w, h) in [(UInt32(65535), UInt32(65535)), (.max, 1), (4_000_001, 1)] {
            // Answered with handler-failed and the reason, not acknowledged.
            await #expect(throws: LinkError.self, "\(w)×\(h)") {
                _ = try await parent.request(.sizeTransition(SizeTransition(width: w, height: h)), to: "Child")
            }
        }
        #expect(host.window.size == Size(width: 20, height: 4))
        // A size within the bound, wider than any screen (a row of pages), is taken.
        _ = try await parent.request(.sizeTransition(SizeTransition(width: 3000, height: 10)), to: "Child")
        #expect(host.window.size == Size(width: 3000, height: 10))
        await t.close()
    }

    /// The same bound holds for a size transition a parent's coordinator sends step by step
    /// (`ProcessChildRequest`), and a payload that is not a size is refused with the reason;
    /// either way no transition is left begun, and the next one runs.
    @Test func aSizeTransitionPastTheBoundOrMalformedIsRefused() async throws {
        let t = try await HostUnderTest("size-transition", controller: ParityStep(id: "Child"))
        let parent = t.parent, host = t.host
        func step(_ name: String, _ payload: [UInt8] = []) async throws -> Reply.Status? { try await t.request(name, payload) }
        func transition(_ w: UInt32, _ h: UInt32) -> [UInt8] {
            [w, h, 0].flatMap { v in (0..<4).map { UInt8(truncatingIfNeeded: v >> (24 - 8 * $0)) } }
        }
        _ = try await parent.request(.containment(Containment(.willMove, parent: "Parent")), to: "Child")
        _ = try await step(ProcessChildRequest.loadView)
        _ = try await parent.request(.sizeTransition(SizeTransition(width: 20, height: 4)), to: "Child")
        for payload in [transition(65535, 65535), [1, 2, 3]] {
            #expect(try await step(ProcessChildRequest.sizeTransition, payload) == .failed, "\(payload.count) bytes")
        }
        _ = try await step(ProcessChildRequest.sizeTransition, transition(30, 5))
        _ = try await parent.request(.sizeTransition(SizeTransition(width: 30, height: 5)), to: "Child")
        _ = try await step(ProcessChildRequest.alongside)
        _ = try await step(ProcessChildRequest.complete)
        #expect(host.window.size == Size(width: 30, height: 5))
        #expect(host.controller.view.bounds.size == Size(width: 30, height: 5))
        await t.close()
    }
}
