import Foundation
import Synchronization
import Testing
import TrellisControllers
import TrellisHost
import TrellisLog
import TrellisTransport
import TrellisWire

/// Issue 20 ("One house", phase 2), docs/PROCESSES.md "Placements": a child hosted apart
/// in its parent's process on an `IOLoop` of its own — its host, window, tree and link
/// there — is reached over an inproc link as a process child is, and a child that spins
/// cannot hold up its parent's process: the parent's other work goes on (here: a call to
/// another child, answered), and its call to the spinning child is bounded by the request
/// timeout, as a call to a process is.
@MainActor
@Suite(.timeLimit(.minutes(1))) struct ActorLoopIsolationTests {
    /// Spins on its own loop's thread when asked, until it is let go or a backstop passes.
    final class Spinner: ViewController {
        let flags: Flags
        init(_ flags: Flags) {
            self.flags = flags
            super.init(id: "Spinner")
        }
        override func handle(_ request: Request, from child: ViewController) -> Reply? {
            guard request.name == "spin" else { return Reply(status: .declined) }
            // A busy child: nothing of its own loop runs until it is let go.
            flags.hold()
            return Reply(status: .ok)
        }
    }

    /// Answers where it ran: on its own loop's thread — not the parent's, the main
    /// thread here — or not.
    final class Steady: ViewController {
        let isOnItsLoop: @Sendable () -> Bool
        init(id: ControllerID? = "Steady", isOnItsLoop: @escaping @Sendable () -> Bool) {
            self.isOnItsLoop = isOnItsLoop
            super.init(id: id)
        }
        override func handle(_ request: Request, from child: ViewController) -> Reply? {
            Reply(status: .ok, payload: Array((isOnItsLoop() ? "on its loop" : "elsewhere").utf8))
        }
    }

    /// What the spinner and the test share across the two threads.
    typealias Flags = BusyUntilReleased

    /// Starts `make`'s controller's host on `loop` — made there, kept there.
    private func host(
        on loop: IOLoop, parent: ControllerID, endpoint: String, log: RoutingLog,
        _ make: @escaping @Sendable () -> ViewController
    ) -> LoopBound<ChildHost?> {
        let kept = LoopBound<ChildHost?>(nil, loop: loop)
        loop.execute {
            kept.value = try? ChildHost.startActor(
                controller: make(), parent: parent, endpoint: endpoint, compositor: nil, loop: loop, log: log,
                treeLoop: IOLoopTurns(loop))
        }
        return kept
    }

    /// The scenario: the spinner spins; meanwhile the parent calls its other child and is
    /// answered, and its call to the spinner fails at the request timeout; then it lets
    /// the spinner go, from its own thread.
    private func spinWhileTheParentGoesOn(_ children: RemoteChildren, _ flags: Flags) async throws {
        // Posted: the spinner takes it on its own thread and spins there.
        children.proxy(for: "Spinner").port.post(.request(Request(name: "spin")), from: "Parent", to: "Spinner")
        while !flags.busy.load(ordering: .acquiring) { try await Task.sleep(for: .milliseconds(5)) }

        // Meanwhile the parent's process goes on: it calls its other child, which answers
        // from its own loop.
        let answer = children.proxy(for: "Steady").port.exchange(.request(Request(name: "where")), from: "Parent", to: "Steady")
        #expect(answer.map { String(decoding: $0.payload, as: UTF8.self) } == "on its loop")
        // Its call to the spinner is bounded, as a call to a process is: no answer in time.
        let bounded = children.proxy(for: "Spinner").port.exchange(.request(Request(name: "spin")), from: "Parent", to: "Spinner")
        #expect(bounded?.status == .failed)
        let stoppedEarly = flags.wasReleased.load(ordering: .relaxed)
        #expect(!stoppedEarly, "the spinner stopped before the parent let it go")

        // Let go from here, the parent's thread: on one thread with it, the spinner would
        // have spun to its backstop before the parent could.
        flags.release.store(true, ordering: .releasing)
        while flags.rounds.load(ordering: .acquiring) == 0 { try await Task.sleep(for: .milliseconds(5)) }
        let released = flags.wasReleased.load(ordering: .relaxed)
        #expect(released, "the spinner was not let go by its parent while it spun")
    }

    @Test func aSpinningChildOnALoopOfItsOwnHoldsUpNothingOfItsParents() async throws {
        let parentLoop = IOLoop(mainQueueNamed: "iso-parent")
        let spinnerLoop = IOLoop(name: "iso-spinner"), steadyLoop = IOLoop(name: "iso-steady")
        let endpoint = "inproc://actor-loop-isolation-\(UInt32.random(in: 0...UInt32.max))"
        var options = LinkOptions()
        options.requestTimeout = .milliseconds(500)
        let children = try await RemoteChildren.bind(
            parent: "Parent", endpoint: endpoint, loop: parentLoop, log: .disabled, options: options)
        let flags = Flags()
        let spinner = host(on: spinnerLoop, parent: "Parent", endpoint: endpoint, log: .disabled) { Spinner(flags) }
        let steady = host(on: steadyLoop, parent: "Parent", endpoint: endpoint, log: .disabled) { Steady { steadyLoop.isCurrent } }
        #expect(await children.waitForChild("Spinner"))
        #expect(await children.waitForChild("Steady"))
        try await spinWhileTheParentGoesOn(children, flags)

        // The spinner's handling of the second (timed-out) spin ends at once, released.
        for (loop, kept) in [(spinnerLoop, spinner), (steadyLoop, steady)] {
            await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                loop.execute {
                    if let host = kept.value { host.link.now { $0.close() } }
                    kept.value = nil
                    done.resume()
                }
            }
            loop.shutdown()
        }
        await children.link.close()
        parentLoop.shutdown()
    }

    /// The same through the placement itself: `ActorChildren` starts each child on a loop
    /// of its own, its controller made there by the registry it fills there.
    @Test func anActorChildThatSpinsHoldsUpNothingOfItsParents() async throws {
        let parentLoop = IOLoop(mainQueueNamed: "iso-actors")
        let flags = Flags()
        let actors = try await ActorChildren.bind(
            parent: "Parent", loop: parentLoop, log: .disabled, compositor: nil,
            registering: { registry in
                registry.register("Spinner") { Spinner(flags) }
                // Its own loop is no main-queue loop: off the main thread, where the parent is.
                registry.register("Steady") { id in Steady(id: id) { !Thread.isMainThread } }
            })
        _ = actors.host("Spinner", id: "Spinner")
        _ = actors.host("Steady", id: "Steady")
        #expect(await actors.children.waitForChild("Spinner"))
        #expect(await actors.children.waitForChild("Steady"))
        try await spinWhileTheParentGoesOn(actors.children, flags)
        await actors.close()
        parentLoop.shutdown()
    }
}
