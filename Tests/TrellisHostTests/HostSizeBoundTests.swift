import Foundation
import Testing
import TrellisCanvas
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
        let test = try PrivateRun("size")
        defer { withExtendedLifetime(test) {} }
        let parentLoop = IOLoop(name: "parent"), loop = IOLoop(mainQueueNamed: "host")
        defer { parentLoop.shutdown(); loop.shutdown() }
        let endpoint = try test.run.ipcEndpoint("parent")
        let parent = try await Link.bind(id: "Parent", endpoint: endpoint, loop: parentLoop, log: test.log, options: .sharingTheTestsMainActor)
        let host = try await ChildHost.start(
            controller: ParityChild(id: "Child"), parent: "Parent", endpoint: endpoint, loop: loop, log: test.log)
        let deadline = ContinuousClock.now + .seconds(5)
        while await !parent.isConnected("Child"), ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(5)) }
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
        await host.link.close()
        await parent.close()
    }
}
