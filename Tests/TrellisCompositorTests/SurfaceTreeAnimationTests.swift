import Testing
import TrellisCanvas
import TrellisCompositor
import TrellisWire

/// Issue 20: the compositor moves a declared animation's surface itself, at the time it
/// composes, with the one easing (`Animation.Curve`), and shows it at its placement once
/// the motion is over.
struct SurfaceTreeAnimationTests {
    /// Root (20×3) with "Kid" (a 2×1 "AB") placed by it at column 0 of row 1.
    func tree() throws -> SurfaceTree {
        var t = SurfaceTree(root: "Root")
        var root = Surface(size: Size(width: 20, height: 3))
        root.damageAll()
        let rootFrame = root.takeFrame(number: 1)
        try t.apply(try #require(rootFrame), from: "Root")
        t.place(Placement(surface: "Kid", frame: CellRect(x: 0, y: 1, width: 2, height: 1), z: 0,
                          clip: CellRect(x: 0, y: 0, width: 20, height: 3), visible: true), by: "Root")
        var kid = Surface(size: Size(width: 2, height: 1))
        kid.put("AB", at: .zero, style: Style())
        let kidFrame = kid.takeFrame(number: 1)
        try t.apply(try #require(kidFrame), from: "Kid")
        return t
    }

    func column(of text: String, in screen: Surface) -> Int? {
        let row = screen.text.split(separator: "\n", omittingEmptySubsequences: false)[1]
        return row.range(of: text).map { row.distance(from: row.startIndex, to: $0.lowerBound) }
    }

    @Test func aSurfaceSlidesFromWhereItWasToItsPlacementAtTheTimeOfEachCompose() throws {
        var t = try tree()
        #expect(t.container(of: "Kid") == "Root" && t.container(of: "Root") == nil)
        let began: UInt64 = 1_000_000_000
        t.animate(Animation(surface: "Kid", from: CellRect(x: 16, y: 1, width: 2, height: 1), to: CellRect(x: 0, y: 1, width: 2, height: 1),
                            durationMilliseconds: 100, curve: .linear), by: "Root", now: began)
        var screen = Surface(size: Size(width: 20, height: 3))
        for (ms, expected) in [(0, 16), (25, 12), (50, 8), (99, 0), (100, 0), (400, 0)] {
            let now = began + UInt64(ms) * 1_000_000
            t.compose(into: &screen, now: now)
            #expect(column(of: "AB", in: screen) == expected, "at \(ms) ms")
            #expect(t.isAnimating(now: now) == (ms < 100), "at \(ms) ms")
        }
    }
}
