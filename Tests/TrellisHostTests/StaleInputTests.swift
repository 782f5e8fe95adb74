import Foundation
import Testing
import TrellisControllers
import TrellisHost
import TrellisLog
import TrellisTransport
import TrellisWire

/// Issue 19, finding 1: a root that fell behind ran taps 13–40 s after they were sent.
/// Input whose turn comes more than `Switchboard.inputBound` after it was read is
/// answered `stale` and logged, not run; input on time is run (docs/PROCESSES.md,
/// "Input on time").
@MainActor
@Suite(.timeLimit(.minutes(1))) struct StaleInputTests {
    /// A child that, once it is in its parent, adopts a grandchild in another process —
    /// which never starts, so the call waits out its bound, and what arrives meanwhile
    /// from the parent waits with it.
    final class WaitingChild: ViewController {
        let grandchild: RemoteController
        init(id: ControllerID, grandchild: RemoteController) {
            self.grandchild = grandchild
            super.init(id: id)
        }
        override func didMove(toParent parent: ViewController?) {
            super.didMove(toParent: parent)
            if parent != nil && grandchild.parent == nil { addChild(grandchild) }
        }
    }

    @Test func aTouchThatWaitedPastTheBoundIsAnsweredStaleNotRun() async throws {
        let test = try PrivateRun("stale")
        let run = test.run, log = test.log
        defer { withExtendedLifetime(test) {} }
        // The parent is a bare link on its own thread; the child's host runs as hosts do,
        // its main actor on its loop.
        let parentLoop = IOLoop(name: "parent"), loop = IOLoop(mainQueueNamed: "child")
        defer { parentLoop.shutdown(); loop.shutdown() }
        let endpoint = try run.ipcEndpoint("parent")
        let parent = try await Link.bind(id: "Parent", endpoint: endpoint, loop: parentLoop, log: log, options: .sharingTheTestsMainActor)
        let grandchildren = try await RemoteChildren.bind(parent: "Child", endpoint: try run.ipcEndpoint("child"), loop: loop, log: log)
        let child = WaitingChild(id: "Child", grandchild: grandchildren.proxy(for: "Grandchild"))
        let host = try await ChildHost.start(controller: child, parent: "Parent", endpoint: endpoint, loop: loop, log: log)
        let deadline = ContinuousClock.now + .seconds(5)
        while await !parent.isConnected("Child"), ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(5)) }
        _ = try await parent.request(.sizeTransition(SizeTransition(width: 20, height: 4)), to: "Child")
        _ = try await parent.request(.containment(Containment(.willMove, parent: "Parent")), to: "Child")

        // The child's didMove waits 2 s for a grandchild that never connects; a touch
        // sent 200 ms into that wait is read, and held until it ends. (From other tasks:
        // the wait holds the main actor, which this test shares with the host.)
        let moved = Task.detached { try await parent.request(.containment(Containment(.didMove, parent: "Parent")), to: "Child", timeout: .seconds(5)) }
        let touch = Message.touch(TouchInput(phase: .began, modifiers: [], tapCount: 1, pointer: 0, x: 2, y: 2, timestamp: 0))
        let sentLate = Task.detached {
            try await Task.sleep(for: .milliseconds(200))
            return try await parent.request(touch, to: "Child", timeout: .seconds(5))
        }
        _ = try await moved.value
        let late = try await sentLate.value
        guard case .reply(let reply) = late.message else {
            Issue.record("not a reply: \(late.message)")
            return
        }
        #expect(reply.status == .stale)
        #expect(String(decoding: reply.payload, as: UTF8.self).hasPrefix("stale: waited"))
        log.flush()
        var reader = LogReader(directory: run.logs)
        #expect(reader.readNew().contains { $0.kind == "touch" && $0.outcome == .dropped && $0.reason?.hasPrefix("stale") == true })

        // On time, the same touch is run.
        let onTime = try await parent.request(touch, to: "Child")
        guard case .reply(let fresh) = onTime.message else {
            Issue.record("not a reply: \(onTime.message)")
            return
        }
        #expect(fresh.status != .stale)
        await host.link.close()
        await grandchildren.link.close()
        await parent.close()
    }
}
