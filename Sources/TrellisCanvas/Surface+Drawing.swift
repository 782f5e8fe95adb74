import TrellisWire

// Drawing calls: coordinates are relative to `origin`, and everything goes through the
// wide-character-safe writes in Surface.swift, limited to `clip`.

extension Surface {
    /// Fills `rect` with `character` in `style`. A wide character is laid in pairs from the
    /// rect's left edge; a column left over at the right edge gets a space.
    public mutating func fill(_ rect: Rect, with style: Style, character: Character = " ") {
        let area = rect.offsetBy(dx: origin.x, dy: origin.y)
        let glyph = Self.glyph(of: character)
        for y in span(max(area.minY, clip.minY), min(area.maxY, clip.maxY)) {
            fillRow(y, from: area.minX, to: area.maxX, glyph: glyph, style: style)
        }
    }

    /// Writes `text` on one row from `point` and returns the columns it advanced: the sum
    /// of the characters' widths, whether or not the clip let them be drawn, so runs of
    /// text can be written one after another.
    ///
    /// Text is composed (NFC) first, because a cell holds one scalar: "e" + U+0301 becomes
    /// "é" rather than losing its accent. Scalars that still take no column (combining
    /// marks with no precomposed form, zero-width joiners and spaces, variation selectors)
    /// are dropped. Control characters, newline and tab included, are dropped too: a
    /// terminal would act on them instead of drawing them, and a replacement glyph would
    /// take a column the caller did not measure.
    @discardableResult
    public mutating func put(_ text: String, at point: Point, style: Style) -> Int {
        let startX = point.x + origin.x
        let y = point.y + origin.y
        let rowVisible = y >= clip.minY && y < clip.maxY
        var x = startX
        for scalar in Self.composed(text).unicodeScalars {
            let width = CharacterWidth.columns(of: scalar)
            if width == 0 { continue }
            if rowVisible && x + width > clip.minX && x < clip.maxX {
                writeGlyph(scalar.value, width: width, style: style, x: x, y: y)
            }
            x += width
        }
        return x - startX
    }

    /// Draws a border on the outermost cells of `rect`. A rect one row high gets a
    /// horizontal line, one column wide a vertical line; `.none` draws nothing.
    public mutating func drawBorder(_ rect: Rect, style: BorderStyle, colors: Style) {
        guard style != .none, !rect.isEmpty else { return }
        let r = rect.offsetBy(dx: origin.x, dy: origin.y)
        if r.height == 1 {
            for x in r.minX..<r.maxX { writeNarrow(colors.cell(style.horizontal), x: x, y: r.minY) }
            return
        }
        if r.width == 1 {
            for y in r.minY..<r.maxY { writeNarrow(colors.cell(style.vertical), x: r.minX, y: y) }
            return
        }
        let right = r.maxX - 1
        let bottom = r.maxY - 1
        writeNarrow(colors.cell(style.topLeft), x: r.minX, y: r.minY)
        writeNarrow(colors.cell(style.topRight), x: right, y: r.minY)
        writeNarrow(colors.cell(style.bottomLeft), x: r.minX, y: bottom)
        writeNarrow(colors.cell(style.bottomRight), x: right, y: bottom)
        for x in (r.minX + 1)..<right {
            writeNarrow(colors.cell(style.horizontal), x: x, y: r.minY)
            writeNarrow(colors.cell(style.horizontal), x: x, y: bottom)
        }
        for y in (r.minY + 1)..<bottom {
            writeNarrow(colors.cell(style.vertical), x: r.minX, y: y)
            writeNarrow(colors.cell(style.vertical), x: right, y: y)
        }
    }

    /// Fills the cells whose centres lie inside (or on) the ellipse inscribed in `rect`; a
    /// square rect gives a circle of cells.
    ///
    /// The test is done in integers on doubled coordinates, so it is exact: the shape is
    /// symmetric about both axes and the same on every machine.
    public mutating func fillEllipse(in rect: Rect, style: Style, character: Character = " ") {
        guard !rect.isEmpty else { return }
        let area = rect.offsetBy(dx: origin.x, dy: origin.y)
        let glyph = Self.glyph(of: character)
        let w = area.width
        let h = area.height
        // Cell (i, j)'s centre relative to the ellipse's centre, doubled, is
        // (2i + 1 - w, 2j + 1 - h); inside when X²/w² + Y²/h² <= 1.
        let limit = w * w * h * h
        for j in 0..<h {
            let y = area.minY + j
            guard y >= clip.minY && y < clip.maxY else { continue }
            let dy = 2 * j + 1 - h
            let rowTerm = dy * dy * w * w
            // The first inside column; by symmetry the row's cells are [i, w - i).
            var i = 0
            while i < (w + 1) / 2 {
                let dx = 2 * i + 1 - w
                if dx * dx * h * h + rowTerm <= limit { break }
                i += 1
            }
            if i < w - i {
                fillRow(y, from: area.minX + i, to: area.minX + w - i, glyph: glyph, style: style)
            }
        }
    }

    /// Copies `other`'s cells with its top-left at `point`, limited to the clip. Wide
    /// characters are copied whole or, where the clip cuts them, as a space.
    public mutating func blit(_ other: Surface, at point: Point) {
        let baseX = point.x + origin.x
        let baseY = point.y + origin.y
        // Every cell a blit can change is inside the clip and under the source: a wide
        // character cut by the clip becomes a space on its visible half, never beyond.
        let x0 = max(clip.minX, baseX)
        let x1 = min(clip.maxX, baseX + other.size.width)
        guard x0 < x1 else { return }
        for oy in span(max(0, clip.minY - baseY), min(other.size.height, clip.maxY - baseY)) {
            if !copyRow(oy, of: other, from: x0 - baseX, to: x1 - baseX, x: x0, y: baseY + oy) {
                blitRowPerCell(oy, of: other, baseX: baseX, y: baseY + oy)
            }
        }
    }

    /// Source columns [from, to) of `other`'s row `row` copied to (x, y) onwards as they
    /// are, when no source wide character is cut by the segment's ends; false (nothing
    /// written) when one is, for the per-cell path to draw its visible half as a space.
    ///
    /// Copying as they are is what the per-cell path comes to everywhere else: inside the
    /// segment every wide character of the source arrives whole, and every one of the
    /// destination is either overwritten whole or cut at an end, where
    /// `breakWideCharacter` blanks its other half as a per-cell write there would.
    /// A composition recopies mostly unchanged rows, so this is one compare per cell and
    /// at most one damage span per row, not a clip test, a wide-character check and a
    /// damage mark per cell.
    private mutating func copyRow(_ row: Int, of other: Surface, from: Int, to: Int, x: Int, y: Int) -> Bool {
        let source = row * other.size.width
        if other.cells[source + from].scalar == Cell.continuation { return false }
        if to < other.size.width, other.cells[source + to].scalar == Cell.continuation { return false }
        breakWideCharacter(x: x, y: y)
        if to - from > 1 { breakWideCharacter(x: x + to - from - 1, y: y) }
        let target = y * size.width + x
        let changed = cells.withUnsafeMutableBufferPointer { cells in
            other.cells.withUnsafeBufferPointer { sourceCells in
                Self.copy(sourceCells, from: source + from, into: cells, at: target, count: to - from)
            }
        }
        if let changed { tracker.mark(row: y, (x + changed.lowerBound)..<(x + changed.upperBound)) }
        return true
    }

    /// Compare-and-copy of `count` cells; the offsets (from `at`) between the first and
    /// the last cell that changed, or nil when none did. Compared as bytes (`CellBytes`):
    /// a cell only perhaps changed is copied and marked, and the damage taken from the
    /// surface narrows it with `==`.
    private static func copy(
        _ source: UnsafeBufferPointer<Cell>, from: Int, into target: UnsafeMutableBufferPointer<Cell>, at: Int, count: Int
    ) -> Range<Int>? {
        precondition(from >= 0 && from + count <= source.count && at >= 0 && at + count <= target.count)
        guard count > 0, let sourceBase = source.baseAddress, let targetBase = target.baseAddress else { return nil }
        let bytewise = CellBytes.comparable
        let s = sourceBase + from, t = targetBase + at
        var first = -1
        var last = -1
        for k in 0..<count {
            if bytewise ? CellBytes.same(s + k, t + k) : s[k] == t[k] { continue }
            t[k] = s[k]
            if first < 0 { first = k }
            last = k
        }
        return first < 0 ? nil : first..<(last + 1)
    }

    /// One source row cell by cell, splitting wide characters the clip cuts: the general
    /// path, for rows `copyRow` leaves alone.
    private mutating func blitRowPerCell(_ oy: Int, of other: Surface, baseX: Int, y: Int) {
        // One column beyond the clip on each side, for wide characters straddling its edges.
        let firstColumn = max(0, clip.minX - baseX - 1)
        let endColumn = min(other.size.width, clip.maxX - baseX + 1)
        let rowStart = oy * other.size.width
        var ox = firstColumn
        while ox < endColumn {
            let cell = other.cells[rowStart + ox]
            if cell.scalar == Cell.continuation {
                // The right half of a character whose left half is outside the copy.
                ox += 1
            } else if ox + 1 < other.size.width, other.cells[rowStart + ox + 1].scalar == Cell.continuation {
                writeWide(lead: cell, trail: other.cells[rowStart + ox + 1], x: baseX + ox, y: y)
                ox += 2
            } else {
                writeNarrow(cell, x: baseX + ox, y: y)
                ox += 1
            }
        }
    }
}

// MARK: - Helpers

/// lower..<upper, or empty when upper is below lower (a rect entirely outside the clip).
func span(_ lower: Int, _ upper: Int) -> Range<Int> {
    lower..<max(lower, upper)
}

extension Surface {
    /// Columns [from, to) of row y in surface coordinates, filled with `glyph`.
    mutating func fillRow(_ y: Int, from: Int, to: Int, glyph: (scalar: UInt32, width: Int), style: Style) {
        if glyph.width == 1 {
            fillNarrow(y, from: max(from, clip.minX), to: min(to, clip.maxX), with: style.cell(glyph.scalar))
            return
        }
        // Pairs stay aligned to `from` even where the clip cuts into them.
        var x = from + max(0, (clip.minX - from) / 2 * 2)
        while x + 2 <= to && x < clip.maxX {
            writeGlyph(glyph.scalar, width: 2, style: style, x: x, y: y)
            x += 2
        }
        if x < to && x < clip.maxX {
            writeNarrow(style.cell(0x20), x: x, y: y)
        }
    }

    /// Columns [from, to) of row y, already inside the clip's columns, set to the
    /// one-column `cell`. A destination wide character inside the span is overwritten
    /// whole; one cut by either end loses its other half to `breakWideCharacter`, as a
    /// per-cell write there would. Views clear their whole surface every frame, so this is
    /// one compare per cell and one damage span per row.
    private mutating func fillNarrow(_ y: Int, from: Int, to: Int, with cell: Cell) {
        guard from < to, y >= clip.minY, y < clip.maxY else { return }
        breakWideCharacter(x: from, y: y)
        if to - from > 1 { breakWideCharacter(x: to - 1, y: y) }
        let start = y * size.width + from
        let changed = cells.withUnsafeMutableBufferPointer { cells -> Range<Int>? in
            precondition(start >= 0 && start + (to - from) <= cells.count)
            var first = -1
            var last = -1
            for k in 0..<(to - from) where cells[start + k] != cell {
                cells[start + k] = cell
                if first < 0 { first = k }
                last = k
            }
            return first < 0 ? nil : first..<(last + 1)
        }
        if let changed { tracker.mark(row: y, (from + changed.lowerBound)..<(from + changed.upperBound)) }
    }

    /// The scalar a fill character draws with: its first scalar that takes columns
    /// (after composition), or a space when it has none, as a control character has not.
    static func glyph(of character: Character) -> (scalar: UInt32, width: Int) {
        for scalar in composed(String(character)).unicodeScalars {
            let width = CharacterWidth.columns(of: scalar)
            if width > 0 { return (scalar.value, width) }
        }
        return (0x20, 1)
    }

    /// `text` in NFC when it holds a combining scalar, else unchanged (the common case
    /// costs one scan and no allocation).
    static func composed(_ text: String) -> String {
        let needsComposition = text.unicodeScalars.contains { $0.value >= 0x300 && CharacterWidth.columns(of: $0) == 0 }
        guard needsComposition else { return text }
        // The standard library's NFC is public only under this underscored name. Should it
        // change, the build breaks here rather than text degrading quietly; Foundation's
        // would make this target depend on Foundation for one call.
        return String(decoding: text._nfcCodeUnits, as: UTF8.self)
    }
}
