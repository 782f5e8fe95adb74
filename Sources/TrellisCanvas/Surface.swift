import TrellisWire

/// A width × height grid of cells that views draw into, with the damage since the last
/// frame.
///
/// Wide characters take two cells: the character, then a `Cell.continuation` cell in the
/// same style. Every write keeps the pair whole: a wide character that does not fit in
/// the clip is drawn as a space, and writing over either half of one blanks the other.
/// No drawing call can leave half a wide character behind, so a terminal fed from a
/// surface never misaligns the rest of a row.
///
/// Drawing calls take coordinates relative to `origin` and are limited to `clip`; reading
/// (`subscript`, `cell(at:)`, `text`) is always in surface coordinates.
///
/// Two surfaces are equal when they have the same size and cells; drawing state and
/// pending damage are bookkeeping, not content.
public struct Surface: Sendable, Equatable {
    public private(set) var size: Size
    /// Row-major, `size.width * size.height` cells.
    var cells: [Cell]
    /// The cells as the receiver has them after the last frame (blank before the first), so
    /// damage is what differs from them rather than every write: a view that clears and
    /// redraws the same content each frame sends nothing.
    var sentCells: [Cell]
    var tracker: DamageTracker

    /// Added to the coordinates of every drawing call, so a view draws in its own
    /// coordinates wherever it sits.
    public var origin: Point = .zero

    private var clipRect: Rect

    /// Where drawing lands, in surface coordinates (not shifted by `origin`); drawing
    /// outside it is discarded. Always within `bounds`.
    public var clip: Rect {
        get { clipRect }
        set { clipRect = newValue.intersection(bounds) }
    }

    public var bounds: Rect { Rect(origin: .zero, size: size) }

    /// A surface of `size` filled with `fill`, which must be a one-column character.
    ///
    /// A receiver starts from blank `Cell()` cells, so any other fill counts as damage and
    /// goes out with the first frame.
    public init(size: Size, fill: Cell = Cell()) {
        Self.check(size: size, fill: fill)
        self.size = size
        cells = Array(repeating: fill, count: size.width * size.height)
        sentCells = Array(repeating: Cell(), count: size.width * size.height)
        tracker = DamageTracker(height: size.height)
        clipRect = Rect(origin: .zero, size: size)
        if fill != Cell() {
            tracker.markAll(width: size.width, force: false)
        }
    }

    /// The cell at (x, y) in surface coordinates, which must be in `bounds`.
    public subscript(x: Int, y: Int) -> Cell {
        precondition(x >= 0 && x < size.width && y >= 0 && y < size.height, "(\(x), \(y)) outside the \(size) surface")
        return cells[y * size.width + x]
    }

    /// The cell at `point` in surface coordinates, or nil outside `bounds`.
    public func cell(at point: Point) -> Cell? {
        guard bounds.contains(point) else { return nil }
        return cells[point.y * size.width + point.x]
    }

    /// Runs `body` with `origin` set to `origin` and `clip` narrowed to `clip` (both in
    /// surface coordinates), then restores both, so a parent can hand the surface to a child
    /// view without the child drawing outside its frame.
    public mutating func withState<R>(origin: Point, clip: Rect, _ body: (inout Surface) throws -> R) rethrows -> R {
        let savedOrigin = self.origin
        let savedClip = clipRect
        self.origin = origin
        clipRect = clip.intersection(clipRect)
        defer {
            self.origin = savedOrigin
            clipRect = savedClip.intersection(bounds)
        }
        return try body(&self)
    }

    /// Changes the size, keeping the cells both sizes cover. Everything is damaged: a
    /// receiver resizes its copy and needs the whole surface again. Resets `origin` and
    /// `clip`, which belonged to the old size.
    public mutating func resize(to newSize: Size, fill: Cell = Cell()) {
        Self.check(size: newSize, fill: fill)
        var next = Array(repeating: fill, count: newSize.width * newSize.height)
        let keptWidth = min(size.width, newSize.width)
        for y in 0..<min(size.height, newSize.height) {
            for x in 0..<keptWidth {
                next[y * newSize.width + x] = cells[y * size.width + x]
            }
            // A wide character cut by the new right edge would be left as half of itself.
            if keptWidth > 0, keptWidth < size.width, cells[y * size.width + keptWidth].scalar == Cell.continuation {
                let i = y * newSize.width + keptWidth - 1
                next[i] = Style(of: next[i]).cell(0x20)
            }
        }
        size = newSize
        cells = next
        origin = .zero
        clipRect = bounds
        sentCells = Array(repeating: Cell(), count: newSize.width * newSize.height)
        tracker = DamageTracker(height: newSize.height)
        tracker.markAll(width: newSize.width, force: true)
    }

    /// Damages the whole surface, for a receiver that lost its copy (a compositor restart).
    public mutating func damageAll() {
        tracker.markAll(width: size.width, force: true)
    }

    public static func == (a: Surface, b: Surface) -> Bool {
        a.size == b.size && a.cells == b.cells
    }

    private static func check(size: Size, fill: Cell) {
        precondition(size.width >= 0 && size.height >= 0, "negative surface size \(size)")
        // Frames carry sizes as UInt16.
        precondition(size.width <= Int(UInt16.max) && size.height <= Int(UInt16.max), "surface \(size) too large")
        precondition(
            Unicode.Scalar(fill.scalar).map { CharacterWidth.columns(of: $0) == 1 } == true,
            "fill scalar \(fill.scalar) is not a one-column character")
    }
}

// MARK: - Cell writes that keep wide characters whole

extension Surface {
    /// Stores `cell` at (x, y) in surface coordinates, marking the cell only when the value
    /// changes. Knows nothing of wide characters; callers below keep pairs whole.
    mutating func store(_ cell: Cell, x: Int, y: Int) {
        let i = y * size.width + x
        if cells[i] != cell {
            cells[i] = cell
            tracker.mark(x: x, y: y)
        }
    }

    /// If (x, y) is half of a wide character, blanks the other half, keeping its style.
    /// The other half may be outside the clip: an orphan half would misalign the whole
    /// row on a terminal, which is worse than one blank outside the clip.
    mutating func breakWideCharacter(x: Int, y: Int) {
        let i = y * size.width + x
        if cells[i].scalar == Cell.continuation {
            if x > 0 { store(Style(of: cells[i - 1]).cell(0x20), x: x - 1, y: y) }
        } else if x + 1 < size.width, cells[i + 1].scalar == Cell.continuation {
            store(Style(of: cells[i + 1]).cell(0x20), x: x + 1, y: y)
        }
    }

    /// Writes a one-column cell at (x, y) in surface coordinates, if inside the clip.
    mutating func writeNarrow(_ cell: Cell, x: Int, y: Int) {
        guard clipRect.contains(Point(x: x, y: y)) else { return }
        breakWideCharacter(x: x, y: y)
        store(cell, x: x, y: y)
    }

    /// Writes a wide character as `lead` at (x, y) and `trail` at (x + 1, y). If the clip
    /// holds only one of the two cells, that cell gets a space in the lead's style instead:
    /// half a glyph cannot be drawn.
    mutating func writeWide(lead: Cell, trail: Cell, x: Int, y: Int) {
        let left = clipRect.contains(Point(x: x, y: y))
        let right = clipRect.contains(Point(x: x + 1, y: y))
        switch (left, right) {
        case (true, true):
            breakWideCharacter(x: x, y: y)
            breakWideCharacter(x: x + 1, y: y)
            store(lead, x: x, y: y)
            store(trail, x: x + 1, y: y)
        case (true, false):
            writeNarrow(Style(of: lead).cell(0x20), x: x, y: y)
        case (false, true):
            writeNarrow(Style(of: lead).cell(0x20), x: x + 1, y: y)
        case (false, false):
            break
        }
    }

    /// Draws one glyph of `width` columns at (x, y) in surface coordinates.
    mutating func writeGlyph(_ scalar: UInt32, width: Int, style: Style, x: Int, y: Int) {
        if width == 2 {
            writeWide(lead: style.cell(scalar), trail: style.cell(Cell.continuation), x: x, y: y)
        } else {
            writeNarrow(style.cell(scalar), x: x, y: y)
        }
    }
}

// MARK: - Reading as text

extension Surface {
    /// The rows joined by "\n", trailing spaces trimmed per row, continuation cells
    /// skipped: how the surface reads on a terminal, for tests and the headless screen.
    public var text: String {
        let width = size.width
        let height = size.height
        // A headless compositor reads its screen after every composition: the UTF-8 goes
        // straight into the string's own storage (four bytes a cell at most, plus the
        // newlines), with no string per row or per scalar to build and join.
        let capacity = width * height * 4 + height
        guard capacity > 0 else { return "" }
        return cells.withUnsafeBufferPointer { cells in
            String(unsafeUninitializedCapacity: capacity) { out in
                var n = 0
                for y in 0..<height {
                    if y > 0 {
                        out[n] = 0x0A
                        n += 1
                    }
                    var kept = n  // the end of the row up to its last non-space
                    for cell in cells[(y * width)..<((y + 1) * width)] {
                        let scalar = cell.scalar
                        if scalar == Cell.continuation { continue }
                        n = Self.appendUTF8(Unicode.Scalar(scalar)?.value ?? 0xFFFD, to: out, at: n)
                        if scalar != 0x20 { kept = n }
                    }
                    n = kept
                }
                return n
            }
        }
    }

    /// Writes `scalar` (a valid Unicode scalar value) as UTF-8 at `at`; returns the end.
    private static func appendUTF8(_ scalar: UInt32, to out: UnsafeMutableBufferPointer<UInt8>, at: Int) -> Int {
        switch scalar {
        case ..<0x80:
            out[at] = UInt8(scalar)
            return at + 1
        case ..<0x800:
            out[at] = UInt8(0xC0 | scalar >> 6)
            out[at + 1] = UInt8(0x80 | scalar & 0x3F)
            return at + 2
        case ..<0x10000:
            out[at] = UInt8(0xE0 | scalar >> 12)
            out[at + 1] = UInt8(0x80 | scalar >> 6 & 0x3F)
            out[at + 2] = UInt8(0x80 | scalar & 0x3F)
            return at + 3
        default:
            out[at] = UInt8(0xF0 | scalar >> 18)
            out[at + 1] = UInt8(0x80 | scalar >> 12 & 0x3F)
            out[at + 2] = UInt8(0x80 | scalar >> 6 & 0x3F)
            out[at + 3] = UInt8(0x80 | scalar & 0x3F)
            return at + 4
        }
    }
}
