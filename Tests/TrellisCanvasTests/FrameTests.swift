import Testing
import TrellisWire
import TrellisCanvas

@Suite("Frames")
struct FrameTests {
    /// A surface with text, a wide character, a border and a fill, drawn in two frames.
    static func drawn() -> (Surface, [FrameUpdate]) {
        var a = Surface(size: Size(width: 12, height: 5))
        var frames: [FrameUpdate] = []
        a.drawBorder(a.bounds, style: .double, colors: red)
        a.put("日本語 ok", at: Point(x: 1, y: 1), style: .plain)
        frames.append(a.takeFrame(number: 1)!)
        a.fill(Rect(x: 2, y: 2, width: 5, height: 2), with: blue, character: "字")
        a.put("X", at: Point(x: 2, y: 1), style: .plain)  // breaks 日
        frames.append(a.takeFrame(number: 2)!)
        return (a, frames)
    }

    @Test("a surface's frames applied to a blank copy reproduce it")
    func roundTrip() throws {
        let (a, frames) = Self.drawn()
        var b = Surface(size: a.size)
        for frame in frames { try b.apply(frame) }
        #expect(b == a)
        #expect(b.text == a.text)
        #expect(b.wideCharactersAreWhole)
    }

    @Test("a non-blank fill goes out with the first frame")
    func filledRoundTrip() throws {
        var a = Surface(size: Size(width: 4, height: 2), fill: blue.cell(0x2E))
        a.put("か", at: Point(x: 1, y: 0), style: .plain)
        var b = Surface(size: a.size)
        let first = a.takeFrame(number: 1)
        try b.apply(try #require(first))
        #expect(b == a)
    }

    @Test("applying records the changed cells as damage, so a screen can pass them on")
    func applyDamages() throws {
        var a = Surface(size: Size(width: 6, height: 2))
        a.put("hi", at: Point(x: 2, y: 1), style: .plain)
        var b = Surface(size: a.size)
        let first = a.takeFrame(number: 1)
        try b.apply(try #require(first))
        #expect(b.damage == [Rect(x: 2, y: 1, width: 2, height: 1)])
        try b.apply(FrameUpdate(number: 2, width: 6, height: 2, damage: []))
        #expect(b.damage == [Rect(x: 2, y: 1, width: 2, height: 1)])
    }

    static func garbage() -> [(String, FrameUpdate)] {
        let c = Cell(scalar: 0x41)
        let cont = Cell(scalar: Cell.continuation)
        func frame(_ w: UInt16, _ h: UInt16, _ damage: [FrameUpdate.Damage]) -> FrameUpdate {
            FrameUpdate(number: 9, width: w, height: h, damage: damage)
        }
        func d(_ x: Int32, _ y: Int32, _ w: UInt16, _ h: UInt16, _ cells: [Cell]) -> FrameUpdate.Damage {
            .init(rect: CellRect(x: x, y: y, width: w, height: h), cells: cells)
        }
        // Each starts with a valid rect so a frame applied piecemeal would show.
        let good = d(0, 0, 1, 1, [Cell(scalar: 0x5A)])
        return [
            ("wrong size", frame(5, 3, [good])),
            ("rect past the right edge", frame(6, 3, [good, d(5, 0, 2, 1, [c, c])])),
            ("rect below the bottom", frame(6, 3, [good, d(0, 3, 1, 1, [c])])),
            ("negative origin", frame(6, 3, [good, d(-1, 0, 1, 1, [c])])),
            ("too few cells", frame(6, 3, [good, d(0, 1, 3, 1, [c, c])])),
            ("too many cells", frame(6, 3, [good, d(0, 1, 1, 1, [c, c])])),
            ("continuation at a row start", frame(6, 3, [good, d(0, 1, 2, 1, [cont, c])])),
            ("continuation after a narrow character", frame(6, 3, [good, d(1, 1, 2, 1, [c, cont])])),
            ("continuation after an existing narrow cell", frame(6, 3, [good, d(3, 2, 1, 1, [cont])])),
            ("wide character without its continuation", frame(6, 3, [good, d(1, 1, 2, 1, [Cell(scalar: 0x3042), c])])),
            ("wide character in the last column", frame(6, 3, [good, d(5, 1, 1, 1, [Cell(scalar: 0x3042)])])),
            ("right half of an existing wide character overwritten", frame(6, 3, [good, d(2, 0, 1, 1, [c])])),
            ("control character", frame(6, 3, [good, d(0, 1, 1, 1, [Cell(scalar: 0x1B)])])),
            ("combining mark", frame(6, 3, [good, d(0, 1, 1, 1, [Cell(scalar: 0x301)])])),
            ("not a scalar", frame(6, 3, [good, d(0, 1, 1, 1, [Cell(scalar: 0xD800)])])),
        ]
    }

    @Test("garbage frames throw and change nothing", arguments: garbage())
    func garbageIsRefused(_ name: String, _ frame: FrameUpdate) throws {
        var s = Surface(size: Size(width: 6, height: 3))
        s.put("aあ", at: Point(x: 0, y: 0), style: .plain)  // あ at 1–2
        _ = s.takeFrame(number: 1)
        let before = s
        let error = #expect(throws: SurfaceError.self, "\(name)") { try s.apply(frame) }
        #expect(error?.message.contains("frame 9") == true, "\(name): \(error?.message ?? "")")
        #expect(s == before, "\(name)")
        #expect(!s.isDamaged, "\(name)")
    }

    @Test("a frame that completes a wide character across two rects is accepted")
    func pairAcrossRects() throws {
        var s = Surface(size: Size(width: 4, height: 1))
        let frame = FrameUpdate(
            number: 1, width: 4, height: 1,
            damage: [
                .init(rect: CellRect(x: 1, y: 0, width: 1, height: 1), cells: [Cell(scalar: 0x3042)]),
                .init(rect: CellRect(x: 2, y: 0, width: 1, height: 1), cells: [Cell(scalar: Cell.continuation)]),
            ])
        try s.apply(frame)
        #expect(s.text == " あ")
    }
}
