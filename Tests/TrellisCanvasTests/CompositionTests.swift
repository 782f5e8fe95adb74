import Testing
import TrellisWire
import TrellisCanvas

@Suite("Composition")
struct CompositionTests {
    static func surface(_ text: String, width: Int) -> Surface {
        var s = Surface(size: Size(width: width, height: 1))
        s.put(text, at: .zero, style: .plain)
        return s
    }

    @Test("higher z draws over lower, whatever the array order")
    func zOrder() {
        var screen = Surface(size: Size(width: 6, height: 1))
        let layers = [
            Layer(surface: Self.surface("BBBB", width: 4), frame: Rect(x: 2, y: 0, width: 4, height: 1), z: 2),
            Layer(surface: Self.surface("AAAA", width: 4), frame: Rect(x: 0, y: 0, width: 4, height: 1), z: 1),
        ]
        Composition.compose(layers, into: &screen)
        #expect(screen.text == "AABBBB")
    }

    @Test("equal z draws in array order")
    func stable() {
        var screen = Surface(size: Size(width: 4, height: 1))
        let frame = Rect(x: 0, y: 0, width: 4, height: 1)
        let layers = (0..<5).map { i in
            Layer(surface: Self.surface(String(repeating: String(i), count: 4 - i), width: 4 - i), frame: frame)
        }
        Composition.compose(layers, into: &screen)
        #expect(screen.text == "3210")  // layer 4 is empty, each earlier one shows past the later
    }

    @Test("each layer is limited to its clip, its frame and the screen")
    func clipping() {
        var screen = Surface(size: Size(width: 8, height: 3))
        let big = Surface(size: Size(width: 10, height: 3), fill: Cell(scalar: 0x23))
        Composition.compose(
            [
                Layer(surface: big, frame: Rect(x: 1, y: 0, width: 3, height: 3), clip: Rect(x: 0, y: 1, width: 8, height: 1)),
                Layer(surface: big, frame: Rect(x: 6, y: 2, width: 10, height: 10)),
            ], into: &screen)
        #expect(screen.text == "\n ###\n      ##")
    }

    @Test("invisible layers are skipped")
    func invisible() {
        var screen = Surface(size: Size(width: 3, height: 1))
        let layer = Layer(surface: Self.surface("abc", width: 3), frame: screen.bounds, visible: false)
        Composition.compose([layer], into: &screen)
        #expect(screen == Surface(size: Size(width: 3, height: 1)))
        #expect(!screen.isDamaged)
    }

    @Test("a wide character cut by a layer's clip is drawn as a space")
    func wideCutByClip() {
        var screen = Surface(size: Size(width: 6, height: 1), fill: Cell(scalar: 0x2E))
        let layer = Layer(
            surface: Self.surface("あいう", width: 6), frame: screen.bounds, clip: Rect(x: 1, y: 0, width: 4, height: 1))
        Composition.compose([layer], into: &screen)
        #expect(screen.row(0) == ". い· .")
        #expect(screen.wideCharactersAreWhole)
    }

    @Test("a layer covering half of a lower wide character blanks the other half")
    func coverHalf() {
        var screen = Surface(size: Size(width: 6, height: 1))
        let lower = Layer(surface: Self.surface("漢字", width: 4), frame: Rect(x: 0, y: 0, width: 4, height: 1), z: 0)
        let upper = Layer(surface: Self.surface("|", width: 1), frame: Rect(x: 1, y: 0, width: 1, height: 1), z: 1)
        let right = Layer(surface: Self.surface("[", width: 1), frame: Rect(x: 2, y: 0, width: 1, height: 1), z: 1)
        Composition.compose([lower, upper, right], into: &screen)
        #expect(screen.row(0) == " |[   ")
        #expect(screen.wideCharactersAreWhole)
    }

    @Test("recomposing an unchanged scene damages nothing; moving a layer damages old and new cells")
    func damage() {
        var screen = Surface(size: Size(width: 8, height: 2))
        let background = Layer(surface: Surface(size: Size(width: 8, height: 2), fill: Cell(scalar: 0x2E)), frame: screen.bounds)
        var box = Layer(surface: Self.surface("ab", width: 2), frame: Rect(x: 1, y: 0, width: 2, height: 1), z: 1)
        Composition.compose([background, box], into: &screen)
        _ = screen.takeFrame(number: 1)
        Composition.compose([background, box], into: &screen)
        #expect(screen.takeFrame(number: 2) == nil)
        box.frame = Rect(x: 1, y: 1, width: 2, height: 1)
        box.clip = box.frame  // clip is the placement's own, not derived from the frame
        Composition.compose([background, box], into: &screen)
        #expect(screen.damage == [Rect(x: 1, y: 0, width: 2, height: 2)])
        #expect(screen.text == "........\n.ab.....")
    }
}
