import TrellisWire

// Damage out as frames, frames in as cells. A frame carries whole wide characters only,
// so a receiver can apply it to any copy that was in step and stay free of orphan halves.

extension Surface {
    /// Beyond this many damage rectangles a frame carries their union instead: each
    /// rectangle costs a header and a terminal cursor move, and damage that scattered is
    /// usually most of the surface anyway.
    public static let maxDamageRects = 64

    /// Changed cells at most this many unchanged cells apart on a row go out as one span:
    /// resending two cells costs about what another rectangle's header and cursor move do,
    /// and fewer rectangles stay under `maxDamageRects`.
    static let spanJoinGap = 2

    /// True when the next `takeFrame` has something to send.
    public var isDamaged: Bool {
        tracker.isPending && (tracker.isForced || !damage.isEmpty)
    }

    /// The regions that differ from what the last `takeFrame` sent, in surface coordinates:
    /// per-row spans of differing cells, widened so no wide character is split, rows with
    /// the same span stacked into one rectangle; their union once there are more than
    /// `maxDamageRects`. After `resize` or `damageAll`, the whole surface.
    public var damage: [Rect] {
        guard tracker.isPending else { return [] }
        let rects = tracker.rects { y, candidates in changedSpans(row: y, candidates) }
        guard rects.count > Self.maxDamageRects else { return rects }
        var union = rects.reduce(Rect.zero) { $0.union($1) }
        // The union's edges pass through rows that were not damaged there and may cut a
        // wide character in two; one cell out on either side always clears it.
        var left = union.minX
        var right = union.maxX
        for y in union.minY..<union.maxY {
            let widenedRow = widened(union.minX..<union.maxX, row: y)
            left = min(left, widenedRow.lowerBound)
            right = max(right, widenedRow.upperBound)
        }
        union = Rect(x: left, y: union.minY, width: right - left, height: union.height)
        return [union]
    }

    /// The rows with a cell that differs from what the last call (or the last frame)
    /// saw, as one range from the first to the last, or nil when none does; then saw them.
    /// For a surface composed into another (a window's layers) rather than sent as
    /// frames: the composition redraws only these rows while its layers stay where they
    /// were. Only cells written since are compared, so a view cleared and drawn again as
    /// it was — a border under a changed label — costs a compare, not a row.
    public mutating func takeChangedRows() -> Range<Int>? {
        guard tracker.isPending else { return nil }
        var first = -1
        var last = -1
        for y in tracker.rows.indices where !tracker.rows[y].isEmpty {
            let rowStart = y * size.width
            var changed = tracker.isForced
            for span in tracker.rows[y] {
                for x in span where cells[rowStart + x] != sentCells[rowStart + x] {
                    sentCells[rowStart + x] = cells[rowStart + x]
                    changed = true
                }
            }
            if changed {
                if first < 0 { first = y }
                last = y
            }
        }
        tracker.clear()
        return first < 0 ? nil : first..<(last + 1)
    }

    /// The damage since the last call (or the last frame), narrowed to the cells that
    /// differ, as per-row spans of whole wide characters; then cleared. After `resize` or
    /// `damageAll`, every cell. For a surface shown rather than sent as frames (the
    /// compositor's screen): the terminal's writer encodes exactly these cells. Spans are
    /// not joined across unchanged cells, as a frame's are: the writer moves its cursor
    /// over them as cheaply as it can.
    public mutating func takeDamage() -> SurfaceDamage {
        guard tracker.isPending else { return SurfaceDamage(size: size) }
        defer { tracker.clear() }
        if tracker.isForced {
            sentCells = cells
            return .all(size)
        }
        var rows = [[Range<Int>]](repeating: [], count: size.height)
        for y in tracker.rows.indices where !tracker.rows[y].isEmpty {
            let spans = changedSpans(row: y, tracker.rows[y], joinGap: 0, compacting: false)
            let rowStart = y * size.width
            for span in spans {
                sentCells.replaceSubrange((rowStart + span.lowerBound)..<(rowStart + span.upperBound),
                    with: cells[(rowStart + span.lowerBound)..<(rowStart + span.upperBound)])
            }
            rows[y] = spans
        }
        return SurfaceDamage(size: size, spans: rows)
    }

    /// The damage since the last call as a frame numbered `number`, with the cells of each
    /// damaged rectangle, or nil when nothing changed. Clears the damage.
    public mutating func takeFrame(number: UInt32) -> FrameUpdate? {
        guard tracker.isPending else { return nil }
        let rects = damage
        let forced = tracker.isForced
        tracker.clear()
        guard !rects.isEmpty || forced else { return nil }
        var out: [FrameUpdate.Damage] = []
        out.reserveCapacity(rects.count)
        for rect in rects {
            var rectCells: [Cell] = []
            rectCells.reserveCapacity(rect.width * rect.height)
            for y in rect.minY..<rect.maxY {
                let start = y * size.width + rect.minX
                rectCells.append(contentsOf: cells[start..<(start + rect.width)])
                sentCells.replaceSubrange(start..<(start + rect.width), with: cells[start..<(start + rect.width)])
            }
            out.append(FrameUpdate.Damage(rect: CellRect(rect), cells: rectCells))
        }
        return FrameUpdate(number: number, width: UInt16(size.width), height: UInt16(size.height), damage: out)
    }

    /// Applies a frame taken from another surface of the same size, recording the cells it
    /// changes as damage here (a compositor's screen passes them on).
    ///
    /// A frame is atomic: a bad one throws `SurfaceError` and leaves the surface as it was,
    /// its damage included. Checked: the size matches; every
    /// rectangle is inside the surface and has exactly its area in cells; every scalar is
    /// drawable (a continuation marker or a character taking one or two columns); and, in
    /// the surface as it would be, every continuation cell follows a wide character and
    /// every wide character is followed by one.
    ///
    /// Without `recordingDamage`, the changed cells are not marked: for a surface whose
    /// damage nothing takes (the compositor's copy of a controller's, which knows a frame's
    /// damage from the frame), where marks would only pile up.
    public mutating func apply(_ frame: FrameUpdate, recordingDamage: Bool = true) throws {
        let f = frame.number
        guard Int(frame.width) == size.width, Int(frame.height) == size.height else {
            throw SurfaceError("frame \(f) is \(frame.width)×\(frame.height), the surface is \(size)")
        }
        var area = 0
        for (n, d) in frame.damage.enumerated() {
            let r = Rect(d.rect)
            guard r.minX >= 0, r.minY >= 0, r.maxX <= size.width, r.maxY <= size.height else {
                throw SurfaceError("frame \(f): damage \(n) at \(r) is outside the \(size) surface")
            }
            guard d.cells.count == d.rect.area else {
                throw SurfaceError("frame \(f): damage \(n) at \(r) has \(d.cells.count) cells, needs \(d.rect.area)")
            }
            if let k = d.cells.firstIndex(where: { $0.scalar != Cell.continuation && Self.columns(of: $0.scalar) == 0 }) {
                let (x, y) = (r.minX + k % r.width, r.minY + k / r.width)
                throw SurfaceError(
                    "frame \(f): damage \(n) has \(Self.hex(d.cells[k].scalar)) at (\(x), \(y)), which takes no column")
            }
            area += d.cells.count
        }
        // Written in place, keeping each cell it replaces: a frame whose wide characters do
        // not pair up is taken back, and a good one (nearly all) costs no copy of the
        // surface — a one-row frame used to copy every cell.
        var replaced: [(index: Int, old: Cell)] = []
        replaced.reserveCapacity(area)
        for d in frame.damage {
            let r = Rect(d.rect)
            var k = 0
            for y in r.minY..<r.maxY {
                for i in (y * size.width + r.minX)..<(y * size.width + r.maxX) {
                    let cell = d.cells[k]
                    k += 1
                    replaced.append((i, cells[i]))
                    cells[i] = cell
                }
            }
        }
        do {
            try checkPairs(of: frame)
        } catch {
            for r in replaced.reversed() { cells[r.index] = r.old }
            throw error
        }
        // A cell written more than once changed if any write changed it, which is when
        // any value it held before a write differs from the one it holds now.
        guard recordingDamage else { return }
        for r in replaced where cells[r.index] != r.old { tracker.mark(x: r.index % size.width, y: r.index / size.width) }
    }

    /// After `apply` wrote `frame`: pairs are checked on the result, one column beyond
    /// each rectangle, because a rectangle may complete or break a character whose other
    /// half it does not hold; so the error names the cell, not a rectangle.
    private func checkPairs(of frame: FrameUpdate) throws {
        let f = frame.number
        for d in frame.damage {
            let r = Rect(d.rect)
            for y in r.minY..<r.maxY {
                for x in max(0, r.minX - 1)..<min(size.width, r.maxX + 1) {
                    let i = y * size.width + x
                    if cells[i].scalar == Cell.continuation {
                        guard x > 0, Self.columns(of: cells[i - 1].scalar) == 2 else {
                            throw SurfaceError(
                                "frame \(f) leaves a continuation cell at (\(x), \(y)) not after a wide character")
                        }
                    } else if Self.columns(of: cells[i].scalar) == 2 {
                        guard x + 1 < size.width, cells[i + 1].scalar == Cell.continuation else {
                            throw SurfaceError(
                                "frame \(f) leaves the wide character at (\(x), \(y)) without its continuation cell")
                        }
                    }
                }
            }
        }
    }

    /// The parts of row y's candidate spans whose cells differ from `sentCells` (all of
    /// them when forced), widened over wide characters, joined across gaps of up to
    /// `joinGap` unchanged cells, at most `DamageTracker.maxSpansPerRow` when `compacting`.
    func changedSpans(
        row y: Int, _ candidates: [Range<Int>], joinGap: Int = spanJoinGap, compacting: Bool = true
    ) -> [Range<Int>] {
        let rowStart = y * size.width
        var spans: [Range<Int>] = []
        func add(_ run: Range<Int>) {
            // Widening moves each end by at most one cell, so runs stay in order and only a
            // neighbour can come to touch.
            let wide = widened(run, row: y)
            if let last = spans.last, wide.lowerBound <= last.upperBound + joinGap {
                spans[spans.count - 1] = last.lowerBound..<max(last.upperBound, wide.upperBound)
            } else {
                spans.append(wide)
            }
        }
        for candidate in candidates {
            if tracker.isForced {
                add(candidate)
                continue
            }
            var x = candidate.lowerBound
            while x < candidate.upperBound {
                guard cells[rowStart + x] != sentCells[rowStart + x] else {
                    x += 1
                    continue
                }
                var end = x + 1
                while end < candidate.upperBound && cells[rowStart + end] != sentCells[rowStart + end] {
                    end += 1
                }
                add(x..<end)
                x = end
            }
        }
        if compacting { DamageTracker.compact(&spans) }
        return spans
    }

    /// `span` of row y, grown by one cell at either end that would cut a wide character.
    func widened(_ span: Range<Int>, row y: Int) -> Range<Int> {
        let rowStart = y * size.width
        var lower = span.lowerBound
        var upper = span.upperBound
        if lower > 0, lower < size.width, cells[rowStart + lower].scalar == Cell.continuation {
            lower -= 1
        }
        if upper < size.width, upper > 0, cells[rowStart + upper].scalar == Cell.continuation {
            upper += 1
        }
        return lower..<upper
    }

    /// "U+0301", as error messages name scalars.
    static func hex(_ scalar: UInt32) -> String {
        let digits = String(scalar, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    /// Columns of a cell's scalar; 0 for values that are not Unicode scalars.
    static func columns(of scalar: UInt32) -> Int {
        Unicode.Scalar(scalar).map { CharacterWidth.columns(of: $0) } ?? 0
    }
}
