import Testing
import TrellisWire
import TrellisCanvas

@Suite("Writing text")
struct PutTests {
    @Test("ASCII text lands one cell a character and returns its width")
    func ascii() {
        var s = Surface(size: Size(width: 6, height: 1))
        #expect(s.put("Sub1", at: Point(x: 1, y: 0), style: red) == 4)
        #expect(s.row(0) == " Sub1 ")
        #expect(s[1, 0] == red.cell(0x53))
    }

    @Test("a wide character takes its cell and a continuation cell in the same style")
    func wide() {
        var s = Surface(size: Size(width: 5, height: 1))
        #expect(s.put("あい", at: .zero, style: red) == 4)
        #expect(s.row(0) == "あ·い· ")
        #expect(s[1, 0] == red.cell(Cell.continuation))
        #expect(s.text == "あい")
    }

    @Test("writing over the right half of a wide character blanks its left half")
    func overwriteRightHalf() {
        var s = Surface(size: Size(width: 5, height: 1))
        s.put("あい", at: .zero, style: red)
        s.put("X", at: Point(x: 1, y: 0), style: .plain)
        #expect(s.row(0) == " Xい· ")
        #expect(s[0, 0] == red.cell(0x20))  // the blank keeps the character's colours
        #expect(s.wideCharactersAreWhole)
    }

    @Test("writing over the left half of a wide character blanks its right half")
    func overwriteLeftHalf() {
        var s = Surface(size: Size(width: 5, height: 1))
        s.put("あい", at: .zero, style: .plain)
        s.put("X", at: Point(x: 2, y: 0), style: .plain)
        #expect(s.row(0) == "あ·X  ")
        #expect(s.wideCharactersAreWhole)
    }

    @Test("a wide character written across two others blanks both of their far halves")
    func wideOverTwoWide() {
        var s = Surface(size: Size(width: 6, height: 1))
        s.put("あい", at: .zero, style: .plain)
        s.put("う", at: Point(x: 1, y: 0), style: .plain)
        #expect(s.row(0) == " う·   ")
        #expect(s.wideCharactersAreWhole)
    }

    @Test("a wide character cut by the surface's right edge becomes a space")
    func rightEdgeOfSurface() {
        var s = Surface(size: Size(width: 5, height: 1))
        #expect(s.put("あいう", at: .zero, style: red) == 6)
        #expect(s.row(0) == "あ·い· ")
        #expect(s[4, 0] == red.cell(0x20))
        s.put("Xえ", at: Point(x: 3, y: 0), style: .plain)
        #expect(s.row(0) == "あ· X ")
        #expect(s.wideCharactersAreWhole)
    }

    @Test("a wide character cut by the clip on either side becomes a space inside the clip")
    func clipEdges() {
        var s = Surface(size: Size(width: 8, height: 1), fill: Cell(scalar: 0x2E))  // "."
        s.clip = Rect(x: 1, y: 0, width: 4, height: 1)
        s.put("あいう", at: .zero, style: .plain)
        // あ at 0–1 has only its right half inside: a space at 1. う at 4–5 only its left: a space at 4.
        #expect(s.row(0) == ". い· ...")
        #expect(s.wideCharactersAreWhole)
    }

    @Test("text starting left of the clip is drawn from the clip's edge and still advances fully")
    func negativeStart() {
        var s = Surface(size: Size(width: 4, height: 1))
        #expect(s.put("abcdef", at: Point(x: -2, y: 0), style: .plain) == 6)
        #expect(s.row(0) == "cdef")
        #expect(s.put("zz", at: Point(x: 0, y: 5), style: .plain) == 2)  // row outside: nothing drawn
    }

    @Test("decomposed accents are composed into one cell")
    func composition() {
        var s = Surface(size: Size(width: 4, height: 1))
        #expect(s.put("e\u{301}t\u{E9}", at: .zero, style: .plain) == 3)
        #expect(s.text == "\u{E9}t\u{E9}")
        #expect(s.glyph(0, 0) == "\u{E9}")
    }

    @Test("controls and zero-width scalars are dropped and advance nothing")
    func dropped() {
        var s = Surface(size: Size(width: 6, height: 1))
        #expect(s.put("a\tb\nc\u{200B}d\u{1B}", at: .zero, style: .plain) == 4)
        #expect(s.text == "abcd")
    }

    @Test("halfwidth katakana is one cell a character")
    func halfwidth() {
        var s = Surface(size: Size(width: 4, height: 1))
        #expect(s.put("ﾊﾝｶｸ", at: .zero, style: .plain) == 4)
        #expect(s.row(0) == "ﾊﾝｶｸ")
    }

    @Test("origin shifts drawing and withState restores origin and clip")
    func withState() {
        var s = Surface(size: Size(width: 6, height: 3))
        s.withState(origin: Point(x: 2, y: 1), clip: Rect(x: 2, y: 1, width: 3, height: 1)) { s in
            s.put("hello", at: .zero, style: .plain)
            s.put("x", at: Point(x: 0, y: 1), style: .plain)  // below the clip
            s.withState(origin: .zero, clip: Rect(x: 0, y: 0, width: 6, height: 3)) { inner in
                #expect(inner.clip == Rect(x: 2, y: 1, width: 3, height: 1))  // narrowed, never widened
            }
        }
        #expect(s.text == "\n  hel\n")
        #expect(s.origin == .zero)
        #expect(s.clip == s.bounds)
    }

    @Test("the clip always stays inside the surface")
    func clipWithinBounds() {
        var s = Surface(size: Size(width: 4, height: 2))
        s.clip = Rect(x: -5, y: 1, width: 100, height: 100)
        #expect(s.clip == Rect(x: 0, y: 1, width: 4, height: 1))
    }

    @Test("cell(at:) is nil outside the surface")
    func cellAt() {
        let s = Surface(size: Size(width: 2, height: 2))
        #expect(s.cell(at: Point(x: 1, y: 1)) == Cell())
        #expect(s.cell(at: Point(x: 2, y: 0)) == nil)
        #expect(s.cell(at: Point(x: 0, y: -1)) == nil)
    }
}
