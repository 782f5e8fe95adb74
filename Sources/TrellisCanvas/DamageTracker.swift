// Which cells of a surface changed since the last frame, kept as sorted column spans per
// row. Spans are cheap to extend as text is written left to right, and rows with the same
// span stack into one rectangle, so a changed box comes out as one rectangle and a border
// as four rather than as one covering its whole inside.

/// Changed cells since the last frame, per row. Internal: `Surface` exposes the rectangles.
struct DamageTracker: Sendable {
    /// Beyond this many spans in a row the two closest merge: a few unchanged cells resent
    /// cost less than another rectangle header and the bookkeeping to keep it.
    static let maxSpansPerRow = 8

    /// Sorted, disjoint, non-adjacent column ranges per row.
    private(set) var rows: [[Range<Int>]]
    /// True when the next frame must be sent even with no cells in it (a resize to zero area).
    private(set) var isPending = false

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

    mutating func markAll(width: Int) {
        isPending = true
        guard width > 0 else { return }
        for y in rows.indices {
            rows[y] = [0..<width]
        }
    }

    mutating func clear() {
        isPending = false
        for y in rows.indices where !rows[y].isEmpty {
            rows[y].removeAll(keepingCapacity: true)
        }
    }

    /// The damage as rectangles: each row's spans passed through `widen` (the surface
    /// grows them over wide characters), then rows with identical spans stacked.
    func rects(widen: (_ y: Int, _ span: Range<Int>) -> Range<Int>) -> [Rect] {
        var rects: [Rect] = []
        var openRect: [Range<Int>: Int] = [:]
        var spans: [Range<Int>] = []
        for y in rows.indices where !rows[y].isEmpty {
            spans.removeAll(keepingCapacity: true)
            for span in rows[y] {
                // Widening moves each end by at most one cell, so order is kept and only
                // neighbours can come to touch.
                let wide = widen(y, span)
                if let last = spans.last, wide.lowerBound <= last.upperBound {
                    spans[spans.count - 1] = last.lowerBound..<max(last.upperBound, wide.upperBound)
                } else {
                    spans.append(wide)
                }
            }
            for span in spans {
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
        // Text is written left to right, so the common case extends or follows the last span.
        if let last = spans.last, span.lowerBound >= last.lowerBound {
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

    private static func compact(_ spans: inout [Range<Int>]) {
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
