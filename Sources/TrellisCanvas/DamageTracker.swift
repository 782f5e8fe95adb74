// Which cells of a surface may have changed since the last frame, kept as sorted column
// spans per row. Spans are cheap to extend as text is written left to right, and rows
// with the same span stack into one rectangle, so a changed box comes out as one
// rectangle and a border as four rather than as one covering its whole inside.
//
// Spans are candidates: a cell cleared and then redrawn as it was is in a span but has not
// changed. The surface narrows them against what it last sent before they become rects.

/// Cells written since the last frame, per row. Internal: `Surface` exposes the rectangles.
struct DamageTracker: Sendable {
    /// Beyond this many spans in a row the two closest merge: a few unchanged cells resent
    /// cost less than another rectangle header and the bookkeeping to keep it.
    static let maxSpansPerRow = 8

    /// Sorted, disjoint, non-adjacent column ranges per row.
    private(set) var rows: [[Range<Int>]]
    /// True once anything was marked since the last `clear`.
    private(set) var isPending = false
    /// True when the whole surface goes out whatever the receiver has (a resize, a receiver
    /// that lost its copy), and a frame goes out even with no cells in it (a resize to zero area).
    private(set) var isForced = false

    init(height: Int) {
        rows = Array(repeating: [], count: height)
    }

    mutating func mark(x: Int, y: Int) {
        mark(row: y, x..<(x + 1))
    }

    mutating func mark(row y: Int, _ span: Range<Int>) {
        guard !span.isEmpty else { return }
        isPending = true
        Self.insert(span, into: &rows[y])
    }

    mutating func markAll(width: Int, force: Bool) {
        isPending = true
        isForced = isForced || force
        guard width > 0 else { return }
        for y in rows.indices {
            rows[y] = [0..<width]
        }
    }

    mutating func clear() {
        isPending = false
        isForced = false
        for y in rows.indices where !rows[y].isEmpty {
            rows[y].removeAll(keepingCapacity: true)
        }
    }

    /// The damage as rectangles: each row's spans passed through `refine` (the surface
    /// narrows them to cells that differ and grows them over wide characters; it must
    /// return sorted, disjoint spans), then rows with identical spans stacked.
    func rects(refine: (_ y: Int, _ spans: [Range<Int>]) -> [Range<Int>]) -> [Rect] {
        var rects: [Rect] = []
        var openRect: [Range<Int>: Int] = [:]
        for y in rows.indices where !rows[y].isEmpty {
            for span in refine(y, rows[y]) {
                if let i = openRect[span], rects[i].maxY == y {
                    rects[i].size.height += 1
                } else {
                    openRect[span] = rects.count
                    rects.append(Rect(x: span.lowerBound, y: y, width: span.count, height: 1))
                }
            }
        }
        return rects
    }

    private static func insert(_ span: Range<Int>, into spans: inout [Range<Int>]) {
        // A row's first span since `clear`: kept in the row's own storage, not merged
        // into a new array (a compose marks each row it changes once per layer).
        guard let last = spans.last else { return spans.append(span) }
        // Text is written left to right, so the common case extends or follows the last span.
        if span.lowerBound >= last.lowerBound {
            if span.lowerBound <= last.upperBound {
                if span.upperBound > last.upperBound {
                    spans[spans.count - 1] = last.lowerBound..<span.upperBound
                }
            } else {
                spans.append(span)
                compact(&spans)
            }
            return
        }
        var low = span.lowerBound
        var high = span.upperBound
        var merged: [Range<Int>] = []
        merged.reserveCapacity(spans.count + 1)
        var placed = false
        for existing in spans {
            if existing.upperBound < low {
                merged.append(existing)
            } else if existing.lowerBound > high {
                if !placed {
                    merged.append(low..<high)
                    placed = true
                }
                merged.append(existing)
            } else {
                low = min(low, existing.lowerBound)
                high = max(high, existing.upperBound)
            }
        }
        if !placed { merged.append(low..<high) }
        spans = merged
        compact(&spans)
    }

    /// Merges the closest neighbours until at most `maxSpansPerRow` spans are left.
    static func compact(_ spans: inout [Range<Int>]) {
        while spans.count > maxSpansPerRow {
            var best = 0
            var bestGap = Int.max
            for i in 0..<(spans.count - 1) {
                let gap = spans[i + 1].lowerBound - spans[i].upperBound
                if gap < bestGap {
                    bestGap = gap
                    best = i
                }
            }
            spans[best] = spans[best].lowerBound..<spans[best + 1].upperBound
            spans.remove(at: best + 1)
        }
    }
}
