import SeededRandom
import Testing
import TrellisTestSupport
import TrellisWire
@testable import TrellisCanvas

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

    /// Every layer drawn in order, none skipped: what `compose` must come to.
    static func composeEveryLayer(_ layers: [Layer], into screen: inout Surface) {
        for i in layers.indices.sorted(by: { (layers[$0].z, $0) < (layers[$1].z, $1) }) where layers[i].visible {
            let layer = layers[i]
            screen.withState(origin: layer.frame.origin, clip: layer.clip.intersection(layer.frame)) { screen in
                screen.blit(layer.surface, at: .zero)
            }
        }
    }

    @Test("skipping the layers, and the rows of layers, a later one covers draws what drawing every layer draws: 2,000 random scenes")
    func skippingCoveredLayersChangesNothing() {
        var rng = SplitMix64(seed: 0xC0_7E4ED)
        func pick(_ n: Int) -> Int { Int(rng.next() % UInt64(n)) }
        let texts = ["ab", "漢字", "x日y", "───", "あいうえ", "  ", "本"]
        let screenSize = Size(width: 14, height: 5)
        for scene in 0..<2_000 {
            var layers: [Layer] = []
            for _ in 0..<(1 + pick(5)) {
                // Often a copy of an earlier layer's place, as nested views filling one another are.
                let frame = !layers.isEmpty && pick(3) == 0
                    ? layers[pick(layers.count)].frame
                    : Rect(x: pick(12) - 2, y: pick(5) - 1, width: 1 + pick(14), height: 1 + pick(5))
                let size = pick(4) == 0 ? Size(width: 1 + pick(14), height: 1 + pick(5)) : frame.size
                var surface = Surface(size: size, fill: Cell(scalar: UInt32(0x61 + pick(20))))
                for _ in 0..<pick(4) {
                    surface.put(texts[pick(texts.count)], at: Point(x: pick(size.width), y: pick(size.height)), style: .plain)
                }
                let clip = pick(3) == 0 ? frame : Rect(x: pick(14) - 1, y: pick(5), width: pick(15), height: 1 + pick(5))
                layers.append(Layer(surface: surface, frame: frame, clip: clip, z: pick(3), visible: pick(8) != 0))
            }
            var start = Surface(size: screenSize, fill: Cell(scalar: 0x2E))
            start.put(texts[pick(texts.count)], at: Point(x: pick(14), y: pick(5)), style: .plain)
            _ = start.takeFrame(number: 0)
            // Sometimes only a band of rows, as a compose of changed rows draws.
            if pick(2) == 0 { start.clip = Rect(x: 0, y: pick(5), width: screenSize.width, height: 1 + pick(3)) }
            var skipping = start, everyLayer = start
            Composition.compose(layers, into: &skipping)
            Self.composeEveryLayer(layers, into: &everyLayer)
            let same = skipping.cells == everyLayer.cells
            #expect(same, "scene \(scene): skipping gives\n\(skipping.text)\ninstead of\n\(everyLayer.text)")
            #expect(skipping.wideCharactersAreWhole)
            // A receiver of each screen's frame ends with the same cells.
            var receiver = start, reference = start
            if let f = skipping.takeFrame(number: 1) { try? receiver.apply(f) }
            if let f = everyLayer.takeFrame(number: 1) { try? reference.apply(f) }
            // Compared as a Bool: a failing comparison of cells would print every one.
            let sameFrames = receiver.cells == reference.cells
            #expect(sameFrames, "scene \(scene): a receiver of the frames shows\n\(receiver.text)\ninstead of\n\(reference.text)")
            if !same { return }
        }
    }

    /// Issue 20: a tab switch shows the new tab's surface where the old one was, over a
    /// root whose own rows under the tabs are blank. The root's rows under the tab are not
    /// drawn, so the cells the two tabs share are not written (blanked, then drawn back),
    /// and only the cells that differ are marked.
    @Test("rows a later layer spans from edge to edge are not drawn: a tab switch marks only the cells that differ")
    func rowsUnderALaterLayerAreNotDrawn() {
        var root = Surface(size: Size(width: 10, height: 4))
        root.put("tab1 tab2", at: Point(x: 0, y: 3), style: .plain)
        let tabs = ["same  old", "same  new"].map { text in
            var tab = Surface(size: Size(width: 10, height: 3))
            tab.put(text, at: Point(x: 0, y: 1), style: .plain)
            return tab
        }
        func layers(_ tab: Int) -> [Layer] {
            [Layer(surface: root, frame: root.bounds, z: 0), Layer(surface: tabs[tab], frame: Rect(x: 0, y: 0, width: 10, height: 3), z: 1)]
        }
        var screen = Surface(size: root.size)
        Composition.compose(layers(0), into: &screen)
        _ = screen.takeDamage()
        Composition.compose(layers(1), into: &screen)
        var reference = Surface(size: root.size)
        Self.composeEveryLayer(layers(1), into: &reference)
        #expect(screen.cells == reference.cells)
        // Marked as written: the three letters that changed on row 1, nothing else.
        #expect(screen.tracker.rows == [[], [6..<9], [], []])
        #expect(screen.takeDamage().rows == [[], [6..<9], [], []])
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
