import Testing
import TrellisCanvas
import TrellisWire

/// Issue 20, one change-tracking path: the compositor's screen hands its damage to the
/// terminal's writer, which encodes those cells and compares none, so the damage must be
/// exactly the cells that changed since it was last taken.
@Suite("Surface damage")
struct SurfaceDamageTests {
    /// A surface showing `text` at the top left, its damage taken.
    func surface(_ width: Int, _ height: Int, showing text: String) -> Surface {
        var s = Surface(size: Size(width: width, height: height))
        s.put(text, at: .zero, style: .plain)
        _ = s.takeDamage()
        return s
    }

    @Test("a screen composed again as it was has no damage, though its cells were written")
    func composedAgainAsItWas() {
        var s = Surface(size: Size(width: 12, height: 3))
        s.put("spinner ⠋", at: Point(x: 1, y: 1), style: .plain)
        _ = s.takeDamage()
        // A layer below drawn over it, then the layer above again: every cell written twice.
        s.fill(s.bounds, with: Style(background: .indexed(4)))
        s.fill(s.bounds, with: .plain)
        s.put("spinner ⠋", at: Point(x: 1, y: 1), style: .plain)
        #expect(s.takeDamage().isEmpty)
    }

    @Test("the damage is the changed cells' spans per row, not joined across unchanged cells")
    func exactSpans() {
        var s = surface(10, 2, showing: "abcdefgh")
        s.put("aBcDefgH", at: .zero, style: .plain)
        let d = s.takeDamage()
        #expect(d.rows == [[1..<2, 3..<4, 7..<8], []])
        #expect(d.cellCount == 3)
        #expect(s.takeDamage().isEmpty)
    }

    @Test("a changed half of a wide character damages both halves")
    func wideCharactersWhole() {
        var s = surface(6, 1, showing: "日本")
        s.fill(Rect(x: 1, y: 0, width: 1, height: 1), with: .plain, character: "x")
        // 日's left half became a blank and its right half an "x": both cells changed.
        #expect(s.takeDamage().rows == [[0..<2]])
        s.put("本", at: Point(x: 3, y: 0), style: Style(foreground: .indexed(1)))
        #expect(s.takeDamage().rows == [[2..<5]])
    }

    @Test("after a resize or damageAll, every cell")
    func forced() {
        var s = Surface(size: Size(width: 4, height: 2))
        _ = s.takeDamage()
        s.resize(to: Size(width: 3, height: 2))
        #expect(s.takeDamage() == .all(Size(width: 3, height: 2)))
        s.damageAll()
        #expect(s.takeDamage().cellCount == 6)
        #expect(s.takeDamage().isEmpty)
    }

    @Test("screens shown as one: every cell either changed is damaged; across a resize, all")
    func union() {
        var s = surface(10, 2, showing: "ab")
        s.put("AB", at: .zero, style: .plain)
        var first = s.takeDamage()
        s.put("c", at: Point(x: 2, y: 0), style: .plain)
        s.put("z", at: Point(x: 8, y: 1), style: .plain)
        first.formUnion(s.takeDamage())
        #expect(first.rows == [[0..<3], [8..<9]])
        #expect(first.cellCount == 4)
        first.formUnion(.all(Size(width: 5, height: 5)))
        #expect(first == .all(Size(width: 5, height: 5)))
    }
}
