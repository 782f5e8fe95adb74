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
    public static func compose(_ layers: [Layer], into screen: inout Surface) {
        // Sorting indices by (z, index) is stable whatever sort algorithm the library uses.
        let order = layers.indices.sorted { (layers[$0].z, $0) < (layers[$1].z, $1) }
        let screenClip = screen.clip
        let drawn = layers.map { $0.visible ? $0.drawnRegion.intersection(screenClip) : .zero }
        for (k, i) in order.enumerated() where !drawn[i].isEmpty {
            if order[(k + 1)...].contains(where: { drawn[$0].covers(drawn[i]) }) { continue }
            let layer = layers[i]
            screen.withState(origin: layer.frame.origin, clip: layer.clip.intersection(layer.frame)) { screen in
                screen.blit(layer.surface, at: .zero)
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
