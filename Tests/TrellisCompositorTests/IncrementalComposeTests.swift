import SeededRandom
import Testing
import TrellisTestSupport
import TrellisCanvas
import TrellisCompositor
import TrellisWire

/// Composing only the rows frames changed must give exactly the screen a full compose
/// gives: overlapping surfaces, clips, z order and wide characters included.
struct IncrementalComposeTests {
    static let screenSize = Size(width: 30, height: 12)

    /// Root covers the screen; A and B overlap (B above), C sits inside A, clipped by it.
    static func tree() -> SurfaceTree {
        var t = SurfaceTree(root: "Root")
        t.place(Placement(surface: "A", frame: CellRect(x: 2, y: 1, width: 16, height: 8), z: 0,
                          clip: CellRect(x: 0, y: 0, width: 16, height: 8), visible: true), by: "Root")
        t.place(Placement(surface: "B", frame: CellRect(x: 11, y: 4, width: 15, height: 7), z: 1,
                          clip: CellRect(x: 11, y: 4, width: 15, height: 7), visible: true), by: "Root")
        t.place(Placement(surface: "C", frame: CellRect(x: 9, y: 5, width: 10, height: 5), z: 0,
                          clip: CellRect(x: 9, y: 5, width: 10, height: 5), visible: true), by: "A")
        return t
    }

    static let sizes: [ControllerID: Size] = [
        "Root": screenSize, "A": Size(width: 16, height: 8), "B": Size(width: 15, height: 7), "C": Size(width: 10, height: 5),
    ]

    @Test func rowsComposedAgainMatchAFullCompose() throws {
        var rng = SplitMix64(seed: 42)
        var tree = Self.tree()
        var hosts: [ControllerID: Surface] = [:]
        for (id, size) in Self.sizes { hosts[id] = Surface(size: size) }
        var screen = Surface(size: Self.screenSize)
        let glyphs = ["a", "b", "日", "本", "x", "─", "語"]
        for step in 0..<300 {
            // One host changes a few cells (wide characters among them) and sends its frame.
            let id = Array(Self.sizes.keys).sorted()[Int(rng.next() % 4)]
            var host = hosts[id]!
            for _ in 0..<Int(1 + rng.next() % 3) {
                let p = Point(x: Int(rng.next() % UInt64(host.size.width)), y: Int(rng.next() % UInt64(host.size.height)))
                host.put(glyphs[Int(rng.next() % UInt64(glyphs.count))], at: p,
                         style: Style(foreground: .indexed(UInt8(rng.next() % 8))))
            }
            if let frame = host.takeFrame(number: UInt32(step)) { try tree.apply(frame, from: id) }
            hosts[id] = host
            tree.compose(into: &screen)

            var fresh = tree
            fresh.invalidate()
            var expected = Surface(size: Self.screenSize)
            fresh.compose(into: &expected)
            #expect(screen == expected, "step \(step), after a frame from \(id)")
            if screen != expected { return }
        }
    }

    /// The layers' places are worked out by a full compose and kept for the composes of a
    /// few rows after it: every other change to the tree must be seen by the next compose.
    /// Each screen is checked against a tree built afresh from the same state, which has
    /// nothing kept to go stale.
    @Test func theKeptLayerPlacesFollowEveryChangeToTheTree() throws {
        var rng = SplitMix64(seed: 7)
        var tree = Self.tree()
        var placements: [ControllerID: (Placement, by: ControllerID)] = [
            "A": (Placement(surface: "A", frame: CellRect(x: 2, y: 1, width: 16, height: 8), z: 0,
                            clip: CellRect(x: 0, y: 0, width: 16, height: 8), visible: true), "Root"),
            "B": (Placement(surface: "B", frame: CellRect(x: 11, y: 4, width: 15, height: 7), z: 1,
                            clip: CellRect(x: 11, y: 4, width: 15, height: 7), visible: true), "Root"),
            "C": (Placement(surface: "C", frame: CellRect(x: 9, y: 5, width: 10, height: 5), z: 0,
                            clip: CellRect(x: 9, y: 5, width: 10, height: 5), visible: true), "A"),
        ]
        var silent: Set<ControllerID> = []
        var hosts: [ControllerID: Surface] = [:]
        for (id, size) in Self.sizes {
            var host = Surface(size: size)
            host.damageAll()
            try tree.apply(host.takeFrame(number: 0)!, from: id)
            hosts[id] = host
        }
        var screen = Surface(size: Self.screenSize)
        let ids = Array(Self.sizes.keys).sorted()
        let children: [ControllerID] = ["A", "B", "C"]
        for step in 0..<400 {
            let child = children[Int(rng.next() % 3)]
            let change: String
            switch rng.next() % 10 {
            case 0:
                change = "\(child) placed elsewhere"
                let size = Self.sizes[child]!
                let frame = CellRect(x: Int32(rng.next() % 12), y: Int32(rng.next() % 6),
                                     width: UInt16(size.width), height: UInt16(size.height))
                let p = Placement(surface: child, frame: frame, z: Int32(rng.next() % 3), clip: frame, visible: rng.next() % 4 != 0)
                placements[child] = (p, placements[child]!.by)
                tree.place(p, by: placements[child]!.by)
            case 1:
                let stops = rng.next() % 2 == 0
                change = "\(child) \(stops ? "silent" : "back")"
                if stops { silent.insert(child) } else { silent.remove(child) }
                tree.markUnresponsive(child, stops)
            default:
                let id = ids[Int(rng.next() % 4)]
                change = "a frame from \(id)"
                var host = hosts[id]!
                let p = Point(x: Int(rng.next() % UInt64(host.size.width)), y: Int(rng.next() % UInt64(host.size.height)))
                host.put(["k", "語", "z"][Int(rng.next() % 3)], at: p, style: Style(foreground: .indexed(UInt8(rng.next() % 8))))
                if let frame = host.takeFrame(number: UInt32(step)) {
                    try tree.apply(frame, from: id)
                    silent.remove(id)
                }
                hosts[id] = host
            }
            tree.compose(into: &screen)

            var fresh = SurfaceTree(root: "Root")
            for (p, by) in placements.values { fresh.place(p, by: by) }
            for (id, host) in hosts {
                var whole = Surface(size: host.size)
                whole.damageAll()
                whole.blit(host, at: .zero)
                try fresh.apply(whole.takeFrame(number: 1)!, from: id)
            }
            // After the frames: a frame from a silent child says it is back.
            for id in silent { fresh.markUnresponsive(id, true) }
            var expected = Surface(size: Self.screenSize)
            fresh.compose(into: &expected)
            let same = screen == expected
            #expect(same, "step \(step), after \(change): composed\n\(screen.text)\nwhere a tree built afresh gives\n\(expected.text)")
            if !same { return }
        }
    }

    /// A surface is changed where the tree keeps it; a frame it refuses — of the surface's
    /// size or of another — must leave it, and the screen composed from it, as they were.
    /// The tree keeps each frame's damage itself (`damaged`, from the frame's rectangles):
    /// its copies of the controllers' surfaces mark none, where marks would pile up with
    /// every frame, never taken, and make each later frame's marking slower (issue 20).
    @Test func theTreesSurfacesKeepNoDamageOfTheirOwn() throws {
        var tree = Self.tree()
        var host = Surface(size: Self.sizes["A"]!)
        for k in 0..<3 {
            host.put("frame \(k)", at: Point(x: k, y: k), style: .plain)
            let frame = host.takeFrame(number: UInt32(k))
            try tree.apply(try #require(frame), from: "A")
            #expect(tree.surfaces["A"]?.isDamaged == false)
            #expect(tree.surfaces["A"] == host)
        }
    }

    @Test func aRefusedFrameLeavesTheSurfaceAsItWas() throws {
        var tree = Self.tree()
        var root = Surface(size: Self.screenSize)
        root.put("kept", at: .zero, style: .plain)
        root.damageAll()
        try tree.apply(root.takeFrame(number: 1)!, from: "Root")
        var screen = Surface(size: Self.screenSize)
        tree.compose(into: &screen)
        let before = tree.surfaces["Root"]
        let outside = FrameUpdate(number: 2, width: UInt16(Self.screenSize.width), height: UInt16(Self.screenSize.height), damage: [
            .init(rect: CellRect(x: 0, y: 0, width: 4, height: 1), cells: Array(repeating: Cell(), count: 4)),
            .init(rect: CellRect(x: 28, y: 11, width: 4, height: 1), cells: Array(repeating: Cell(), count: 4)),
        ])
        #expect(throws: SurfaceError.self) { try tree.apply(outside, from: "Root") }
        #expect(tree.surfaces["Root"] == before)
        let resized = FrameUpdate(number: 3, width: 5, height: 1, damage: [
            .init(rect: CellRect(x: 0, y: 0, width: 6, height: 1), cells: Array(repeating: Cell(scalar: 0x78), count: 6)),
        ])
        #expect(throws: SurfaceError.self) { try tree.apply(resized, from: "Root") }
        #expect(tree.surfaces["Root"] == before)
        // A frame of no cells for a surface no process should allocate (issue 19: bounds
        // on every input): refused before the surface is made.
        let huge = FrameUpdate(number: 4, width: .max, height: .max, damage: [])
        #expect(throws: SurfaceError.self) { try tree.apply(huge, from: "Root") }
        #expect(throws: SurfaceError.self) { try tree.apply(huge, from: "New") }
        #expect(tree.surfaces["Root"] == before && tree.surfaces["New"] == nil)
        tree.compose(into: &screen)
        #expect(screen.text.hasPrefix("kept"))
    }

    @Test func aPlacementChangeComposesEverything() throws {
        var tree = Self.tree()
        var root = Surface(size: Self.screenSize)
        root.damageAll()
        try tree.apply(root.takeFrame(number: 1)!, from: "Root")
        var a = Surface(size: Self.sizes["A"]!)
        a.put("moving", at: .zero, style: .plain)
        try tree.apply(a.takeFrame(number: 1)!, from: "A")
        var screen = Surface(size: Self.screenSize)
        tree.compose(into: &screen)
        #expect(screen.text.split(separator: "\n", omittingEmptySubsequences: false)[1].hasPrefix("  moving"))
        tree.place(Placement(surface: "A", frame: CellRect(x: 2, y: 3, width: 16, height: 8), z: 0,
                             clip: CellRect(x: 0, y: 0, width: 30, height: 12), visible: true), by: "Root")
        tree.compose(into: &screen)
        let rows = screen.text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(rows[3].hasPrefix("  moving"))
        // Where A was, the root's blank cells again.
        #expect(!rows[1].contains("moving"))
    }
}
