import SeededRandom
import Testing
import TrellisCanvas
import TrellisTestSupport
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
        for x in [1, 3, 7] { s.put("X", at: Point(x: x, y: 0), style: .plain) }
        let d = s.takeDamage()
        #expect((d.rows, d.cellCount) == ([[1..<2, 3..<4, 7..<8], []], 3))
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

    @Test("over random scenes with wide characters: every changed cell is damaged, and nothing else but the other halves")
    func randomScenes() {
        var random = SplitMix64(seed: 0xDA3A6E)
        let texts = ["日本語", "ab", "漢字とabc", "x", "ｗｉｄｅ", " ", "世界!"]
        var s = Surface(size: Size(width: 17, height: 5))
        var before = s
        for step in 0..<300 {
            for _ in 0..<random.int(1...4) {
                let style = Style(foreground: random.bool() ? .default : .indexed(UInt8(random.int(0...3))))
                let at = Point(x: random.int(-2...17), y: random.int(0...4))
                if random.int(0...3) == 0 {
                    s.fill(Rect(origin: at, size: Size(width: random.int(0...6), height: random.int(1...3))), with: style)
                } else {
                    s.put(texts[random.int(0...(texts.count - 1))], at: at, style: style)
                }
            }
            let damage = s.takeDamage()
            for y in 0..<5 {
                let damaged = Set(damage.rows[y].flatMap { Array($0) })
                for x in 0..<17 {
                    let changed = s[x, y] != before[x, y]
                    // A cell that did not change is damaged only as the other half of a
                    // wide character that did.
                    let pairChanged = (x > 0 && s[x, y].scalar == Cell.continuation && s[x - 1, y] != before[x - 1, y])
                        || (x + 1 < 17 && s[x + 1, y].scalar == Cell.continuation && s[x + 1, y] != before[x + 1, y])
                    #expect(damaged.contains(x) == changed || (damaged.contains(x) && pairChanged), "step \(step) (\(x), \(y))")
                }
                for span in damage.rows[y] {
                    #expect(s[span.lowerBound, y].scalar != Cell.continuation, "step \(step) row \(y) starts on a half")
                    #expect(span.upperBound == 17 || s[span.upperBound, y].scalar != Cell.continuation, "step \(step) row \(y) ends on a half")
                }
            }
            before = s
        }
    }
}
