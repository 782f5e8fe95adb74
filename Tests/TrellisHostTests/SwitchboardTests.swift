import Foundation
import Testing
import TrellisControllers
import TrellisHost
import TrellisLog
import TrellisTransport
import Synchronization
import TrellisWire

/// Issue 19, "One mechanism for a call" (docs/TRANSPORT.md, "One call"): while a
/// controller waits for a child in another process, only that child's messages are
/// handled — the child calling back, as one process allows (S1-3, S2-4); what its own
/// parent sends meanwhile waits, and is handled after the call, in the order it came;
/// a timer due during the call fires after it (issue 21).
@MainActor
@Suite(.timeLimit(.minutes(1))) struct SwitchboardTests {
    /// In the middle of a tree: when its parent moves it in, it adopts a child in
    /// another process, and it notes every request it handles.
    final class Middle: ViewController {
        let leaf: RemoteController
        var handled: [String] = []
        init(leaf: RemoteController) {
            self.leaf = leaf
            super.init(id: "Middle")
        }
        override func didMove(toParent parent: ViewController?) {
            super.didMove(toParent: parent)
            guard parent != nil, leaf.parent == nil else { return }
            handled.append("adopting Leaf")
            // Due long before the call below ends: it must wait for it (issue 21).
            scheduleTimer(after: .milliseconds(10)) { [unowned self] _ in handled.append("timer") }
            addChild(leaf)
            leaf.didMove(toParent: self)
            handled.append("Leaf adopted")
        }
        override func handle(_ request: Request, from child: ViewController) -> Reply? {
            handled.append("\(request.name) from \(child.id)")
            return Reply(status: .ok)
        }
    }

    @Test func duringACallOnlyTheCalleeIsServedAndTheRestFollowsInOrder() async throws {
        // The leaf holds its answer to `didMove` until the test lets it go.
        let held = Mutex<Envelope?>(nil)
        let ends = try await ThreeEnds("switchboard", middle: { Middle(leaf: $0) }, leaf: { envelope, _ in
            guard case .containment(let c) = envelope.message, c.phase == .didMove else { return .handled }
            held.withLock { $0 = envelope }
            return .deferred
        })
        let top = ends.top, leaf = ends.leaf, middle = ends.middle

        // From other tasks: Middle's call holds the main actor, which this test shares.
        let script = Task.detached {
            let moved = Task { try await top.request(.containment(Containment(.didMove, parent: "Top")), to: "Middle") }
            // Middle is now waiting for Leaf's answer to didMove.
            while held.withLock({ $0 }) == nil { try await Task.sleep(for: .milliseconds(2)) }
            // Top's next messages arrive during the call: held, not handled.
            try await top.send(.request(Request(name: "A")), to: "Middle")
            try await top.send(.request(Request(name: "B")), to: "Middle")
            try await Task.sleep(for: .milliseconds(100))
            // The callee calls back: answered in the middle of the call.
            let ask = try await leaf.request(.request(Request(name: "ask")))
            // Now Leaf answers, and the call ends.
            if let envelope = held.withLock({ $0 }) { await leaf.acknowledge(envelope) }
            _ = try await moved.value
            return ask
        }
        let ask = try await script.value
        guard case .reply(let reply) = ask.message else {
            Issue.record("not a reply: \(ask.message)")
            return
        }
        #expect(reply.status == .ok)
        let settled = ContinuousClock.now + .seconds(20)
        while middle.handled.count < 6, ContinuousClock.now < settled { try await Task.sleep(for: .milliseconds(5)) }
        #expect(middle.handled.filter { $0 != "timer" } == ["adopting Leaf", "ask from Leaf", "Leaf adopted", "A from Top", "B from Top"])
        // The timer fired after the call, never inside it.
        let timer = middle.handled.firstIndex(of: "timer"), adopted = middle.handled.firstIndex(of: "Leaf adopted")
        #expect(timer != nil && adopted != nil && timer! > adopted!, "\(middle.handled)")
        await ends.close()
    }
}
