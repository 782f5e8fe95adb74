import Foundation
import Synchronization
import Testing
import TrellisControllers
@testable import TrellisHost
import TrellisLog
import TrellisSeeds
import TrellisTransport
import TrellisWire

/// Issue 19, finding 6: a restarted child sometimes never drew. Its parent replays the
/// child's state the moment the child says hello; the host handled that replay while it
/// was still connecting to the compositor, with nothing yet to send frames, and no
/// later change asked for one. Here a parent sends the size the instant the child
/// connects, as a replay does, and every start must reach the compositor as a frame.
@MainActor
@Suite(.timeLimit(.minutes(1))) struct FirstFrameTests {
    @Test func aChildSizedTheMomentItConnectsAlwaysSendsItsFirstFrame() async throws {
        let test = try PrivateRun("ff")
        let run = test.run, log = test.log
        defer { withExtendedLifetime(test) {} }
        let parentLoop = IOLoop(name: "parent"), hostLoop = IOLoop(mainQueueNamed: "host")
        defer { parentLoop.shutdown(); hostLoop.shutdown() }
        for start in 1...10 {
            let frames = Mutex(0)
            let parentBox = Mutex<Link?>(nil)
            let parent = try await Link.bind(
                id: "Parent", endpoint: try run.ipcEndpoint("p\(start)"), loop: parentLoop, log: log, options: .sharingTheTestsMainActor,
                onPeer: { event in
                    guard event == .connected("Child"), let parent = parentBox.withLock({ $0 }) else { return }
                    parent.run { l in _ = try? l.send(.sizeTransition(SizeTransition(width: 20, height: 3)), to: "Child") }
                })
            parentBox.withLock { $0 = parent }
            let compositor = try await Link.bind(
                id: ChildHost.compositorID, endpoint: try run.ipcEndpoint("c\(start)"), loop: parentLoop, log: log,
                options: .sharingTheTestsMainActor,
                onMessage: { e, _ in
                    if case .frame = e.message { frames.withLock { $0 += 1 } }
                    return .handled
                })
            let host = try await ChildHost.start(
                controller: ParityChild(id: "Child"), parent: "Parent", endpoint: try run.ipcEndpoint("p\(start)"),
                compositor: try run.ipcEndpoint("c\(start)"), loop: hostLoop, log: log)
            let deadline = ContinuousClock.now + .seconds(3)
            while frames.withLock({ $0 }) == 0, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(5)) }
            #expect(frames.withLock { $0 } > 0, "start \(start) sent no frame")
            await host.link.close()
            if let c = host.compositorLink { await c.close() }
            await parent.close()
            await compositor.close()
        }
    }
}
