import TrellisCanvas
import TrellisCompositor
import TrellisControllers
import TrellisLog
import TrellisSeeds
import TrellisTerminal
import TrellisWire

/// The compose benchmark's tab switch: the compositor's side of the demo's tab switch
/// (issue 20, `trellis bench e2e`'s tab), on the demo's own surfaces.
///
/// The demo's root (DemoTabs, its tabs proxies of children in other processes, as in its
/// host) and the two tabs the e2e bench switches between (seed 000 and seed 001, each in
/// a window of its viewport's size, as in its own host) make their frames and placements
/// before the clock starts, in the order the root's host sends them (`FramePublisher`:
/// new placements, its frame, then the placements hidden). Per switch, timed: each batch
/// of a tap on the other tab's button applied to the `SurfaceTree` (frames and
/// placements), the screen composed, its damage taken and `ScreenWriter`'s bytes written
/// to /dev/null — what the compositor does between the root's batch arriving and the
/// terminal getting the new tab.
@MainActor
struct ComposeTabSwitch {
    static let screen = Size(width: 80, height: 24)
    /// The e2e bench's tabs: 000 circle and 001 embed.
    static let tabs = ["Seed000", "Seed001"]

    /// One host's message, as the compositor receives it.
    typealias Batch = [(source: ControllerID, message: Message)]

    let root: ControllerID = "Demo"
    /// What the tree holds before the first switch: every first frame and placement.
    let start: Batch
    /// A cycle of switches (to the other tab and back), each the batches its tap sends.
    let switches: [[Batch]]

    init() {
        let port = AnsweringPort()
        let registry = ControllerRegistry()
        for tab in DemoTabs.tabs {
            registry.register(tab.name) { id in RemoteController(id: id ?? ControllerID(tab.name)!, port: port) }
        }
        let demo = DemoTabs(registry: registry)
        let window = Window(size: Self.screen)
        window.rootViewController = demo
        window.makeKeyAndVisible()
        var publisher = Publisher(source: root)
        var start = publisher.publish(window)

        // The tabs' own hosts: each seed in a window of its viewport's size.
        let seeds = ControllerRegistry()
        SeedControllers.register(in: seeds)
        let viewport = window.remotePlacements.first.map { Rect($0.frame).size } ?? Self.screen
        for name in Self.tabs {
            let id = ControllerID(name)!
            guard let seed = seeds.make(name, id: id) else { preconditionFailure("no seed \(name)") }
            let host = Window(size: viewport)
            host.rootViewController = seed
            host.makeKeyAndVisible()
            if let frame = host.takeFrame(number: 1) { start.append((id, .frame(frame))) }
        }
        self.start = start

        // A tap on the other tab's button: each touch's batch.
        let buttons = (0..<2).map { i in demo.tabBar.subviews.first { $0.identifier == "tab\(i)" } }
        guard let first = buttons[0], let second = buttons[1] else { preconditionFailure("the demo has fewer than two tabs") }
        var switches: [[Batch]] = []
        for button in [second, first] {
            let at = button.convert(Point(x: button.bounds.width / 2, y: 0), to: window.rootView)
            var batches: [Batch] = []
            for phase in [TouchInput.Phase.began, .ended] {
                _ = window.touch(phase, at: at)
                let batch = publisher.publish(window)
                if !batch.isEmpty { batches.append(batch) }
            }
            switches.append(batches)
        }
        precondition(demo.selectedIndex == 0, "the tabs did not switch there and back")
        precondition(switches.allSatisfy { $0.joined().contains { if case .placement = $1 { true } else { false } } },
                     "a tab switch placed nothing")
        self.switches = switches
    }

    /// The compositor's state after the first frames, and a writer that has drawn it once.
    func startingState() throws -> (SurfaceTree, Surface, ScreenWriter) {
        var tree = SurfaceTree(root: root)
        try Self.apply(start, to: &tree)
        let (screen, writer) = ComposeScene.drawnOnce(&tree, on: Self.screen)
        return (tree, screen, writer)
    }

    static func apply(_ batch: Batch, to tree: inout SurfaceTree) throws {
        for (source, message) in batch {
            switch message {
            case .frame(let f): try tree.apply(f, from: f.layer ?? source)
            case .placement(let p): tree.place(p, by: source)
            default: break
            }
        }
    }

    /// Times `count` switches through the compositor's path: per batch, apply, compose,
    /// take the damage, write the bytes.
    func measure(count: Int, sink: DevNull) throws -> ComposeRun {
        var (tree, screen, writer) = try startingState()
        var bytes = 0
        let cpu0 = threadCPUNanoseconds(), wall0 = MonotonicClock.nanoseconds()
        for i in 0..<count {
            for batch in switches[i % switches.count] {
                try Self.apply(batch, to: &tree)
                tree.compose(into: &screen)
                bytes += ComposeScene.write(&screen, with: &writer, to: sink)
            }
        }
        let cpu = threadCPUNanoseconds() - cpu0, wall = MonotonicClock.nanoseconds() - wall0
        return ComposeRun(frames: count, bytes: bytes, cpuNanoseconds: cpu, wallNanoseconds: wall)
    }

    /// The median thread CPU microseconds of one switch through the same path, each timed
    /// alone after `sweep` emptied the caches: what the compositor pays when the frame
    /// reaches it after the terminal sat idle (`tab_switch_cold_us`).
    func measureCold(count: Int, sink: DevNull, sweep: CacheSweep) throws -> Double {
        var (tree, screen, writer) = try startingState()
        var i = 0
        return try sweep.medianMicroseconds(of: count) {
            for batch in switches[i % switches.count] {
                try Self.apply(batch, to: &tree)
                tree.compose(into: &screen)
                _ = ComposeScene.write(&screen, with: &writer, to: sink)
            }
            i += 1
        }
    }

    /// The root host's side: its window's frame and placements as `FramePublisher` sends
    /// them after each input.
    private struct Publisher {
        let source: ControllerID
        var number: UInt32 = 0
        var placed: [ControllerID: Placement] = [:]

        @MainActor
        mutating func publish(_ window: Window) -> Batch {
            _ = window.tick()
            let frame = window.takeFrame(number: number &+ 1)
            if frame != nil { number &+= 1 }
            var now: [ControllerID: Placement] = [:]
            for p in window.remotePlacements { now[p.surface] = p }
            var out: Batch = []
            for (id, p) in now.sorted(by: { $0.key < $1.key }) where placed[id] != p { out.append((source, .placement(p))) }
            for var lifted in window.liftedFrames {
                lifted.number = number
                out.append((source, .frame(lifted)))
            }
            if let frame { out.append((source, .frame(frame))) }
            for (id, var p) in placed.sorted(by: { $0.key < $1.key }) where now[id] == nil {
                p.visible = false
                out.append((source, .placement(p)))
            }
            placed = now
            return out
        }
    }

    /// The tabs' proxies' link: every message answered at once, as a child that handled it.
    private final class AnsweringPort: RemotePort {
        func exchange(_ message: Message, from source: ControllerID, to target: ControllerID) -> Reply? { nil }
    }
}
