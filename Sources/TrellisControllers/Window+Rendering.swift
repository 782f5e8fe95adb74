import TrellisCanvas
import TrellisLog
import TrellisViews
import TrellisWire

/// Each controller's surface redrawn from its view tree only when its domain asked to be.
extension Window {
    struct DrawnSurface {
        /// Weak, so an entry can never vouch for a different controller or view that
        /// happens to be allocated where a freed one was.
        weak var controller: ViewController?
        weak var view: View?
        var generation: UInt64
    }

    /// Redraws `root`'s domain into `surface` when anything in it asked to be redrawn since
    /// `drawn` (the generation it was last drawn at into this same surface), or the size
    /// changed; otherwise the surface already holds it and only the viewports are walked.
    /// Each host recomposes its window for every frame, and most of its controllers have
    /// not changed: redrawing them is a whole-surface clear and draw to arrive at the
    /// cells they already hold.
    func renderIfNeeded(_ root: View, into surface: inout Surface, drawn: inout UInt64?) -> [ViewportPlacement] {
        redrawIfNeeded(root, into: &surface, drawn: &drawn) ?? ViewRenderer.placements(of: root)
    }

    /// `renderIfNeeded` for a caller that knows the viewports already: returns them only
    /// when it drew (drawing finds them anyway), nil when the surface held the domain.
    @discardableResult
    func redrawIfNeeded(_ root: View, into surface: inout Surface, drawn: inout UInt64?) -> [ViewportPlacement]? {
        // Read before drawing: a view that asks for display while being drawn is drawn
        // again next time rather than lost.
        let generation = root.displayGeneration
        if drawn == generation, surface.size == root.bounds.size { return nil }
        let placements = ViewRenderer.render(root, into: &surface, drawnAt: drawn)
        drawn = generation
        return placements
    }

    /// Redraws `child`'s surface if its domain asked to be, for a kept layer; returns the
    /// rows that changed since they were last taken.
    func redrawSurface(of child: ViewController) -> Range<Int>? {
        let key = ObjectIdentifier(child)
        let view = child.view
        var generation = drawn[key].flatMap { $0.controller === child && $0.view === view ? $0.generation : nil }
        if redrawIfNeeded(view, into: &child.surface, drawn: &generation) != nil {
            drawn[key] = DrawnSurface(controller: child, view: view, generation: generation!)
        }
        return child.surface.takeChangedRows()
    }

    /// Carries into the next composition what is known of each controller still alive that
    /// this one did not reach — a tab not selected, a child whose viewport is hidden: its
    /// surface still holds its domain as drawn at that generation, so, back unchanged, it
    /// is not drawn again (a tab switch brought back every tab's surface whole, issue 20).
    /// A controller freed is forgotten: its entry could never match again.
    func keepDrawnOfAbsentControllers() {
        for (key, entry) in drawn where drawnNext[key] == nil && entry.controller != nil {
            drawnNext[key] = entry
        }
    }

    /// Redraws `child`'s own surface from its view tree if its domain changed; returns its
    /// children's viewports.
    func renderSurface(of child: ViewController, takingChangedRows: Bool) -> (placements: [ViewportPlacement], changedRows: Range<Int>?) {
        let key = ObjectIdentifier(child)
        let view = child.view
        var generation = drawn[key].flatMap { $0.controller === child && $0.view === view ? $0.generation : nil }
        let placements = renderIfNeeded(view, into: &child.surface, drawn: &generation)
        drawnNext[key] = DrawnSurface(controller: child, view: view, generation: generation!)
        return (placements, takingChangedRows ? child.surface.takeChangedRows() : nil)
    }
}
