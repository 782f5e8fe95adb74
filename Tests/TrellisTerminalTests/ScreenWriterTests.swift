import Testing
import TrellisCanvas
import TrellisTerminal
import TrellisWire

/// Bytes as a readable string: ESC shown as "␛", other controls as \r, \n, \b.
private func shown(_ bytes: [UInt8]) -> String {
    var out = ""
    for scalar in String(decoding: bytes, as: UTF8.self).unicodeScalars {
        switch scalar {
        case "\u{1B}": out += "␛"
        case "\r": out += "\\r"
        case "\n": out += "\\n"
        case "\u{08}": out += "\\b"
        default: out.unicodeScalars.append(scalar)
        }
    }
    return out
}

private let begin = "␛[?2026h"
private let end = "␛[?2026l"

/// A writer that has already drawn `surface` (so later frames are incremental).
private func writer(showing surface: inout Surface, depth: ColorDepth = .trueColor) -> ScreenWriter {
    var w = ScreenWriter(size: surface.size, depth: depth)
    _ = w.frame(of: &surface)
    return w
}

/// What `w` writes of `s` when its damage is said to be `rows` alone.
private func frame(of s: inout Surface, by w: inout ScreenWriter, damagedAt rows: [[Range<Int>]]) -> String {
    _ = s.takeDamage()
    return shown(w.frame(s, damage: SurfaceDamage(size: s.size, rows: rows)))
}

extension ScreenWriter {
    /// The frame of `screen` with the damage taken from it, as the compositor sends its
    /// composed screen.
    fileprivate mutating func frame(of screen: inout Surface, cursor: Point? = nil) -> [UInt8] {
        frame(screen, damage: screen.takeDamage(), cursor: cursor)
    }
}

@Suite struct ScreenWriterTests {
    @Test func firstFrameRedrawsEverythingAndHidesTheCursor() {
        var s = Surface(size: Size(width: 10, height: 3))
        s.put("hi", at: Point(x: 0, y: 0), style: .plain)
        var w = ScreenWriter(size: s.size, depth: .trueColor)
        #expect(shown(w.frame(of: &s)) == begin + "␛[?25l␛[m␛[H␛[2Jhi" + end)
        #expect(w.isInSync)
    }

    @Test func nothingChangedWritesNothing() {
        var s = Surface(size: Size(width: 10, height: 3))
        var w = writer(showing: &s)
        #expect(w.frame(of: &s).isEmpty)
    }

    @Test func oneCellIsACursorMoveAndTheCharacter() {
        var s = Surface(size: Size(width: 10, height: 3))
        var w = writer(showing: &s)
        s.put("x", at: Point(x: 4, y: 1), style: .plain)
        #expect(shown(w.frame(of: &s)) == begin + "␛[2;5Hx" + end)
        // The same cell again: the cursor is just after it, one backspace away.
        s.put("y", at: Point(x: 4, y: 1), style: .plain)
        #expect(shown(w.frame(of: &s)) == begin + "\\by" + end)
    }

    @Test func movesToTheStartOfTheNextRowWithCRLF() {
        var s = Surface(size: Size(width: 30, height: 20))
        var w = writer(showing: &s)
        s.put("a", at: Point(x: 25, y: 10), style: .plain)
        s.put("b", at: Point(x: 0, y: 11), style: .plain)
        s.put("c", at: Point(x: 3, y: 11), style: .plain)
        // a; CR LF (2 bytes, not CSI 12 H); b; two unchanged blanks rewritten (2 bytes, not CSI 2 C); c
        #expect(shown(w.frame(of: &s)) == begin + "␛[11;26Ha\\r\\nb  c" + end)
    }

    /// Issue 20: a tab switch blanks most of the old tab's text. Runs of plain blanks
    /// are erased, not written: EL when the row is blank from there on, ECH (and a move
    /// past it) inside a row when that is shorter than the spaces.
    @Test func runsOfPlainBlanksAreErased() {
        var s = Surface(size: Size(width: 40, height: 2))
        s.put("the old tab's first row, long enough", at: .zero, style: .plain)
        s.put("x", at: Point(x: 39, y: 0), style: .plain)
        s.put("the old tab's second row and more", at: Point(x: 0, y: 1), style: .plain)
        var w = writer(showing: &s)
        s.fill(Rect(x: 4, y: 0, width: 36, height: 1), with: .plain)
        s.fill(Rect(x: 0, y: 1, width: 30, height: 1), with: .plain)
        s.put("new", at: Point(x: 0, y: 1), style: .plain)
        // Row 0 is blank from column 4 on (x too): EL. Row 1 keeps "ore" at 30: after
        // "new" and the blank that was there already, the 26 blanks before it are ECH.
        #expect(shown(w.frame(of: &s)) == begin + "␛[1;5H␛[K\\r\\nnew ␛[26X" + end)
    }

    @Test func shortRunsOfBlanksAndStyledBlanksAreWritten() {
        var s = Surface(size: Size(width: 20, height: 1))
        s.put("abcdefghijklmnopqrs", at: .zero, style: .plain)
        var w = writer(showing: &s)
        // A styled run, and one blank to the row's end (EL needs three damaged): written.
        s.fill(Rect(x: 18, y: 0, width: 2, height: 1), with: .plain)
        s.fill(Rect(x: 2, y: 0, width: 14, height: 1), with: Style(background: .indexed(4)))
        #expect(shown(w.frame(of: &s)) == begin + "␛[3G␛[44m              ␛[2C␛[m " + end)
    }

    @Test func unchangedCellsInAnotherStyleAreMovedOverNotRewritten() {
        var s = Surface(size: Size(width: 10, height: 1))
        s.put("abcdef", at: .zero, style: .plain)
        var w = writer(showing: &s)
        s.put("A", at: .zero, style: .plain)
        s.put("C", at: Point(x: 2, y: 0), style: .plain)
        #expect(shown(w.frame(of: &s)) == begin + "\\rAbC" + end)
        s.put("x", at: Point(x: 1, y: 0), style: Style(attributes: .bold))
        s.put("Z", at: Point(x: 3, y: 0), style: .plain)
        // After x the pen is bold and C is plain: CUF beats switching the pen twice.
        #expect(shown(w.frame(of: &s)) == begin + "\\b\\b␛[1mx␛[C␛[mZ" + end)
    }

    @Test func sgrIsWrittenOnlyWhenTheStyleChangesAndTheShorterWay() {
        var s = Surface(size: Size(width: 10, height: 1))
        var w = writer(showing: &s)
        let red = Style(foreground: .indexed(1), attributes: .bold)
        s.put("ab", at: .zero, style: red)
        s.put("c", at: Point(x: 2, y: 0), style: .plain)
        // Plain to bold red: "1;31" beats "0;1;31". Back to plain: CSI m beats "22;39".
        #expect(shown(w.frame(of: &s)) == begin + "␛[1;31mab␛[mc" + end)
        let underlinedRed = Style(foreground: .indexed(1), attributes: [.bold, .underline])
        s.put("d", at: Point(x: 3, y: 0), style: underlinedRed)
        s.put("e", at: Point(x: 4, y: 0), style: Style(foreground: .indexed(1), attributes: .underline))
        // Dropping bold is 22, which also drops dim; underline stays set.
        #expect(shown(w.frame(of: &s)) == begin + "␛[1;4;31md␛[22me" + end)
    }

    @Test func colorsAreWrittenForTheDepth() {
        let orange = Style(foreground: .rgb(255, 135, 0), background: .indexed(200))
        var expected: [ColorDepth: String] = [:]
        expected[.trueColor] = "␛[38;2;255;135;0;48;5;200mx"
        expected[.ansi256] = "␛[38;5;208;48;5;200mx"
        expected[.ansi16] = "␛[33;105mx"  // (205, 205, 0) is nearest
        expected[.none] = "x"
        for depth in ColorDepth.allCases {
            var s = Surface(size: Size(width: 4, height: 1))
            var w = writer(showing: &s, depth: depth)
            s.put("x", at: .zero, style: orange)
            #expect(shown(w.frame(of: &s)) == begin + expected[depth]! + end, "\(depth)")
        }
    }

    @Test func noColorStillWritesAttributes() {
        var s = Surface(size: Size(width: 4, height: 1))
        var w = writer(showing: &s, depth: .none)
        s.put("x", at: .zero, style: Style(foreground: .rgb(9, 9, 9), background: .indexed(3), attributes: .reverse))
        #expect(shown(w.frame(of: &s)) == begin + "␛[7mx" + end)
    }

    @Test func depthMapping() {
        #expect(ColorDepth.ansi256.map(.rgb(255, 0, 0)) == .indexed(196))
        #expect(ColorDepth.ansi256.map(.rgb(128, 128, 128)) == .indexed(244))
        #expect(ColorDepth.ansi256.map(.rgb(0, 0, 0)) == .indexed(16))
        #expect(ColorDepth.ansi256.map(.indexed(7)) == .indexed(7))
        #expect(ColorDepth.ansi16.map(.rgb(250, 10, 10)) == .indexed(9))
        #expect(ColorDepth.ansi16.map(.indexed(196)) == .indexed(9))
        #expect(ColorDepth.ansi16.map(.indexed(232)) == .indexed(0))
        #expect(ColorDepth.ansi16.map(.indexed(12)) == .indexed(12))
        #expect(ColorDepth.none.map(.rgb(1, 2, 3)) == .default)
        #expect(ColorDepth.trueColor.map(.rgb(1, 2, 3)) == .rgb(1, 2, 3))
        for depth in ColorDepth.allCases { #expect(depth.map(.default) == .default) }
    }

    @Test func detectsTheDepthFromTheEnvironment() {
        #expect(ColorDepth.detect(environment: ["NO_COLOR": "1", "COLORTERM": "truecolor"]) == .none)
        #expect(ColorDepth.detect(environment: ["COLORTERM": "truecolor", "TERM": "xterm"]) == .trueColor)
        #expect(ColorDepth.detect(environment: ["TERM": "xterm-256color"]) == .ansi256)
        #expect(ColorDepth.detect(environment: ["TERM": "dumb"]) == .none)
        #expect(ColorDepth.detect(environment: ["TERM": "vt100", "NO_COLOR": ""]) == .ansi16)
    }

    @Test func wideCharactersAreRewrittenWhole() {
        var s = Surface(size: Size(width: 6, height: 1))
        s.put("日本", at: .zero, style: .plain)
        var w = writer(showing: &s)
        // "a" over the right half of 日: the left half becomes a space, both are written.
        s.put("a", at: Point(x: 1, y: 0), style: .plain)
        #expect(shown(w.frame(of: &s)) == begin + "\\r a" + end)
        // 本 at column 1 breaks the old 本 at 2–3: write the new one whole, then the blank.
        s.put("本", at: Point(x: 1, y: 0), style: .plain)
        #expect(shown(w.frame(of: &s)) == begin + "\\b本 " + end)
    }

    @Test func aStyleChangeOnEitherHalfRewritesTheWholeCharacter() {
        var s = Surface(size: Size(width: 4, height: 1))
        s.put("語", at: Point(x: 1, y: 0), style: .plain)
        var w = writer(showing: &s)
        s.fill(Rect(x: 2, y: 0, width: 1, height: 1), with: Style(background: .indexed(4)))
        // Filling the right half blanks the left half: both cells are written.
        let bytes = shown(w.frame(of: &s))
        #expect(bytes == begin + "\\b\\b ␛[44m " + end)
    }

    @Test func theCursorIsShownWhereAskedAndHiddenAgainForTheNextFrame() {
        var s = Surface(size: Size(width: 10, height: 2))
        var w = writer(showing: &s)
        #expect(shown(w.frame(of: &s, cursor: Point(x: 3, y: 1))) == begin + "␛[2;4H␛[?25h" + end)
        #expect(w.frame(of: &s, cursor: Point(x: 3, y: 1)).isEmpty)
        s.put("z", at: Point(x: 3, y: 1), style: .plain)
        #expect(shown(w.frame(of: &s)) == begin + "␛[?25lz" + end)
    }

    @Test func resizeRedrawsEverything() {
        var s = Surface(size: Size(width: 4, height: 1))
        s.put("ab", at: .zero, style: .plain)
        var w = writer(showing: &s)
        s.resize(to: Size(width: 3, height: 2))
        w.resize(to: s.size)
        #expect(!w.isInSync)
        // The cursor's state is forgotten too, so it is hidden again.
        #expect(shown(w.frame(of: &s)) == begin + "␛[?25l␛[m␛[H␛[2Jab" + end)
    }

    @Test func aFrameThatChangesEverythingFallsBackToAFullRedraw() {
        var s = Surface(size: Size(width: 8, height: 2))
        s.fill(s.bounds, with: .plain, character: "x")
        var w = writer(showing: &s)
        // Most cells become plain blanks: erasing beats writing each blank.
        s.fill(s.bounds, with: .plain)
        s.put("q", at: Point(x: 7, y: 1), style: .plain)
        #expect(shown(w.frame(of: &s)) == begin + "␛[m␛[H␛[2J␛[2;8Hq" + end)
    }

    /// Issue 20 (`trellis bench compose`, every cell): when every cell changed, the
    /// difference would rewrite every cell anyway, so the writer redraws at once rather
    /// than encoding the difference first and the redraw after to compare them.
    @Test func aFrameThatChangesEveryCellIsARedraw() {
        var s = Surface(size: Size(width: 4, height: 2))
        s.put("abcd", at: .zero, style: .plain)
        s.put("efgh", at: Point(x: 0, y: 1), style: Style(foreground: .indexed(3)))
        var w = writer(showing: &s)
        s.put("ijkl", at: .zero, style: Style(foreground: .indexed(2)))
        s.put("mnop", at: Point(x: 0, y: 1), style: .plain)
        let bytes = shown(w.frame(of: &s))
        #expect(bytes.hasPrefix(begin + "␛[m␛[H␛[2J␛[32mijkl"), "\(bytes)")
        #expect(bytes.hasSuffix("mnop" + end), "\(bytes)")
    }

    /// Issue 20: the bench's every-cell frame keeps its spinner, as a tab switch keeps
    /// its tab bar's blanks: a cell in 64 left as it was is still a redraw, encoded
    /// once; one more, and the difference is encoded (and compared with the redraw).
    @Test func aFrameThatChangesAllButOneCellIn64IsARedraw() {
        var s = Surface(size: Size(width: 64, height: 2))
        s.fill(s.bounds, with: .plain, character: "a")
        var w = writer(showing: &s)
        s.fill(s.bounds, with: .plain, character: "b")
        s.put("a", at: Point(x: 10, y: 0), style: .plain)
        s.put("a", at: Point(x: 20, y: 1), style: .plain)
        #expect(shown(w.frame(of: &s)).hasPrefix(begin + "␛[m␛[H␛[2J"))
        s.fill(s.bounds, with: .plain, character: "c")
        // Four cells stay "b": two more than one in 64 of 128.
        for x in 11...14 { s.put("b", at: Point(x: x, y: 0), style: .plain) }
        let bytes = shown(w.frame(of: &s))
        #expect(!bytes.contains("␛[2J"), "\(bytes)")
    }

    /// Issue 20 (one change-tracking path): the writer compares nothing — it writes the
    /// damaged cells, one that is as it was too, and no other, not even one that differs.
    @Test func writesExactlyTheDamagedCells() {
        var s = Surface(size: Size(width: 10, height: 2))
        s.put("abc", at: .zero, style: .plain)
        var w = writer(showing: &s)
        s.put("X", at: Point(x: 5, y: 1), style: .plain)
        #expect(frame(of: &s, by: &w, damagedAt: [[1..<2], []]) == begin + "\\b\\bb" + end)
        #expect(w.frame(s, damage: SurfaceDamage(size: s.size)).isEmpty)
    }

    /// A span that starts on the second cell of a wide character writes it whole.
    @Test func aSpanOnHalfAWideCharacterWritesItWhole() {
        var s = Surface(size: Size(width: 6, height: 1))
        s.put("ab", at: .zero, style: .plain)
        var w = writer(showing: &s)
        s.put("語", at: Point(x: 3, y: 0), style: .plain)
        #expect(frame(of: &s, by: &w, damagedAt: [[4..<5]]) == begin + " 語" + end)
    }

    /// Out of sync — the first frame, after `resize(to:)` or `invalidate()` (a failed
    /// write, a terminal given back) — everything is redrawn, whatever the damage says;
    /// so is a frame whose damage is of another size (screens coalesced across a resize).
    @Test func outOfSyncRedrawsWhateverTheDamage() {
        var s = Surface(size: Size(width: 6, height: 1))
        s.put("ab", at: .zero, style: .plain)
        var w = writer(showing: &s)
        w.invalidate()
        #expect(shown(w.frame(s, damage: SurfaceDamage(size: s.size))) == begin + "␛[?25l␛[m␛[H␛[2Jab" + end)
        s.put("c", at: Point(x: 2, y: 0), style: .plain)
        _ = s.takeDamage()
        #expect(shown(w.frame(s, damage: .all(Size(width: 3, height: 1)))) == begin + "␛[m␛[H␛[2Jabc" + end)
    }

    /// Issue 20 (`trellis bench compose`): a redraw works out each change of style once
    /// and copies it when the same change comes again. The copies are the bytes working
    /// it out gives: colours alone as the shorter of reset-and-set and the change, back to
    /// the plain pen as CSI m, and styles that differ but write the same pen at this
    /// depth no SGR at all — however often each change comes.
    @Test func aRedrawWritesEachRepeatedChangeOfStyleAsTheFirst() {
        var s = Surface(size: Size(width: 16, height: 2))
        let red = Style(foreground: .indexed(1)), green = Style(foreground: .indexed(2))
        let onBlue = Style(foreground: .indexed(1), background: .indexed(4))
        // (205, 0, 0) is red's own colour in 16 colours: another style, the same pen.
        let alsoRed = Style(foreground: .rgb(205, 0, 0))
        for (k, style) in [red, green, red, green, onBlue, red, .plain, red].enumerated() {
            s.put("ab", at: Point(x: 2 * k, y: 0), style: style)
        }
        for (k, style) in [red, alsoRed, red, alsoRed].enumerated() {
            s.put("cd", at: Point(x: 2 * k, y: 1), style: style)
        }
        var w = ScreenWriter(size: s.size, depth: .ansi16)
        let row0 = "␛[31mab␛[32mab␛[31mab␛[32mab␛[31;44mab␛[49mab␛[mab␛[31mab"
        let row1 = "cdcdcdcd"
        #expect(shown(w.frame(of: &s)) == begin + "␛[?25l␛[m␛[H␛[2J" + row0 + "\\r\\n" + row1 + end)
    }
}
