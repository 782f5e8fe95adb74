import TrellisWire
import TrellisCanvas

/// Where a viewport — another controller's root view — sits in the surface of the
/// controller that contains it: what that controller reports to the compositor as
/// the child's placement.
public struct ViewportPlacement: Equatable {
    public var view: View
    /// In the surface's coordinates.
    public var frame: Rect
    /// The part of the surface the child may cover (its ancestors' clipping).
    public var clip: Rect
    /// Drawing order among all the placements of one surface, back to front.
    public var z: Int

    public static func == (a: ViewportPlacement, b: ViewportPlacement) -> Bool {
        a.view === b.view && a.frame == b.frame && a.clip == b.clip && a.z == b.z
    }
}

/// Draws a layout root's domain into a surface, back to front, and reports the
/// viewports it left for other controllers to fill (DESIGN: each controller renders
/// its own subtree and leaves its children's viewports to them).
public enum ViewRenderer {
    /// Redraws `root`'s domain into `surface` (resized to the root's size) and returns
    /// the viewports in z order. Hidden views and their subtrees are neither drawn nor
    /// placed: a hidden viewport is simply absent.
    @discardableResult
    public static func render(_ root: View, into surface: inout Surface) -> [ViewportPlacement] {
        render(root, into: &surface, rows: nil)
    }

    /// `render(_:into:)` for a surface kept between frames, which holds `root`'s domain as
    /// drawn at `drawnAt` (a `displayGeneration`; nil: nothing known). When no view of the
    /// domain moved since and that was the last such render, only the rows that asked to be
    /// redrawn are: cleared and drawn again whole, every view over them in order, so each
    /// cell comes out as a full render draws it — whole rows, so no clip edge cuts a wide
    /// character. One surface per domain is tracked this way (a controller's own); a
    /// render into any other surface leaves the tracking alone.
    @discardableResult
    public static func render(_ root: View, into surface: inout Surface, drawnAt: UInt64?) -> [ViewportPlacement] {
        var rows: Range<Int>? = nil
        if let drawnAt, drawnAt == root.redrawBase, !root.redrawAll, surface.size == root.bounds.size {
            rows = (root.redrawRows ?? 0..<0).clamped(to: 0..<root.bounds.height)
        }
        root.redrawBase = root.displayGeneration
        root.redrawAll = false
        root.redrawRows = nil
        return render(root, into: &surface, rows: rows)
    }

    /// Draws the domain over `rows` of the surface (nil: all of it).
    private static func render(_ root: View, into surface: inout Surface, rows: Range<Int>?) -> [ViewportPlacement] {
        if surface.size != root.bounds.size { surface.resize(to: root.bounds.size) }
        var placements: [ViewportPlacement] = []
        let all = Rect(origin: .zero, size: root.bounds.size)
        let band = rows.map { Rect(x: 0, y: $0.lowerBound, width: all.width, height: $0.count) } ?? all
        surface.withState(origin: .zero, clip: band) { s in
            s.fill(band, with: .plain)
        }
        draw(root, at: Point(x: -root.bounds.minX, y: -root.bounds.minY), clip: all, band: band, into: &surface, isRoot: true, &placements)
        root.subtreeNeedsDisplay = false
        return placements
    }

    /// The viewports `render` would return for `root`, without drawing anything: for a
    /// caller whose surface already holds the domain as drawn at its current
    /// `displayGeneration`. Viewports are still walked for, because a child's placement can
    /// change (its frame, an animation) without anything in this domain being redrawn.
    public static func placements(of root: View) -> [ViewportPlacement] {
        var placements: [ViewportPlacement] = []
        var none = Surface(size: .zero)
        let all = Rect(origin: .zero, size: root.bounds.size)
        draw(root, at: Point(x: -root.bounds.minX, y: -root.bounds.minY), clip: all, band: all, into: &none, isRoot: true, drawing: false, &placements)
        return placements
    }

    /// `origin` is where the view's bounds coordinate (0, 0) falls in the surface.
    private static func draw(
        _ view: View, at origin: Point, clip: Rect, band: Rect, into surface: inout Surface, isRoot: Bool, drawing: Bool = true,
        _ placements: inout [ViewportPlacement]
    ) {
        guard !view.isHidden else { return }
        let own = Rect(origin: origin + view.bounds.origin, size: view.bounds.size)
        if !isRoot, view.hasOwner {
            placements.append(ViewportPlacement(view: view, frame: own, clip: clip, z: placements.count))
            return
        }
        let visible = clip.intersection(own)
        let drawn = visible.intersection(band)
        if drawing, !drawn.isEmpty {
            surface.withState(origin: origin, clip: drawn) { s in view.draw(in: &s) }
        }
        let childClip = view.clipsToBounds ? visible : clip
        for sub in view.subviews {
            let subOrigin = origin + sub.frame.origin - sub.bounds.origin
            draw(sub, at: subOrigin, clip: childClip, band: band, into: &surface, isRoot: false, drawing: drawing, &placements)
        }
        if drawing, !drawn.isEmpty {
            surface.withState(origin: origin, clip: drawn) { s in view.drawOverSubviews(in: &s) }
        }
    }
}
