import Foundation
import Testing
import TrellisCanvas
import TrellisControllers
import TrellisHost
import TrellisLog
import TrellisTransport
import TrellisWire

/// docs/LIFECYCLE.md "State restoration", issue 20 phase 2: an actor child on a loop of its
/// own keeps a state of its own, told to its parent over its link as a process child's
/// is; its process keeps it as part of its own (`StateRestoration.keep(part:of:)`), saved
/// as one whole, and after a restart hands it back to the child made again, on its loop.
/// Issue 20: an actor child's own actor child, on a loop of its own too, keeps its state
/// as part of its parent's, and so of the process's.
@MainActor
@Suite(.timeLimit(.minutes(1))) struct ActorChildStateTests {
    /// Counts the requests it handled; the count is its state.
    final class Counter: ViewController {
        var count = 0
        override func handle(_ request: Request, from child: ViewController) -> Reply? {
            // Its state comes back just before its view loads.
            loadViewIfNeeded()
            count += 1
            setNeedsStateSave()
            return Reply(status: .ok, payload: Array("\(count)".utf8))
        }
        override func encodeRestorableState(with coder: RestorationCoder) { coder.encode(count, forKey: "count") }
        override func decodeRestorableState(with coder: RestorationCoder) { count = coder.decode(Int.self, forKey: "count") ?? 0 }
    }

    /// An actor child whose own actor child is the counter, made in its `init`: it hands on
    /// what it is asked.
    final class Outer: ViewController {
        let inner: ViewController?
        init(registry: ControllerRegistry, id: ControllerID?) {
            inner = registry.make("Counter", id: "Counter")
            super.init(id: id ?? "Outer")
            if let inner {
                addChild(inner)
                inner.didMove(toParent: self)
            }
        }
        override func handle(_ request: Request, from child: ViewController) -> Reply? {
            guard let inner = inner as? RemoteController else { return Reply(status: .failed) }
            return inner.port.exchange(.request(request), from: id, to: inner.id)
        }
    }

    /// One run of the process: a window whose state is `state`, its root adopting the
    /// actor child "Counter" (or "Outer", whose actor child it is); `bumps` requests to
    /// it, each answered with the count.
    private func run(
        _ name: String, state: StateRestoration, restoring: [UInt8]? = nil, bumps: Int, underAnActor: Bool,
        stateAfterHosting: Bool = false
    ) async throws -> [String] {
        let loop = IOLoop(mainQueueNamed: "actor-state-\(name)")
        let window = Window(size: Size(width: 20, height: 4), stateRestoration: state)
        let actors = try await ActorChildren.bind(
            parent: "Parent", loop: loop, log: .disabled, compositor: nil,
            registering: { registry in
                registry.register("Counter") { id in Counter(id: id) }
                registry.register("Outer") { [unowned registry] id in Outer(registry: registry, id: id) }
            },
            nested: ["Outer": ["Counter"]], stateRestoration: state)
        // A restarted process is handed its state before its tree asks for its children —
        // or after, when its root made them in its `init`, before it connected to its parent.
        if let restoring, !stateAfterHosting { try state.received(restoring) }
        let root = ViewController(id: "Parent")
        window.rootViewController = root
        let id: ControllerID = underAnActor ? "Outer" : "Counter"
        let child = actors.host(id.rawValue, id: id)
        if let restoring, stateAfterHosting { try state.received(restoring) }
        #expect(await actors.children.waitForChild(id))
        root.addChild(child)
        child.didMove(toParent: root)
        var answers: [String] = []
        for _ in 0..<bumps {
            let reply = child.port.exchange(.request(Request(name: "bump")), from: "Parent", to: id)
            answers.append(reply.map { String(decoding: $0.payload, as: UTF8.self) } ?? "acked")
        }
        // The child's save reaches the process's state over its link, then is saved with it.
        for _ in 0..<200 where state.saver != nil {
            try await Task.sleep(for: .milliseconds(10))
            if savedCount(in: lastSaved.bytes) == bumps + (restoring == nil ? 0 : 2) { break }
        }
        await actors.close()
        loop.shutdown()
        return answers
    }

    /// What the process saved last, as its host would send it up.
    final class Saved { var bytes: [UInt8] = [] }
    private let lastSaved = Saved()

    private func savedCount(in bytes: [UInt8]) -> Int? {
        guard let states = try? JSONDecoder().decode([String: [String: Data]].self, from: Data(bytes)),
              let count = states["Counter"]?["count"] else { return nil }
        return try? JSONDecoder().decode(Int.self, from: count)
    }

    /// `stateAfterHosting`: the state comes back while the child's own actor children are
    /// still being bound on its loop, before its host is made there — it is not lost.
    @Test(arguments: [(false, false), (true, false), (false, true), (true, true)])
    func anActorChildsStateIsSavedWithItsProcesssAndComesBackAfterARestart(underAnActor: Bool, stateAfterHosting: Bool) async throws {
        let first = StateRestoration()
        first.saver = { [lastSaved] bytes in lastSaved.bytes = bytes }
        #expect(try await run("first", state: first, bumps: 2, underAnActor: underAnActor) == ["1", "2"])
        let saved = lastSaved.bytes
        #expect(savedCount(in: saved) == 2, "the process's state has not the child's: \(String(decoding: saved, as: UTF8.self))")

        let restarted = StateRestoration()
        restarted.saver = { [lastSaved] bytes in lastSaved.bytes = bytes }
        let again = try await run(
            "restarted", state: restarted, restoring: saved, bumps: 2, underAnActor: underAnActor, stateAfterHosting: stateAfterHosting)
        #expect(again == ["3", "4"])
        #expect(savedCount(in: lastSaved.bytes) == 4)
    }
}
