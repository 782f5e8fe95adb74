import Testing
import TrellisWire
import TrellisCanvas

@Suite("Fills, borders, blits and resizing")
struct DrawingTests {
    @Test("fill covers its rect in the current coordinates, within the clip")
    func fill() {
        var s = Surface(size: Size(width: 5, height: 3))
        s.origin = Point(x: 1, y: 1)
        s.fill(Rect(x: 0, y: 0, width: 10, height: 1), with: blue, character: "#")
        #expect(s.text == "\n ####\n")
        #expect(s[1, 1] == blue.cell(0x23))
    }

    @Test("a wide fill character is laid in pairs, a leftover column gets a space")
    func wideFill() {
        var s = Surface(size: Size(width: 6, height: 1), fill: Cell(scalar: 0x2E))
        s.fill(Rect(x: 0, y: 0, width: 5, height: 1), with: .plain, character: "山")
        #expect(s.row(0) == "山·山· .")
        #expect(s.wideCharactersAreWhole)
    }

    @Test("borders of every style put corners and edges where they belong")
    func borders() {
        var s = Surface(size: Size(width: 4, height: 3))
        s.drawBorder(s.bounds, style: .rounded, colors: .plain)
        #expect(s.text == "╭──╮\n│  │\n╰──╯")
        for style in BorderStyle.allCases where style != .none {
            var t = Surface(size: Size(width: 3, height: 3))
            t.drawBorder(t.bounds, style: style, colors: red)
            #expect(t[0, 0].scalar == style.topLeft)
            #expect(t[2, 2].scalar == style.bottomRight)
            #expect(t[1, 0].scalar == style.horizontal)
            #expect(t[0, 1].scalar == style.vertical)
            #expect(t[1, 1] == Cell())
        }
        var none = Surface(size: Size(width: 3, height: 3))
        none.drawBorder(none.bounds, style: .none, colors: red)
        #expect(none == Surface(size: Size(width: 3, height: 3)))
        #expect(!none.isDamaged)
    }

    @Test("a border one row high is a horizontal line")
    func thinBorder() {
        var s = Surface(size: Size(width: 4, height: 2))
        s.drawBorder(Rect(x: 0, y: 0, width: 4, height: 1), style: .ascii, colors: .plain)
        s.drawBorder(Rect(x: 3, y: 0, width: 1, height: 2), style: .ascii, colors: .plain)
        #expect(s.text == "---|\n   |")
    }

    @Test("a border over a wide character blanks its other half")
    func borderOverWide() {
        var s = Surface(size: Size(width: 4, height: 3))
        s.put("漢字", at: Point(x: 0, y: 1), style: .plain)
        s.drawBorder(s.bounds, style: .single, colors: .plain)
        #expect(s.text == "┌──┐\n│  │\n└──┘")
        #expect(s.wideCharactersAreWhole)
    }

    @Test("blit copies cells at a point, clipped, wide characters whole or blank")
    func blit() {
        var source = Surface(size: Size(width: 4, height: 2))
        source.put("あい", at: .zero, style: red)
        source.put("ab", at: Point(x: 0, y: 1), style: .plain)
        var s = Surface(size: Size(width: 6, height: 3), fill: Cell(scalar: 0x2E))
        s.clip = Rect(x: 0, y: 0, width: 4, height: 3)
        s.blit(source, at: Point(x: 1, y: 1))
        // い at 3–4 is cut by the clip at x 4: its visible half is a space.
        #expect(s.row(1) == ".あ· ..")
        #expect(s.row(2) == ".ab ..")
        #expect(s[1, 1] == red.cell(0x3042))
        #expect(s.wideCharactersAreWhole)
    }

    @Test("blit from left of the clip keeps only what the clip shows")
    func blitNegative() {
        var source = Surface(size: Size(width: 5, height: 1))
        source.put("xあいz", at: .zero, style: .plain)  // x, あ 1–2, い 3–4
        var s = Surface(size: Size(width: 4, height: 1))
        s.blit(source, at: Point(x: -2, y: 0))  // あ's left half is off the surface
        #expect(s.row(0) == " い· ")
        #expect(s.wideCharactersAreWhole)
    }

    @Test("resize keeps the overlap, blanks a wide character it cuts, and damages everything")
    func resize() {
        var s = Surface(size: Size(width: 4, height: 2))
        s.put("aあ", at: .zero, style: .plain)
        s.put("cd", at: Point(x: 0, y: 1), style: .plain)
        _ = s.takeFrame(number: 1)
        s.clip = Rect(x: 1, y: 1, width: 1, height: 1)
        s.resize(to: Size(width: 2, height: 3), fill: Cell(scalar: 0x2D))
        #expect(s.text == "a\ncd\n--")
        #expect(s.wideCharactersAreWhole)
        #expect(s.clip == s.bounds)
        #expect(s.damage == [s.bounds])
    }
}
