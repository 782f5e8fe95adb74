/// One surface as placed on a screen: what the compositor keeps per controller, from its
/// `Placement` and its latest frames.
public struct Layer: Sendable {
    public var surface: Surface
    /// Where the surface's top-left cell goes, in screen coordinates. Cells of the surface
    /// beyond the frame's size are not shown; frame area the surface does not cover is left
    /// as the layers below drew it.
    public var frame: Rect
    /// The part of the screen this layer may draw on, in screen coordinates (a container
    /// clips its children to itself).
    public var clip: Rect
    /// Higher draws later, over lower; equal z draws in array order.
    public var z: Int
    public var visible: Bool

    /// A layer clipped to `clip`, or to its own frame when `clip` is nil.
    public init(surface: Surface, frame: Rect, clip: Rect? = nil, z: Int = 0, visible: Bool = true) {
        self.surface = surface
        self.frame = frame
        self.clip = clip ?? frame
        self.z = z
        self.visible = visible
    }
}

/// Draws layers onto a screen surface: the compositor's one drawing operation.
public enum Composition {
    /// Draws the visible `layers` into `screen` in ascending z, equal z in array order, each
    /// limited to its clip, its frame and the screen's own clip (so a compositor can redraw
    /// just a damaged region by narrowing it).
    ///
    /// Wide characters follow the surface rules: one cut by a layer's clip edge is drawn as a
    /// space, and a layer covering half of a lower layer's wide character blanks the other
    /// half. Cells that end up different become the screen's damage.
    ///
    /// A layer that a layer drawn after it covers whole, where the screen's clip lets it
    /// draw, is not drawn: every cell it would write is written again, and the only cells
    /// beyond it that it could change — the other halves of lower wide characters its edges
    /// cut — are, at each edge, either inside the covering layer too or cut by the same edge
    /// of it. A host whose controllers' views fill one another (a leaf in its parent's proxy
    /// in its window) composes one layer of three.
    ///
    /// By the same argument, row by row: the rows of a layer that one drawn after it spans
    /// from edge to edge are not drawn (wide characters never span rows). A root with a
    /// tab's surface over all but its last rows draws only those rows, so a tab switch
    /// copies the new tab's cells once rather than the root's blanks over the old tab first.
    public static func compose(_ layers: [Layer], into screen: inout Surface) {
        // Sorting indices by (z, index) is stable whatever sort algorithm the library uses.
        let order = layers.indices.sorted { (layers[$0].z, $0) < (layers[$1].z, $1) }
        let screenClip = screen.clip
        let drawn = layers.map { $0.visible ? $0.drawnRegion.intersection(screenClip) : .zero }
        for (k, i) in order.enumerated() where !drawn[i].isEmpty {
            let above = order[(k + 1)...]
            if above.contains(where: { drawn[$0].covers(drawn[i]) }) { continue }
            let layer = layers[i]
            let clip = layer.clip.intersection(layer.frame)
            let rows = drawn[i].minY..<drawn[i].maxY
            // The rows layers above span from edge to edge; usually none (no array made).
            func spanned(_ j: Int) -> Range<Int>? {
                let d = drawn[j]
                guard d.minX <= drawn[i].minX, d.maxX >= drawn[i].maxX else { return nil }
                let r = rows.clamped(to: d.minY..<max(d.minY, d.maxY))
                return r.isEmpty ? nil : r
            }
            guard above.contains(where: { spanned($0) != nil }) else {
                screen.withState(origin: layer.frame.origin, clip: clip) { screen in
                    screen.blit(layer.surface, at: .zero)
                }
                continue
            }
            let covered = above.compactMap(spanned).sorted { $0.lowerBound < $1.lowerBound }
            var y = rows.lowerBound
            for next in covered + [rows.upperBound..<rows.upperBound] {
                if y < next.lowerBound {
                    let shown = Rect(x: clip.minX, y: y, width: clip.width, height: next.lowerBound - y)
                    screen.withState(origin: layer.frame.origin, clip: clip.intersection(shown)) { screen in
                        screen.blit(layer.surface, at: .zero)
                    }
                }
                y = max(y, next.upperBound)
            }
        }
    }
}

extension Layer {
    /// The screen cells this layer draws on: its clip, its frame, and the part of the
    /// frame its surface covers (the rest shows what lies below).
    var drawnRegion: Rect {
        clip.intersection(frame).intersection(Rect(origin: frame.origin, size: surface.size))
    }
}

extension Layer {
    /// The screen rows on which rows `rows` of the layer's surface show, through its frame
    /// and clip; nil when none do.
    public func screenRows(_ rows: Range<Int>) -> Range<Int>? {
        let shown = clip.intersection(frame)
        let lower = max(frame.minY + rows.lowerBound, shown.minY)
        let upper = min(frame.minY + rows.upperBound, shown.maxY)
        return lower < upper ? lower..<upper : nil
    }
}

extension Composition {
    /// `compose(_:into:)` again over only the screen rows marked in `rows` (one flag per
    /// screen row), a run of marked rows at a time: for a screen that holds the last
    /// composition of the same layers, standing where they stood, when only some rows of
    /// their surfaces changed. Whole rows, so no clip edge cuts a wide character that a
    /// full composition would draw whole.
    public static func compose(_ layers: [Layer], into screen: inout Surface, rows: [Bool]) {
        let savedClip = screen.clip
        var y = 0
        while y < rows.count {
            guard rows[y] else {
                y += 1
                continue
            }
            var end = y + 1
            while end < rows.count && rows[end] { end += 1 }
            screen.clip = Rect(x: 0, y: y, width: screen.size.width, height: end - y)
            compose(layers, into: &screen)
            y = end
        }
        screen.clip = savedClip
    }
}
