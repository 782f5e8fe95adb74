import Testing
import TrellisWire
import TrellisCanvas

@Suite("Damage")
struct DamageTests {
    @Test("a fresh blank surface has no damage; one with another fill is damaged whole")
    func fresh() {
        var blank = Surface(size: Size(width: 3, height: 2))
        #expect(blank.damage.isEmpty)
        #expect(blank.takeFrame(number: 1) == nil)
        let filled = Surface(size: Size(width: 3, height: 2), fill: Cell(scalar: 0x2E))
        #expect(filled.damage == [filled.bounds])
    }

    @Test("changed rows: a bordered view cleared and redrawn with one new word changes one row")
    func changedRows() {
        func draw(_ word: String, into s: inout Surface) {
            s.fill(s.bounds, with: .plain)
            s.drawBorder(s.bounds, style: .single, colors: .plain)
            s.put(word, at: Point(x: 2, y: 3), style: .plain)
        }
        var s = Surface(size: Size(width: 12, height: 6))
        draw("one", into: &s)
        #expect(s.takeChangedRows() == 0..<6)
        draw("one", into: &s)
        #expect(s.takeChangedRows() == nil)
        draw("two", into: &s)
        #expect(s.takeChangedRows() == 3..<4)
        #expect(s.takeChangedRows() == nil)
        s.resize(to: Size(width: 12, height: 4))
        #expect(s.takeChangedRows() == 0..<4)
    }

    @Test("changing one cell damages exactly that cell")
    func oneCell() throws {
        var s = Surface(size: Size(width: 10, height: 5))
        s.put("x", at: Point(x: 3, y: 2), style: .plain)
        #expect(s.damage == [Rect(x: 3, y: 2, width: 1, height: 1)])
        let taken = s.takeFrame(number: 7)
        let frame = try #require(taken)
        #expect(frame.number == 7 && frame.width == 10 && frame.height == 5)
        #expect(frame.damage == [FrameUpdate.Damage(rect: CellRect(x: 3, y: 2, width: 1, height: 1), cells: [Cell(scalar: 0x78)])])
        #expect(s.damage.isEmpty)
    }

    @Test("writing what is already there records nothing")
    func sameValue() {
        var s = Surface(size: Size(width: 10, height: 2))
        s.put("hello", at: .zero, style: red)
        #expect(s.takeFrame(number: 1) != nil)
        s.put("hello", at: .zero, style: red)
        s.fill(Rect(x: 0, y: 1, width: 10, height: 1), with: .plain)
        #expect(!s.isDamaged)
        #expect(s.takeFrame(number: 2) == nil)
        s.put("hello", at: .zero, style: blue)  // same characters, new colours: damage
        #expect(s.damage == [Rect(x: 0, y: 0, width: 5, height: 1)])
    }

    @Test("clearing and redrawing the same content sends nothing; a change undone neither")
    func redraw() {
        var s = Surface(size: Size(width: 12, height: 4))
        func draw(_ s: inout Surface) {
            s.fill(s.bounds, with: .plain)
            s.drawBorder(s.bounds, style: .single, colors: red)
            s.put("日本 ok", at: Point(x: 1, y: 1), style: .plain)
        }
        draw(&s)
        #expect(s.takeFrame(number: 1) != nil)
        draw(&s)
        #expect(!s.isDamaged)
        #expect(s.takeFrame(number: 2) == nil)
        s.put("x", at: Point(x: 5, y: 2), style: .plain)
        s.put(" ", at: Point(x: 5, y: 2), style: .plain)
        #expect(s.damage.isEmpty)
        s.put("本", at: Point(x: 1, y: 1), style: .plain)  // 日 → 本: only that pair changes
        #expect(s.damage == [Rect(x: 1, y: 1, width: 2, height: 1)])
    }

    @Test("changes a cell or two apart on a row go out as one span")
    func joinedSpans() {
        var s = Surface(size: Size(width: 20, height: 1))
        s.put("a", at: Point(x: 2, y: 0), style: .plain)
        s.put("b", at: Point(x: 5, y: 0), style: .plain)  // two unchanged cells between
        s.put("c", at: Point(x: 12, y: 0), style: .plain)
        #expect(s.damage == [Rect(x: 2, y: 0, width: 4, height: 1), Rect(x: 12, y: 0, width: 1, height: 1)])
    }

    @Test("a box of changes is one rectangle, a border four")
    func stacking() {
        var s = Surface(size: Size(width: 10, height: 6))
        s.fill(Rect(x: 2, y: 1, width: 3, height: 4), with: blue)
        #expect(s.damage == [Rect(x: 2, y: 1, width: 3, height: 4)])
        _ = s.takeFrame(number: 1)
        s.drawBorder(Rect(x: 1, y: 0, width: 6, height: 6), style: .single, colors: .plain)
        #expect(
            Set(s.damage) == [
                Rect(x: 1, y: 0, width: 6, height: 1), Rect(x: 1, y: 1, width: 1, height: 4),
                Rect(x: 6, y: 1, width: 1, height: 4), Rect(x: 1, y: 5, width: 6, height: 1),
            ])
    }

    @Test("damage is widened so it never splits a wide character")
    func widened() {
        var s = Surface(size: Size(width: 6, height: 1))
        s.put("あい", at: Point(x: 1, y: 0), style: .plain)
        _ = s.takeFrame(number: 1)
        // Recolour only the right half of あ; the frame must carry both halves.
        s.withState(origin: .zero, clip: Rect(x: 2, y: 0, width: 2, height: 1)) { s in
            s.blit(Surface(size: Size(width: 1, height: 1), fill: red.cell(0x20)), at: Point(x: 2, y: 0))
        }
        // The blank left half of あ (x 1) and the new cell (x 2) changed: one span, already whole.
        #expect(s.damage == [Rect(x: 1, y: 0, width: 2, height: 1)])
    }

    @Test("a span starting on a wide character's right half is widened to its left half")
    func widenedLeft() throws {
        var s = Surface(size: Size(width: 4, height: 1))
        s.put("あ", at: Point(x: 1, y: 0), style: .plain)
        _ = s.takeFrame(number: 1)
        // Drawing always rewrites both halves; a frame can recolour the right half alone.
        let recolour = FrameUpdate(
            number: 1, width: 4, height: 1,
            damage: [.init(rect: CellRect(x: 2, y: 0, width: 1, height: 1), cells: [red.cell(Cell.continuation)])])
        try s.apply(recolour)
        #expect(s.damage == [Rect(x: 1, y: 0, width: 2, height: 1)])
    }

    @Test("a span ending on a wide character's left half is widened to its right half")
    func widenedRight() {
        var a = Surface(size: Size(width: 4, height: 1))
        a.put("あ", at: Point(x: 1, y: 0), style: .plain)
        _ = a.takeFrame(number: 1)
        a.put("い", at: Point(x: 1, y: 0), style: .plain)  // only x 1 changes value
        #expect(a.damage == [Rect(x: 1, y: 0, width: 2, height: 1)])
    }

    @Test("scattered damage beyond the limit collapses to its union, still whole on wide characters")
    func collapse() {
        var s = Surface(size: Size(width: 40, height: 80))
        s.put("漢", at: Point(x: 0, y: 79), style: .plain)
        _ = s.takeFrame(number: 1)
        for y in stride(from: 0, to: 80, by: 2) {
            s.put("x", at: Point(x: 1 + (y % 4), y: y), style: .plain)
        }
        s.put("y", at: Point(x: 30, y: 79), style: .plain)
        // Damaged rows are never adjacent, so each is its own rectangle: 41, within the limit.
        #expect(s.damage.count == 41)
        for y in stride(from: 1, to: 79, by: 2) {
            s.put("z", at: Point(x: 20 + (y % 3), y: y), style: .plain)
        }
        // The union's left edge at x 1 would cut 漢 (x 0–1) in row 79.
        #expect(s.damage == [Rect(x: 0, y: 0, width: 31, height: 80)])
    }

    @Test("many changes in one row are kept as a few spans")
    func rowSpans() {
        var s = Surface(size: Size(width: 40, height: 1))
        for x in stride(from: 0, to: 40, by: 4) {
            s.put("x", at: Point(x: x, y: 0), style: .plain)
        }
        let rects = s.damage
        #expect(rects.count <= 8)
        for x in stride(from: 0, to: 40, by: 4) {
            #expect(rects.contains { $0.contains(Point(x: x, y: 0)) })
        }
    }

    @Test("damageAll and resize send everything again")
    func everything() {
        var s = Surface(size: Size(width: 3, height: 2))
        s.damageAll()
        #expect(s.damage == [s.bounds])
        _ = s.takeFrame(number: 1)
        s.resize(to: Size(width: 0, height: 0))
        #expect(s.isDamaged)
        let frame = s.takeFrame(number: 2)
        #expect(frame?.width == 0 && frame?.damage.isEmpty == true)
    }
}
