import SeededRandom
import Testing
import TrellisTestSupport
import TrellisWire
@testable import TrellisCanvas

// `blit` and one-column fills copy whole row segments at once, and `text` writes UTF-8
// directly. These tests pin the cases where that could differ from drawing cell by cell —
// wide characters at a segment's ends, in the source or under it, and the damage left —
// and compare against cell-by-cell versions kept here as the reference.

@Suite("Row-at-a-time blits, fills and text")
struct FastPathTests {
    static func line(_ text: String, width: Int, fill: Cell = Cell()) -> Surface {
        var s = Surface(size: Size(width: width, height: 1), fill: fill)
        s.put(text, at: .zero, style: .plain)
        return s
    }

    @Test("a source wide character cut by the clip's left edge is a space on its visible half")
    func sourceCutLeft() {
        var screen = Self.line("", width: 6, fill: Cell(scalar: 0x2E))
        screen.withState(origin: .zero, clip: Rect(x: 2, y: 0, width: 4, height: 1)) { s in
            s.blit(Self.line("aあbc", width: 5), at: Point(x: 0, y: 0))
        }
        #expect(screen.row(0) == ".. bc.")
        #expect(screen.wideCharactersAreWhole)
    }

    @Test("a source wide character cut by the clip's right edge is a space on its visible half")
    func sourceCutRight() {
        var screen = Self.line("", width: 6, fill: Cell(scalar: 0x2E))
        screen.withState(origin: .zero, clip: Rect(x: 0, y: 0, width: 3, height: 1)) { s in
            s.blit(Self.line("abあc", width: 5), at: Point(x: 0, y: 0))
        }
        #expect(screen.row(0) == "ab ...")
        #expect(screen.wideCharactersAreWhole)
    }

    @Test("a source wide character whole inside the copy arrives whole")
    func sourceWideInside() {
        var screen = Self.line("", width: 6, fill: Cell(scalar: 0x2E))
        screen.blit(Self.line("aあb", width: 4), at: Point(x: 1, y: 0))
        #expect(screen.row(0) == ".aあ·b.")
        #expect(screen.wideCharactersAreWhole)
    }

    @Test("a destination wide character half under the copy loses its other half, outside the copy")
    func destinationCutAtBothEnds() {
        var screen = Self.line("漢xy字", width: 6)
        _ = screen.takeFrame(number: 1)
        // Covers columns 1...4: the right half of 漢 and the left half of 字.
        screen.blit(Self.line("abcd", width: 4), at: Point(x: 1, y: 0))
        #expect(screen.row(0) == " abcd ")
        #expect(screen.wideCharactersAreWhole)
        #expect(screen.damage == [Rect(x: 0, y: 0, width: 6, height: 1)])
    }

    @Test("a destination wide character under a one-cell copy loses its other half")
    func destinationUnderOneCell() {
        var screen = Self.line("漢字", width: 4)
        screen.blit(Self.line("|", width: 1), at: Point(x: 0, y: 0))
        screen.blit(Self.line("[", width: 1), at: Point(x: 3, y: 0))
        #expect(screen.row(0) == "|  [")
        #expect(screen.wideCharactersAreWhole)
    }

    @Test("a destination wide character whole under the copy is replaced whole")
    func destinationWideInside() {
        var screen = Self.line("a漢bc", width: 5)
        screen.blit(Self.line("wxyz", width: 4), at: Point(x: 0, y: 0))
        #expect(screen.row(0) == "wxyzc")
        #expect(screen.wideCharactersAreWhole)
    }

    @Test("wide characters at the copy's ends in both source and destination")
    func bothEnds() {
        var screen = Self.line("字ab漢", width: 6)
        screen.withState(origin: .zero, clip: Rect(x: 1, y: 0, width: 4, height: 1)) { s in
            s.blit(Self.line("あcdい", width: 6), at: Point(x: 0, y: 0))
        }
        #expect(screen.row(0) == "  cd  ")
        #expect(screen.wideCharactersAreWhole)
    }

    @Test("a blit damages exactly the cells that changed")
    func blitDamage() {
        var screen = Self.line("abcdefgh", width: 8)
        _ = screen.takeFrame(number: 1)
        screen.blit(Self.line("abXdefYh", width: 8), at: .zero)
        #expect(screen.damage == [Rect(x: 2, y: 0, width: 1, height: 1), Rect(x: 6, y: 0, width: 1, height: 1)])
        var same = screen
        _ = same.takeFrame(number: 2)
        same.blit(screen, at: .zero)
        #expect(same.damage.isEmpty)
        #expect(!same.isDamaged)
    }

    @Test("a fill over wide characters at its ends blanks their other halves, and damages only changes")
    func fillEnds() {
        var screen = Self.line("漢xy字z", width: 7)
        _ = screen.takeFrame(number: 1)
        screen.fill(Rect(x: 1, y: 0, width: 4, height: 1), with: .plain, character: "x")
        #expect(screen.row(0) == " xxxx z")
        #expect(screen.wideCharactersAreWhole)
        // 漢 → blank + x (0, 1), x y unchanged, 字 → x + blank (4, 5).
        #expect(screen.damage == [Rect(x: 0, y: 0, width: 6, height: 1)])
        var again = screen
        _ = again.takeFrame(number: 2)
        again.fill(Rect(x: 1, y: 0, width: 4, height: 1), with: .plain, character: "x")
        #expect(!again.isDamaged)
        again.fill(Rect(x: 3, y: 0, width: 1, height: 1), with: red, character: "x")
        #expect(again.damage == [Rect(x: 3, y: 0, width: 1, height: 1)])
    }

    @Test("text writes every width of UTF-8, skips continuations and trims each row")
    func text() {
        var s = Surface(size: Size(width: 8, height: 3))
        s.put("aé€😀", at: .zero, style: .plain)
        s.put("漢 b", at: Point(x: 1, y: 2), style: .plain)
        #expect(s.text == "aé€😀\n\n 漢 b")
        #expect(Surface(size: Size(width: 0, height: 3)).text == "\n\n")
        #expect(Surface(size: Size(width: 3, height: 0)).text == "")
        var bad = Surface(size: Size(width: 3, height: 1))
        bad.cells[1].scalar = 0xD800  // not a scalar: only a frame decoder's bug could put one here
        #expect(bad.text == " \u{FFFD}")
    }

    // MARK: - Against cell-by-cell drawing

    @Test("blits and fills match cell-by-cell drawing in cells and damage, over random scenes")
    func randomScenes() {
        var random = SplitMix64(seed: 0x7E11_15)
        for _ in 0..<3_000 {
            let width = random.int(1...9)
            let height = random.int(1...3)
            let start = random.surface(width: width, height: height)
            var fast = start
            _ = fast.takeFrame(number: 1)
            fast.clip = Rect(x: random.int(-2...width), y: random.int(-1...height), width: random.int(0...width + 2), height: random.int(0...height + 1))
            fast.origin = Point(x: random.int(-2...2), y: random.int(-1...1))
            var slow = fast
            if random.int(0...2) == 0 {
                let rect = Rect(x: random.int(-2...width), y: random.int(-1...height), width: random.int(0...width + 2), height: random.int(0...height))
                let style = random.bool() ? red : .plain
                let character: Character = random.bool() ? "x" : " "
                fast.fill(rect, with: style, character: character)
                slow.referenceFill(rect, with: style, character: character)
            } else {
                let source = random.surface(width: random.int(1...width + 2), height: random.int(1...height))
                let at = Point(x: random.int(-3...width), y: random.int(-1...height))
                fast.blit(source, at: at)
                slow.referenceBlit(source, at: at)
            }
            #expect(fast.cells == slow.cells)
            #expect(fast.damage == slow.damage)
            #expect(fast.wideCharactersAreWhole)
            #expect(fast.text == slow.referenceText)
        }
    }
}

/// Random scenes from the shared generator, the same on every run for one seed.
extension SplitMix64 {
    /// Rows of narrow and wide characters in two styles, trailing spaces included.
    mutating func surface(width: Int, height: Int) -> Surface {
        let glyphs: [String] = ["a", "b", " ", "é", "あ", "漢", "😀"]
        var s = Surface(size: Size(width: width, height: height))
        for y in 0..<height {
            var x = 0
            while x < width {
                let glyph = glyphs[int(0...glyphs.count - 1)]
                x += s.put(glyph, at: Point(x: x, y: y), style: bool() ? red : blue)
            }
        }
        return s
    }
}

extension Surface {
    /// `blit` as written before it copied rows at once: every cell through the clip test
    /// and the wide-character-safe writes.
    mutating func referenceBlit(_ other: Surface, at point: Point) {
        let baseX = point.x + origin.x
        let baseY = point.y + origin.y
        let firstColumn = max(0, clip.minX - baseX - 1)
        let endColumn = min(other.size.width, clip.maxX - baseX + 1)
        for oy in max(0, clip.minY - baseY)..<max(max(0, clip.minY - baseY), min(other.size.height, clip.maxY - baseY)) {
            var ox = firstColumn
            while ox < endColumn {
                let cell = other[ox, oy]
                if cell.scalar == Cell.continuation {
                    ox += 1
                } else if ox + 1 < other.size.width, other[ox + 1, oy].scalar == Cell.continuation {
                    writeWide(lead: cell, trail: other[ox + 1, oy], x: baseX + ox, y: baseY + oy)
                    ox += 2
                } else {
                    writeNarrow(cell, x: baseX + ox, y: baseY + oy)
                    ox += 1
                }
            }
        }
    }

    /// `fill` with a one-column character as written before: one narrow write per cell.
    mutating func referenceFill(_ rect: Rect, with style: Style, character: Character) {
        let area = rect.offsetBy(dx: origin.x, dy: origin.y)
        let scalar = character.unicodeScalars.first!.value
        for y in max(area.minY, clip.minY)..<max(max(area.minY, clip.minY), min(area.maxY, clip.maxY)) {
            for x in max(area.minX, clip.minX)..<max(max(area.minX, clip.minX), min(area.maxX, clip.maxX)) {
                writeNarrow(style.cell(scalar), x: x, y: y)
            }
        }
    }

    /// `text` as written before, a string per row joined at the end.
    var referenceText: String {
        (0..<size.height).map { y in
            var row = String.UnicodeScalarView()
            var count = 0
            var kept = 0
            for x in 0..<size.width where self[x, y].scalar != Cell.continuation {
                row.append(Unicode.Scalar(self[x, y].scalar) ?? "\u{FFFD}")
                count += 1
                if self[x, y].scalar != 0x20 { kept = count }
            }
            return String(String.UnicodeScalarView(row.prefix(kept)))
        }.joined(separator: "\n")
    }
}
