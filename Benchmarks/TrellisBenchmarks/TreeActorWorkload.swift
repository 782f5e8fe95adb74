import Foundation
import TrellisCanvas
import TrellisControllers
import TrellisHost
import TrellisLog
import TrellisTransport
import TrellisViews
import TrellisWire

/// The actor placement's part of `trellis bench tree` (issue 20): one root with `children`
/// children, each the same `TreeBenchController` as the big tree's, hosted as actor
/// children (`ActorChildren`: a `ChildHost` each, reached over an `inproc://` link with a
/// process child's messages) — beside the same root with the same children inline,
/// alternating in the same run. A flat tree, so that every figure divided by `children`
/// is what one actor child costs its parent over one inline child: each step of an actor
/// child is messages and a wait, where an inline child's is a call (docs/BENCHMARKS.md).
@MainActor
struct TreeActorWorkload {
    let children: Int
    /// Serves the main actor, as a host's main-thread loop does: the parent's calls to an
    /// actor child wait by running it (`Switchboard`).
    let loop: IOLoop
    let log: RoutingLog
    static let rootID: ControllerID = "Root"

    typealias Sample = TreeWorkload.Sample

    /// One flat tree, inline or with actor children, built, attached, appeared and changed
    /// twice, each step timed and its callbacks counted. Returns what keeps it alive.
    func cycle(actor: Bool, children: Int? = nil, _ sample: inout Sample) async throws -> (Window, ActorChildren?) {
        let children = children ?? self.children
        // Binding the parent end is once per parent in a process, not per child: not timed.
        let actors = actor ? try await ActorChildren.bind(parent: Self.rootID, loop: loop, log: log, compositor: nil) : nil
        let root = TreeBenchController(id: Self.rootID)
        let t0 = MonotonicClock.nanoseconds()
        root.loadViewIfNeeded()
        for i in 1...children {
            let id = ControllerID("C\(i)")!
            // Made here and handed whole to its own loop, or kept here inline.
            let child: ViewController = if let actors { actors.host(TreeBenchController(id: id)) } else { TreeBenchController(id: id) }
            root.addChild(child)
            root.view.addSubview(child.view)
            child.view.frame = Rect(x: 0, y: i % 40, width: 24, height: 2)
            child.didMove(toParent: root)
        }
        sample.create = MonotonicClock.nanoseconds() - t0
        if let actors {
            for i in 1...children where await !actors.children.link.connectedPeers.contains(ControllerID("C\(i)")!) {
                throw BenchError("actor child C\(i) did not connect to its parent")
            }
        }

        let window = try TreeWorkload.show(
            root, controllers: children + 1, what: actor ? "actor children: " : "inline children: ", in: &sample)
        return (window, actors)
    }

    struct Figures {
        var create = 0.0, attach = 0.0, appear = 0.0, traits = 0.0
        var bytesPerChild: Double?
    }

    /// The memory of one child of each placement: resident-set growth with a tree of
    /// each built and appeared, both alive. Weighed on a heap nothing has freed into yet
    /// (`trellis bench tree` runs this part in a process of its own): growth over
    /// reused memory would say nothing. One actor child comes and goes first, so what a
    /// process pays once for any link (the libzmq context and its I/O thread, the routing
    /// log's writer) is not put on the children.
    func weigh() async throws -> (inline: Double?, actor: Double?) {
        var warm = Sample()
        let once = try await cycle(actor: true, children: 1, &warm)
        await once.1?.close()
        withExtendedLifetime(once.0) {}
        let before = ProcessMemory.status("VmRSS")
        let inlineTree = try await cycle(actor: false, &warm)
        let withInline = ProcessMemory.status("VmRSS")
        let actorTree = try await cycle(actor: true, &warm)
        let withActors = ProcessMemory.status("VmRSS")
        await actorTree.1?.close()
        withExtendedLifetime((inlineTree, actorTree)) {}
        return (
            ProcessMemory.growth(from: before, to: withInline, per: children),
            ProcessMemory.growth(from: withInline, to: withActors, per: children))
    }

    /// Medians over `repetitions` of each placement, alternating, with the memory `weigh` found.
    func run(repetitions: Int, memory: (inline: Double?, actor: Double?)) async throws -> (inline: Figures, actor: Figures) {
        var samples: [Bool: [Sample]] = [false: [], true: []]
        for _ in 0..<repetitions {
            for actor in [false, true] {
                var s = Sample()
                let tree = try await cycle(actor: actor, &s)
                await tree.1?.close()
                withExtendedLifetime(tree.0) {}
                samples[actor]!.append(s)
            }
        }
        func figures(_ s: [Sample], memory: Double?) -> Figures {
            Figures(
                create: Percentiles(s.map(\.create)).p50 / 1e6, attach: Percentiles(s.map(\.attach)).p50 / 1e6,
                appear: Percentiles(s.map(\.appear)).p50 / 1e6, traits: Percentiles(s.flatMap(\.traits)).p50 / 1e6,
                bytesPerChild: memory)
        }
        return (
            figures(samples[false]!, memory: memory.inline), figures(samples[true]!, memory: memory.actor))
    }
}
