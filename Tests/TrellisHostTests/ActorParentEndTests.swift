import Foundation
import Synchronization
import Testing
import TrellisControllers
import TrellisHost
import TrellisLog
import TrellisTransport
import TrellisWire

/// Issue 20 ("One house": the actor placement is what its name says), docs/PROCESSES.md
/// "Placements": an actor child whose tree has a child in another process binds a parent
/// end of its own, on its own loop, and that child connects there. Its stand-in is made by
/// the actor's registry on the actor's loop, so the actor is not kept on its parent's loop
/// for it: the child's requests reach the actor there, the actor's calls reach the child,
/// and an actor that is busy holds up nothing of its parent's process. The child in
/// another process is a host on a loop of its own here, connected over `ipc://` as a
/// process is; `SessionEndToEndTests` has the same with processes.
@MainActor
@Suite(.timeLimit(.minutes(1))) struct ActorParentEndTests {
    /// What the relay and the test share across threads.
    typealias Flags = BusyUntilReleased

    /// An actor child with one child, asked of its registry by class in `init` (as a
    /// container that makes its children there does): the stand-in of a child in another
    /// process. Asked by its parent, it answers where it runs and asks its child the same.
    /// Asked by its child, it is busy on its loop's thread until let go (`BusyUntilReleased`).
    final class Relay: ViewController {
        let flags: Flags
        let grandchild: ViewController?

        init(registry: ControllerRegistry, flags: Flags) {
            self.flags = flags
            grandchild = registry.make("Grand", id: "Grand")
            super.init(id: "Relay")
            if let grandchild { addChild(grandchild) }
        }

        override func handle(_ request: Request, from child: ViewController) -> Reply? {
            switch request.name {
            case "where":
                let here = Thread.isMainThread ? "on the main thread" : "on its loop"
                let kind = grandchild.map { "\(type(of: $0))" } ?? "none"
                return Reply(status: .ok, payload: Array("\(here), its child a \(kind)".utf8))
            case "thread":
                return Reply(status: .ok, payload: Array(ActorParentEndTests.thread().utf8))
            case "ask-child":
                guard let child = grandchild as? RemoteController else { return Reply(status: .failed) }
                return child.port.exchange(.request(Request(name: "where")), from: id, to: child.id)
            case "busy":
                flags.hold()
                return Reply(status: .ok)
            default:
                return Reply(status: .declined)
            }
        }
    }

    /// The calling thread, as text: the main thread, or which other.
    nonisolated static func thread() -> String { Thread.isMainThread ? "main" : "\(pthread_self())" }

    /// Answers where it runs.
    final class Answering: ViewController {
        let answer: @Sendable () -> String
        init(id: ControllerID, answer: @escaping @Sendable () -> String) {
            self.answer = answer
            super.init(id: id)
        }
        override func handle(_ request: Request, from child: ViewController) -> Reply? {
            Reply(status: .ok, payload: Array(answer().utf8))
        }
    }

    @Test func anActorWithAChildInAnotherProcessRunsOnItsOwnLoopAndHoldsUpNothing() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-actor-end-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        defer { try? FileManager.default.removeItem(at: dir) }
        let relayEnd = "ipc://\(dir.path)/Relay"
        let parentLoop = IOLoop(mainQueueNamed: "end-parent")
        let flags = Flags()
        let actors = try await ActorChildren.bind(
            parent: "Parent", loop: parentLoop, log: .disabled, compositor: nil,
            registering: { registry in
                registry.register("Relay") { [unowned registry] in Relay(registry: registry, flags: flags) }
                registry.register("Steady") { id in Answering(id: id ?? "Steady") { Thread.isMainThread ? "main" : "on its loop" } }
            },
            parentEnds: ["Relay": ActorChildren.ParentEnd(endpoint: relayEnd, classes: ["Grand"])])
        let relay = actors.host("Relay", id: "Relay")
        let steady = actors.host("Steady", id: "Steady")
        #expect(await actors.children.waitForChild("Relay"))
        #expect(await actors.children.waitForChild("Steady"))

        // The relay runs on its own loop — not its parent's, the main thread here — and its
        // child there is the stand-in its own parent end made.
        let whereRelay = relay.port.exchange(.request(Request(name: "where")), from: "Parent", to: "Relay")
        #expect(whereRelay.map { String(decoding: $0.payload, as: UTF8.self) } == "on its loop, its child a RemoteController")

        // The child in "another process" connects to the relay's end, as the relay's child.
        let grandLoop = IOLoop(name: "end-grand")
        let grand = LoopBound<ChildHost?>(nil, loop: grandLoop)
        grandLoop.execute {
            grand.value = try? ChildHost.startActor(
                controller: Answering(id: "Grand") { grandLoop.isCurrent ? "the grandchild, on its loop" : "elsewhere" },
                parent: "Relay", endpoint: relayEnd, compositor: nil, loop: grandLoop, log: .disabled,
                treeLoop: IOLoopTurns(grandLoop))
        }
        // The relay's call down reaches it once it has connected (it may still be starting).
        var answered: String?
        let deadline = ContinuousClock.now + .seconds(10)
        while answered == nil, ContinuousClock.now < deadline {
            let reply = relay.port.exchange(.request(Request(name: "ask-child")), from: "Parent", to: "Relay")
            if reply?.status == .ok { answered = reply.map { String(decoding: $0.payload, as: UTF8.self) } }
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(answered == "the grandchild, on its loop")

        // The grandchild's request reaches the relay, its parent, which is busy with it on
        // its own loop's thread; meanwhile the parent's process goes on: its other actor
        // child answers.
        grandLoop.execute {
            grand.value?.proxy.port.post(.request(Request(name: "busy")), from: "Grand", to: "Relay")
        }
        let busyBy = ContinuousClock.now + .seconds(10)
        while !flags.busy.load(ordering: .acquiring), ContinuousClock.now < busyBy { try await Task.sleep(for: .milliseconds(5)) }
        let reached = flags.busy.load(ordering: .acquiring)
        #expect(reached, "the grandchild's request never reached the relay")
        let whereSteady = steady.port.exchange(.request(Request(name: "where")), from: "Parent", to: "Steady")
        #expect(whereSteady.map { String(decoding: $0.payload, as: UTF8.self) } == "on its loop")
        let stoppedEarly = flags.wasReleased.load(ordering: .relaxed) || flags.rounds.load(ordering: .acquiring) > 0
        #expect(!stoppedEarly, "the relay stopped being busy before the parent let it go")

        // Let go from here, the parent's thread: on one thread with the relay, it would have
        // been busy to its backstop before the parent could.
        flags.release.store(true, ordering: .releasing)
        while flags.rounds.load(ordering: .acquiring) == 0 { try await Task.sleep(for: .milliseconds(5)) }
        let released = flags.wasReleased.load(ordering: .relaxed)
        #expect(released, "the relay was not let go by its parent while it was busy")

        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            grandLoop.execute {
                if let host = grand.value { host.link.now { $0.close() } }
                grand.value = nil
                done.resume()
            }
        }
        grandLoop.shutdown()
        await actors.close()
        parentLoop.shutdown()
    }

    /// An actor child's own actor child (an actor under an actor) runs on a loop of its
    /// own as well, made there by its own registry: not its parent actor's thread, nor its
    /// process's main one.
    @Test func anActorsOwnActorChildRunsOnALoopOfItsOwn() async throws {
        let parentLoop = IOLoop(mainQueueNamed: "end-nested")
        let actors = try await ActorChildren.bind(
            parent: "Parent", loop: parentLoop, log: .disabled, compositor: nil,
            registering: { registry in
                registry.register("Relay") { [unowned registry] in Relay(registry: registry, flags: Flags()) }
                registry.register("Grand") { id in Answering(id: id ?? "Grand") { ActorParentEndTests.thread() } }
            },
            nested: ["Relay": ["Grand"]])
        let relay = actors.host("Relay", id: "Relay")
        #expect(await actors.children.waitForChild("Relay"))
        let text = { (reply: Reply?) in reply.map { String(decoding: $0.payload, as: UTF8.self) } }
        let whereRelay = text(relay.port.exchange(.request(Request(name: "where")), from: "Parent", to: "Relay"))
        #expect(whereRelay == "on its loop, its child a RemoteController")
        let relayThread = text(relay.port.exchange(.request(Request(name: "thread")), from: "Parent", to: "Relay"))
        let grandThread = text(relay.port.exchange(.request(Request(name: "ask-child")), from: "Parent", to: "Relay"))
        #expect(relayThread != nil && grandThread != nil && relayThread != "main" && grandThread != "main")
        #expect(relayThread != grandThread, "the actor's own actor child runs on its parent's thread")
        await actors.close()
        parentLoop.shutdown()
    }
}
