import Testing
import TrellisWire
import TrellisCanvas

@Suite("Ellipses")
struct EllipseTests {
    static func filled(_ rect: Rect, in size: Size) -> Set<Point> {
        var s = Surface(size: size)
        s.fillEllipse(in: rect, style: .plain, character: "o")
        var inside: Set<Point> = []
        for y in 0..<size.height {
            for x in 0..<size.width where s[x, y].scalar == 0x6F {
                inside.insert(Point(x: x, y: y))
            }
        }
        return inside
    }

    @Test(
        "symmetric about both axes; centre and edge middles inside, corners outside",
        arguments: [(5, 5), (6, 6), (4, 4), (9, 4), (4, 9), (12, 7), (20, 10)])
    func shape(_ width: Int, _ height: Int) {
        let rect = Rect(x: 1, y: 2, width: width, height: height)
        let inside = Self.filled(rect, in: Size(width: width + 3, height: height + 4))
        for p in inside {
            #expect(rect.contains(p))
            let mirroredX = Point(x: rect.minX + rect.maxX - 1 - p.x, y: p.y)
            let mirroredY = Point(x: p.x, y: rect.minY + rect.maxY - 1 - p.y)
            #expect(inside.contains(mirroredX) && inside.contains(mirroredY))
        }
        let midX = rect.minX + (width - 1) / 2
        let midY = rect.minY + (height - 1) / 2
        #expect(inside.contains(Point(x: midX, y: midY)))
        #expect(inside.contains(Point(x: midX, y: rect.minY)))
        #expect(inside.contains(Point(x: midX, y: rect.maxY - 1)))
        #expect(inside.contains(Point(x: rect.minX, y: midY)))
        #expect(inside.contains(Point(x: rect.maxX - 1, y: midY)))
        for corner in [
            Point(x: rect.minX, y: rect.minY), Point(x: rect.maxX - 1, y: rect.minY),
            Point(x: rect.minX, y: rect.maxY - 1), Point(x: rect.maxX - 1, y: rect.maxY - 1),
        ] {
            #expect(!inside.contains(corner))
        }
    }

    @Test("in a 3×3 rect even the corner centres are inside: the rule is exact, not a look")
    func small() {
        // Corner centres sit at (±1, ±1) from the centre, 0.89 of the way to the ellipse.
        #expect(Self.filled(Rect(x: 0, y: 0, width: 3, height: 3), in: Size(width: 3, height: 3)).count == 9)
    }

    @Test("a 5×5 circle, exactly")
    func circle() {
        var s = Surface(size: Size(width: 5, height: 5))
        s.fillEllipse(in: s.bounds, style: .plain, character: "#")
        #expect(s.text == " ###\n#####\n#####\n#####\n ###")
    }

    @Test("clipped and offset by origin like any drawing")
    func clipped() {
        var s = Surface(size: Size(width: 6, height: 5))
        s.withState(origin: Point(x: 1, y: 0), clip: Rect(x: 0, y: 0, width: 4, height: 5)) { s in
            s.fillEllipse(in: Rect(x: 0, y: 0, width: 5, height: 5), style: .plain, character: "#")
        }
        #expect(s.text == "  ##\n ###\n ###\n ###\n  ##")
    }

    @Test("an empty rect draws nothing")
    func empty() {
        var s = Surface(size: Size(width: 3, height: 3))
        s.fillEllipse(in: Rect(x: 1, y: 1, width: 0, height: 2), style: red)
        #expect(!s.isDamaged)
    }
}
