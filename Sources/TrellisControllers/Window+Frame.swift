import TrellisCanvas
import TrellisLog
import TrellisViews
import TrellisWire

/// The window's screen: composition, and the frame a host sends, composed into a kept
/// screen that holds what the last frame showed.
extension Window {
    /// Lays out, renders every controller's surface and composes them as the compositor
    /// would: each child's surface at its viewport's (presentation) frame, clipped by its
    /// ancestors, above its parent.
    public func compose() -> Surface {
        var screen = Surface(size: size)
        compose(into: &screen)
        return screen
    }

    /// `compose()` drawn over `screen`, a surface of the window's size, which then holds
    /// the same cells — the window's own layer covers every cell — with only the cells that
    /// changed marked as its damage. A host composes into the copy it sends frames from,
    /// rather than into a new surface it would then copy over that one.
    public func compose(into screen: inout Surface) {
        precondition(screen.size == size, "composing a \(size) window into a \(screen.size) surface")
        Composition.compose(arrange(takingChangedRows: false).layers, into: &screen)
        logArrangedPlacements()
    }

    /// The next frame a host sends of this window, numbered `number`: the cells that
    /// changed since the last one, or nil when none did.
    ///
    /// The window composes into a screen it keeps, which holds what the last frame
    /// showed. While every layer stays where it was (same surfaces, places, clips, order
    /// and sizes), only the rows where its layers' surfaces changed since are composed
    /// again — whole rows, so no clip edge cuts a wide character that a full composition
    /// would draw whole; a label's change recomposes one row, not the window. Any other
    /// change composes everything. Either way the screen ends up as `compose()` draws it.
    ///
    /// While no view moved (`ViewTree.arrangementChanges` stayed, after layout) and no
    /// animation ran, the layers are the ones the last frame composed, in the same places:
    /// they are kept, and only the domains that asked to be redrawn are, without walking
    /// the tree for viewports again — the work a label's change costs its host before the
    /// frame goes out, even when the label asked for layout (its new text as wide as the
    /// old moves nothing).
    public func takeFrame(number: UInt32) -> FrameUpdate? {
        // Only this frame's: a frame that arranges nothing lifts and declares nothing.
        liftedFrames = []
        declarations = []
        // Nothing asked for layout or display since the last frame was composed (a
        // container's host answering a touch it only passed on): nothing to compose.
        if framed.size == size, framedPlaces != nil, framedAt == tree.changes, !animating, !animator.isInterpolating,
            framedAnimatorAt == animator.changes, !animator.hasUndeclared
        {
            return nil
        }
        // Read before composing: a view that asks again while being drawn is composed again.
        framedAt = tree.changes
        // Lifted layers are not among the kept ones: while any is, every frame arranges.
        let animated = animating || animator.isInterpolating || framedAnimatorAt != animator.changes
            || animator.hasUndeclared || !liftedSurfaces.isEmpty
        animating = animator.isInterpolating
        framedAnimatorAt = animator.changes
        if framed.size != size {
            // A receiver resizes its copy, and needs every cell of the new size.
            framed = Surface(size: size)
            framed.damageAll()
            framedPlaces = nil
        }
        // Laid out first: what only asked for layout may have moved nothing.
        rootView.layoutIfNeeded()
        if !animated, let places = framedPlaces, let kept = framedOwners, kept.at == tree.arrangementChanges,
            let arrangement = redraw(places, owners: kept.owners)
        {
            Composition.compose(arrangement.layers, into: &framed, rows: arrangement.changedRows)
            return framed.takeFrame(number: number)
        }
        // Read before arranging: layout during it may move things, and then the next frame
        // arranges again rather than trusting what this one found.
        let at = tree.arrangementChanges
        let arrangement = arrange(takingChangedRows: true)
        if arrangement.places == framedPlaces {
            Composition.compose(arrangement.layers, into: &framed, rows: arrangement.changedRows)
        } else {
            Composition.compose(arrangement.layers, into: &framed)
            framedPlaces = arrangement.places
        }
        framedOwners = (at, arrangement.owners.map { WeakController(controller: $0) })
        return framed.takeFrame(number: number)
    }

    /// Makes the next `takeFrame` carry every cell, as the first one does: for a receiver
    /// that lost what the frames before built up (a restarted compositor).
    public func forgetFramedSurface() {
        framed = Surface(size: .zero)
        framedPlaces = nil
        liftedSurfaces = [:]
    }

    /// Weak: a controller gone from the tree is not kept alive by its last frame.
    struct WeakController {
        weak var controller: ViewController?
    }

    /// The layers at `places`, each domain that asked to be redrawn since drawn again into
    /// its surface, with the rows that changed; nil when a controller of them is gone.
    func redraw(_ places: [LayerPlace], owners: [WeakController]) -> Arrangement? {
        var arrangement = Arrangement(height: size.height)
        for (z, (place, owner)) in zip(places, owners).enumerated() {
            if place.owner == nil {
                redrawIfNeeded(rootView, into: &own, drawn: &ownDrawn)
                arrangement.add(
                    Layer(surface: own, frame: place.frame, clip: place.clip, z: z, visible: true), owner: nil,
                    changedRows: own.takeChangedRows())
            } else {
                guard let child = owner.controller else { return nil }
                let rows = redrawSurface(of: child)
                arrangement.add(
                    Layer(surface: child.surface, frame: place.frame, clip: place.clip, z: z, visible: true), owner: child,
                    changedRows: rows)
            }
        }
        return arrangement
    }

    /// The layers of one composition, and what a frame needs to know of them.
    struct Arrangement {
        var layers: [Layer] = []
        var places: [LayerPlace] = []
        /// Whose surface each layer is (nil: the window's own).
        var owners: [ViewController?] = []
        /// Per screen row: whether a layer's surface changed there since its changes were
        /// last taken (only when taken).
        var changedRows: [Bool]

        init(height: Int) { changedRows = Array(repeating: false, count: height) }

        mutating func add(_ layer: Layer, owner: ViewController?, changedRows rows: Range<Int>?) {
            layers.append(layer)
            owners.append(owner)
            places.append(LayerPlace(owner: owner.map(ObjectIdentifier.init), frame: layer.frame, clip: layer.clip, size: layer.surface.size))
            guard let rows, let shown = layer.screenRows(rows)?.clamped(to: 0..<changedRows.count) else { return }
            for y in shown { changedRows[y] = true }
        }
    }

    /// A layer's surface (nil: the window's own), and where it went.
    struct LayerPlace: Equatable {
        let owner: ObjectIdentifier?
        let frame: Rect
        let clip: Rect
        let size: Size
    }

    /// Lays out, renders what changed and lists the layers, bottom first; logs placement
    /// changes and notes where remote children go. `takingChangedRows`: take each
    /// surface's changed rows (see `Surface.takeChangedRows`), which only `takeFrame`,
    /// whose screen is kept, may do.
    func arrange(takingChangedRows: Bool) -> Arrangement {
        // The last arrangement's lines first: each is logged against the one before it.
        logArrangedPlacements()
        rootView.layoutIfNeeded()
        var arrangement = Arrangement(height: size.height)
        let top = renderIfNeeded(rootView, into: &own, drawn: &ownDrawn)
        let ownRows = takingChangedRows ? own.takeChangedRows() : nil
        let whole = Rect(origin: .zero, size: size)
        arrangement.add(Layer(surface: own, frame: whole, clip: whole, z: 0, visible: true), owner: nil, changedRows: ownRows)
        var placed: [ControllerID: (String, Placement)] = [:]
        remote = []
        liftedFrames = []
        declarations = []
        // Only the frames a host sends lift layers and declare motions: `compose()` draws
        // everything where the model has it.
        let forCompositor = takingChangedRows && animator.presentsElsewhere
        collect(
            top, by: "window", offset: .zero, clip: whole, takingChangedRows: takingChangedRows,
            lifting: forCompositor ? .top : .never, into: &arrangement, &placed)
        keepDrawnOfAbsentControllers()
        swap(&drawn, &drawnNext)
        drawnNext.removeAll(keepingCapacity: true)
        if forCompositor {
            swap(&liftedSurfaces, &liftedNext)
            liftedNext.removeAll(keepingCapacity: true)
            animator.declared(Dictionary(declarations.map { ($0.group, 1) }, uniquingKeysWith: +))
        }
        // Logged by whoever sends the frame, once it is sent (`logArrangedPlacements`).
        arrangedPlacements = placed
        remotePlacements = remote
        return arrangement
    }

    /// The composed screen as text, rows joined by newlines.
    public var screenText: String { compose().text }
}
