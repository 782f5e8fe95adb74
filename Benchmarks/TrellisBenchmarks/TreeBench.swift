import ArgumentParser
import Foundation
import Synchronization
import TrellisCanvas
import TrellisControllers
import TrellisLog
import TrellisViews

/// `trellis bench tree`: one in-process tree of 10,000 controllers — created, appeared,
/// and one trait change propagated to all — timed and weighed, beside the same tree of
/// plain Swift objects in the same run. The workload and the choice of baseline are
/// in docs/BENCHMARKS.md.
struct TreeBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tree",
        abstract: "10,000 in-process controllers in one tree vs the bare tree of objects.",
        discussion: """
            Every repetition builds a new tree breadth-first (controller i is a child of \
            controller (i-1)/fanout), each controller with a View holding a Label, embedded \
            the UIKit way. Timed apart: creation, the window taking the root (first traits), \
            makeKeyAndVisible (appearance of all), and a resize from 120 to 60 columns and back \
            (horizontal size class regular <-> compact: one trait change reaching every \
            controller). Callback counts are checked against the controller count. The \
            baseline builds the same shape from plain objects with the same weak parent and \
            child-array links, alternating with the controllers so drift hits both alike. \
            Then, in a process of its own, the actor placement beside the inline one: a root with --actor-children \
            children of the same controller class, each hosted as an actor child (a ChildHost \
            of its own, reached over an inproc link with a process child's messages) and, \
            alternating, the same children inline; the same steps timed, and the memory of one \
            child of each.
            """
    )

    @Option(help: "Controllers in the tree.") var count = 10_000
    @Option(help: "Children per controller (10 gives 10,000 controllers in 5 levels).") var fanout = 10
    @Option(help: "Timed repetitions; medians are reported.") var repetitions = 7
    @Option(help: "Children of the flat tree timed with actor children beside inline ones (0: none).") var actorChildren = 100

    func validate() throws {
        guard count >= 2 else { throw ValidationError("--count must be at least 2") }
        guard fanout >= 1 else { throw ValidationError("--fanout must be at least 1") }
        guard repetitions >= 1 else { throw ValidationError("--repetitions must be at least 1") }
        guard actorChildren >= 0 else { throw ValidationError("--actor-children must not be negative") }
    }

    @MainActor
    func run() async throws {
        var line = "bench=tree " + (try TreeWorkload(count: count, fanout: fanout).run(repetitions: repetitions))
        if actorChildren > 0 { line += " " + (try actorFigures()) }
        print(line)
    }

    /// The actor placement beside the inline one (issue 20): `trellis bench tree-actors`
    /// in a process of its own — a heap no big tree has been freed into, so that its
    /// memory figures mean something, and nothing of it in the big tree's peak. Its lines
    /// are printed here; its last, the figures, joins this bench's last line.
    func actorFigures() throws -> String {
        let (status, lines) = try runHelper(
            ["bench", "tree-actors", "--children", "\(actorChildren)", "--repetitions", "\(repetitions)"])
        lines.dropLast().forEach { print($0) }
        guard status == 0, let last = lines.last, last.hasPrefix("actor_children=") else {
            throw BenchError("tree-actors failed (status \(status))\(lines.last.map { ": \($0)" } ?? "")")
        }
        return String(last)
    }
}

/// Counts the callbacks the benchmark checks; the rest of the controller is what an
/// ordinary leaf screen has: a root view with one label.
final class TreeBenchController: ViewController {
    /// Atomics, as statics of a nonisolated class must be: every tree of the run counts here.
    private static let counts = Counts()
    private final class Counts: Sendable {
        let willAppear = Atomic<Int>(0), didAppear = Atomic<Int>(0), traitChanges = Atomic<Int>(0)
    }
    static var willAppear: Int { counts.willAppear.load(ordering: .relaxed) }
    static var didAppear: Int { counts.didAppear.load(ordering: .relaxed) }
    static var traitChanges: Int { counts.traitChanges.load(ordering: .relaxed) }

    static func resetCounts() {
        counts.willAppear.store(0, ordering: .relaxed)
        counts.didAppear.store(0, ordering: .relaxed)
        counts.traitChanges.store(0, ordering: .relaxed)
    }

    override func loadView() {
        let root = View(frame: Rect(x: 0, y: 0, width: 24, height: 2))
        root.addSubview(Label("tree", frame: Rect(x: 1, y: 0, width: 20, height: 1)))
        view = root
    }

    override func viewWillAppear(_ animated: Bool) { Self.counts.willAppear.add(1, ordering: .relaxed) }
    override func viewDidAppear(_ animated: Bool) { Self.counts.didAppear.add(1, ordering: .relaxed) }
    override func traitCollectionDidChange(_ previous: TraitCollection?) { Self.counts.traitChanges.add(1, ordering: .relaxed) }
}

/// The baseline: what the tree costs as a bare data structure. Per controller the same
/// three objects (controller, root view, label) and the same links — a weak parent and an
/// array of children on both the controller and the view side — with none of the
/// framework's behaviour.
final class BareNode {
    weak var parent: BareNode?
    var children: [BareNode] = []
    let view = BareView()
    var visits = 0

    init() { view.add(BareView()) }

    func add(_ child: BareNode) {
        children.append(child)
        child.parent = self
        view.add(child.view)
    }

    /// The floor under any walk that reaches every controller once.
    func visitAll() -> Int {
        visits &+= 1
        var n = 1
        for c in children { n += c.visitAll() }
        return n
    }
}

final class BareView {
    weak var superview: BareView?
    var subviews: [BareView] = []

    func add(_ view: BareView) {
        subviews.append(view)
        view.superview = self
    }
}

@MainActor
struct TreeWorkload {
    let count: Int
    let fanout: Int
    static let wide = Size(width: 120, height: 40)
    static let narrow = Size(width: 60, height: 40)

    var levels: Int {
        var (levels, reached, width) = (1, 1, 1)
        while reached < count { width *= fanout; reached += width; levels += 1 }
        return fanout == 1 ? count : levels
    }

    /// Creation as a container does it: init, addChild, view load, addSubview, didMove.
    func buildTree() -> TreeBenchController {
        var nodes: [TreeBenchController] = []
        nodes.reserveCapacity(count)
        let root = TreeBenchController()
        root.loadViewIfNeeded()
        nodes.append(root)
        for i in 1..<count {
            let parent = nodes[(i - 1) / fanout]
            let child = TreeBenchController()
            parent.addChild(child)
            parent.view.addSubview(child.view)
            child.didMove(toParent: parent)
            nodes.append(child)
        }
        return root
    }

    func buildBareTree() -> BareNode {
        var nodes: [BareNode] = []
        nodes.reserveCapacity(count)
        let root = BareNode()
        nodes.append(root)
        for i in 1..<count {
            let child = BareNode()
            nodes[(i - 1) / fanout].add(child)
            nodes.append(child)
        }
        return root
    }

    struct Sample {
        var create: UInt64 = 0, attach: UInt64 = 0, appear: UInt64 = 0, traits: [UInt64] = []
    }

    /// One tree through every step, each timed on its own and its callbacks counted.
    /// Returns the window holding the live, appeared tree.
    func cycle(_ sample: inout Sample) throws -> Window {
        let t0 = MonotonicClock.nanoseconds()
        let root = buildTree()
        sample.create = MonotonicClock.nanoseconds() - t0
        return try Self.show(root, controllers: count, in: &sample)
    }

    /// The steps after creation, for any tree of `TreeBenchController`s (the flat one of
    /// actor children too): a window takes `root`, shows it, and is resized to narrow and
    /// back, each step timed into `sample` and checked to have reached every one of
    /// `controllers` (`what` names the tree in an error). Returns the window.
    static func show(_ root: ViewController, controllers: Int, what: String = "", in sample: inout Sample) throws -> Window {
        func expect(_ step: String, _ calls: Int) throws {
            guard calls == controllers else { throw BenchError("\(what)\(step): \(calls) calls for \(controllers) controllers") }
        }
        let window = Window(size: wide)
        TreeBenchController.resetCounts()
        var t0 = MonotonicClock.nanoseconds()
        window.rootViewController = root
        sample.attach = MonotonicClock.nanoseconds() - t0
        try expect("traitCollectionDidChange when the window took the root", TreeBenchController.traitChanges)

        TreeBenchController.resetCounts()
        t0 = MonotonicClock.nanoseconds()
        window.makeKeyAndVisible()
        sample.appear = MonotonicClock.nanoseconds() - t0
        try expect("viewWillAppear", TreeBenchController.willAppear)
        try expect("viewDidAppear", TreeBenchController.didAppear)

        sample.traits = []
        for size in [narrow, wide] {
            TreeBenchController.resetCounts()
            t0 = MonotonicClock.nanoseconds()
            window.resize(to: size)
            sample.traits.append(MonotonicClock.nanoseconds() - t0)
            try expect("traitCollectionDidChange on resize to \(size.width) columns", TreeBenchController.traitChanges)
        }
        return window
    }

    /// Prints the tree's table and returns its figures for the last line.
    func run(repetitions: Int) throws -> String {
        print("tree benchmark: \(count) controllers, fanout \(fanout), \(levels) levels, each a View with a Label; "
            + "\(repetitions) repetitions, medians")

        // Weighed first, as growth of the resident set on a heap no tree has used yet,
        // both trees alive at once so that neither is built in memory the other freed.
        // This cycle is also the warm-up.
        let rssBefore = ProcessMemory.status("VmRSS")
        var bare: BareNode? = buildBareTree()
        let rssBare = ProcessMemory.status("VmRSS")
        var warm = Sample()
        var window: Window? = try cycle(&warm)
        let rssTree = ProcessMemory.status("VmRSS")
        let bareVisited = bare!.visitAll()
        guard bareVisited == count else { throw BenchError("the bare tree has \(bareVisited) nodes for \(count)") }
        withExtendedLifetime(window) {}
        (window, bare) = (nil, nil)
        let perBareNode = ProcessMemory.growth(from: rssBefore, to: rssBare, per: count)
        let perController = ProcessMemory.growth(from: rssBare, to: rssTree, per: count)

        var ours: [Sample] = []
        var bareCreate: [UInt64] = [], bareVisit: [UInt64] = []
        for _ in 0..<repetitions {
            var t0 = MonotonicClock.nanoseconds()
            let bareRoot = buildBareTree()
            bareCreate.append(MonotonicClock.nanoseconds() - t0)
            t0 = MonotonicClock.nanoseconds()
            let visited = bareRoot.visitAll()
            bareVisit.append(MonotonicClock.nanoseconds() - t0)
            guard visited == count else { throw BenchError("the bare tree has \(visited) nodes for \(count)") }

            var s = Sample()
            let w = try cycle(&s)
            withExtendedLifetime(w) {}
            ours.append(s)
        }
        let peakRSS = ProcessMemory.status("VmHWM")

        let create = Percentiles(ours.map(\.create)).p50 / 1e6
        let attach = Percentiles(ours.map(\.attach)).p50 / 1e6
        let appear = Percentiles(ours.map(\.appear)).p50 / 1e6
        let traits = Percentiles(ours.flatMap(\.traits)).p50 / 1e6
        let baseCreate = Percentiles(bareCreate).p50 / 1e6
        let baseVisit = Percentiles(bareVisit).p50 / 1e6
        let ratio = create / baseCreate
        let n = Double(count)

        func row(_ name: String, _ ms: Double, _ base: Double?) {
            let b = base.map { "  \(figure($0, 3).padded(12))  \(figure(ms / $0, 1).padded(8))" } ?? ""
            print("  \(name.padding(toLength: 44, withPad: " ", startingAt: 0))\(figure(ms, 2).padded(10))  \(figure(ms * 1e6 / n, 0).padded(10))\(b)")
        }
        print("  step                                        trellis ms  ns/ctrl     bare tree ms  ratio")
        row("create (init, addChild, view, didMove)", create, baseCreate)
        row("window takes the root (first traits)", attach, nil)
        row("appear (makeKeyAndVisible)", appear, baseVisit)
        row("trait change (resize 120<->60 columns)", traits, baseVisit)
        print("  (the bare tree's appear and trait figures are one recursive visit of every node: the floor of any walk)")
        let mb = { (kb: Int?) in kb.map { figure(Double($0) / 1024, 1) } ?? "n/a" }
        print("memory (resident set): \(mb(rssBefore)) MB before any tree, \(mb(rssBare)) MB with the bare tree, "
            + "\(mb(rssTree)) MB with the appeared controller tree too; peak \(mb(peakRSS)) MB")
        print("  \(perController.map { figure($0, 0) } ?? "n/a") bytes per controller (controller, view, label, links, traits, "
            + "layout state); bare tree \(perBareNode.map { figure($0, 0) } ?? "n/a") bytes per node")
        return (
            "controllers=\(count) fanout=\(fanout) create_ms=\(figure(create, 2)) attach_ms=\(figure(attach, 2)) "
                + "appear_ms=\(figure(appear, 2)) traits_ms=\(figure(traits, 2)) peak_rss_mb=\(mb(peakRSS)) "
                + "bytes_per_controller=\(perController.map { figure($0, 0) } ?? "n/a") "
                + "baseline_create_ms=\(figure(baseCreate, 3)) baseline_visit_ms=\(figure(baseVisit, 3)) "
                + "baseline_bytes_per_node=\(perBareNode.map { figure($0, 0) } ?? "n/a") ratio=\(figure(ratio, 1)) "
                + "repetitions=\(repetitions)")
    }
}

/// What the process holds, as the kernel counts it.
enum ProcessMemory {
    /// Bytes per item between two kB readings.
    static func growth(from before: Int?, to after: Int?, per items: Int) -> Double? {
        guard let before, let after else { return nil }
        return Double(after - before) * 1024 / Double(items)
    }

    /// A kB figure of /proc/self/status (VmRSS, VmHWM); nil where there is no /proc.
    static func status(_ key: String) -> Int? {
        // /proc files report size 0, so they are read to the end rather than by size.
        guard let file = FileHandle(forReadingAtPath: "/proc/self/status") else { return nil }
        defer { try? file.close() }
        let data = file.readDataToEndOfFile()
        for line in String(decoding: data, as: UTF8.self).split(separator: "\n") where line.hasPrefix(key + ":") {
            return Int(line.dropFirst(key.count + 1).split(whereSeparator: \.isWhitespace).first ?? "")
        }
        return nil
    }
}
