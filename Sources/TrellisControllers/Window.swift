import TrellisCanvas
import TrellisLog
import TrellisViews
import TrellisWire

/// The top of a controller tree in one process: the screen size, the traits that
/// follow from it, the root controller's appearance, input at the root, and the
/// composition of every in-process controller's surface into one screen.
///
/// In a host process the compositor plays this part for the root (issue 4); in tests and
/// in single-process apps the window does, with the same messages.
@MainActor
public final class Window {
    /// Fills the screen; the root controller's view goes inside it.
    public let rootView: View
    public private(set) var size: Size
    /// The non-size traits of the terminal (size classes come from `size`).
    public var environment = TraitCollection(.terminalEnvironment)
    public let animator = Animator()
    /// Every message the in-process tree delivers is logged here, as a link logs.
    public let log: RoutingLog
    public let host: String
    /// Sees every routing record too; for tests and the `tree` command.
    public var observer: (@MainActor (RoutingRecord) -> Void)?
    /// Hears the active key commands each time they may have changed
    /// (`refreshKeyCommandFooters`); a host that is a child tells its parent from here.
    public var keyCommandsObserver: (@MainActor ([KeyCommand.Summary]) -> Void)?
    /// Sends what the tree shows now, before the handling under way ends; set by a host
    /// (its frame goes to the compositor at once), nil where the screen is composed when
    /// asked (tests, one process). See `showLaidOutTree()`.
    public var showsNow: (@MainActor () -> Void)?

    public init(size: Size, log: RoutingLog = .disabled, host: String = "app") {
        self.size = size
        self.log = log
        self.host = host
        let top = WindowRootView(frame: Rect(origin: .zero, size: size))
        rootView = top
        top.window = self
    }

    public var rootViewController: ViewController? {
        didSet {
            guard oldValue !== rootViewController else { return }
            if let old = oldValue {
                if old.appearanceState == .appeared || old.appearanceState == .appearing {
                    old.beginAppearanceTransition(false, animated: false)
                    old.endAppearanceTransition()
                }
                old.viewIfLoaded?.removeFromSuperview()
                old.hostingWindow = nil
                old.formerWindow = self
            }
            guard let root = rootViewController else { return }
            precondition(root.parent == nil, "the root controller \(root.id) has a parent")
            root.hostingWindow = self
            guard drivesRoot else { return }
            root.applyTraits(traits)
            if isVisible { show(root) }
        }
    }

    public private(set) var isVisible = false

    /// False in a host process: the real parent (or, for the root, the compositor), in
    /// another process, sends the traits, the appearance and the size; the window only
    /// holds the tree, lays it out, logs and composes.
    public private(set) var drivesRoot = true

    /// Makes `root` the root without appearance or traits of its own (see `drivesRoot`):
    /// a `ParentProxy`, or the root controller in the root's host. Its view goes in with
    /// `installRootView`, when the first message that needs it arrives.
    public func host(_ root: ViewController) {
        drivesRoot = false
        rootViewController = root
    }

    /// Puts the root controller's view into the window, sized to it, if not there yet.
    public func installRootView() {
        guard let root = rootViewController, root.viewIfLoaded?.superview !== rootView else { return }
        root.view.frame = rootView.bounds
        rootView.addSubview(root.view)
    }

    /// Shows the root controller: its view fills the window, then it appears
    /// (`viewWillAppear` … `viewDidAppear`, forwarded down the tree).
    public func makeKeyAndVisible() {
        guard !isVisible else { return }
        isVisible = true
        if let root = rootViewController { show(root) }
        refreshKeyCommandFooters()
    }

    private func show(_ root: ViewController) {
        // Sized before it appears, as UIKit sizes a root view to its window.
        root.view.frame = rootView.bounds
        route(kind: "appearance", from: "window", to: root.id, outcome: .delivered, reason: nil, detail: "willAppear")
        root.beginAppearanceTransition(true, animated: false)
        rootView.addSubview(root.view)
        rootView.layoutIfNeeded()
        root.endAppearanceTransition()
    }

    /// A container that has put a new child's view in and laid it out calls this before
    /// the dids: the view is on the screen before `viewDidAppear`, as in UIKit, and the
    /// dids' round trips to children in other processes no longer delay it (issue 20: a
    /// tab switch). Nothing changes in the callbacks or their order; the frame sent after
    /// the handling carries only what the dids changed.
    public func showLaidOutTree() {
        showsNow?()
    }

    /// The traits of the whole screen.
    public var traits: TraitCollection { environment.onTerminal(of: size) }

    /// A terminal resize: a size transition at the root (`viewWillTransition(to:with:)`
    /// down the tree), then the traits that follow from the size, then layout, then what
    /// the tree registered to run alongside, then the completions (S0-1, S4-4).
    public func resize(to newSize: Size) {
        guard newSize != size else { return }
        guard size != .zero else {
            // The first size is not a transition: nothing was laid out before it.
            take(newSize)
            return
        }
        let coordinator = beginSizeTransition(to: newSize, duration: 0)
        take(newSize)
        coordinator.runAlongside()
        completeSizeTransition(coordinator)
    }

    /// The first step of a size transition: `viewWillTransition(to:with:)` down the tree,
    /// whose blocks wait on the coordinator returned. A host whose parent is in another
    /// process runs the steps as its parent's transition reaches them (`ChildHost`).
    public func beginSizeTransition(to newSize: Size, duration: Double) -> TransitionCoordinator {
        let coordinator = TransitionCoordinator(size: newSize, duration: duration)
        if let root = rootViewController {
            route(kind: "size", from: "window", to: root.id, outcome: .delivered, reason: nil)
            root.pendingCoordinator = coordinator
            root.viewWillTransition(to: newSize, with: coordinator)
            root.pendingCoordinator = nil
        }
        forwardSizeTransitionToPresentations(newSize, with: coordinator)
        return coordinator
    }

    /// Takes `newSize` and lays the tree out at it, with the traits that follow when this
    /// window drives its root — no transition: a host's viewport resized by its parent's
    /// layout, as an in-process child's frame is.
    public func take(_ newSize: Size) {
        size = newSize
        rootView.frame = Rect(origin: .zero, size: newSize)
        if drivesRoot { rootViewController?.applyTraits(traits); presentationsFollowTraits() }
        rootViewController?.viewIfLoaded?.frame = rootView.bounds
        rootView.layoutIfNeeded()
    }

    /// Runs the blocks registered to run alongside `coordinator`'s transition.
    public func runAlongside(_ coordinator: TransitionCoordinator) { coordinator.runAlongside() }

    /// The last step: layout again, after the alongside blocks, then the completions.
    public func completeSizeTransition(_ coordinator: TransitionCoordinator) {
        rootView.layoutIfNeeded()
        coordinator.complete()
    }

    /// One touch at a screen point, routed from the root down (DESIGN: no shortcut
    /// past the containers). Returns whether anything handled it.
    @discardableResult
    public func touch(_ phase: TouchInput.Phase, at point: Point, pointer: UInt32 = 0) -> Bool {
        // The topmost presented controller, if any, takes the touch (Presentation.swift).
        guard let root = inputController else { return false }
        let input = TouchInput(phase: phase, tapCount: 1, pointer: pointer, x: Int32(point.x), y: Int32(point.y), timestamp: MonotonicClock.nanoseconds())
        route(kind: "touch", from: "window", to: root.id, outcome: .delivered, reason: nil)
        defer { refreshKeyCommandFooters() }
        return routeTouchFromWindow(input)
    }

    /// A tap: began and ended at one point.
    @discardableResult
    public func tap(at point: Point, pointer: UInt32 = 0) -> Bool {
        let began = touch(.began, at: point, pointer: pointer)
        let ended = touch(.ended, at: point, pointer: pointer)
        return began || ended
    }

    /// A memory warning for the whole tree.
    public func simulateMemoryWarning() {
        guard let root = rootViewController else { return }
        route(kind: "memory-warning", from: "window", to: root.id, outcome: .delivered, reason: nil)
        root.didReceiveMemoryWarning()
    }

    /// Runs animation completions that are due.
    @discardableResult
    public func tick() -> Bool { animator.tick() }

    // MARK: Composition

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
    /// While no view asked for layout or moved (`View.arrangementChanges` stayed) and no
    /// animation ran, the layers are the ones the last frame composed, in the same places:
    /// they are kept, and only the domains that asked to be redrawn are, without walking
    /// the tree for viewports again — the work a label's change costs its host before the
    /// frame goes out.
    public func takeFrame(number: UInt32) -> FrameUpdate? {
        // Only this frame's: a frame that arranges nothing lifts and declares nothing.
        liftedFrames = []
        declarations = []
        // Nothing asked for layout or display since the last frame was composed (a
        // container's host answering a touch it only passed on): nothing to compose.
        if framed.size == size, framedPlaces != nil, framedAt == View.changes, !animating, !animator.isInterpolating,
            framedAnimatorAt == animator.changes, !animator.hasUndeclared
        {
            return nil
        }
        // Read before composing: a view that asks again while being drawn is composed again.
        framedAt = View.changes
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
        if !animated, let places = framedPlaces, let kept = framedOwners, kept.at == View.arrangementChanges,
            let arrangement = redraw(places, owners: kept.owners)
        {
            Composition.compose(arrangement.layers, into: &framed, rows: arrangement.changedRows)
            return framed.takeFrame(number: number)
        }
        // Read before arranging: layout during it may move things, and then the next frame
        // arranges again rather than trusting what this one found.
        let at = View.arrangementChanges
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

    /// What `takeFrame` composes into, and where each of its layers was then (which
    /// always describes the last arrangement: a frame that finds them different composes
    /// everything and keeps the new ones).
    private var framed = Surface(size: .zero)
    private var framedPlaces: [LayerPlace]?
    /// Whose surface each of those layers is, and `View.arrangementChanges` when they were
    /// arranged: while the count stands, the next frame reuses them.
    private var framedOwners: (at: UInt64, owners: [WeakController])?

    /// Weak: a controller gone from the tree is not kept alive by its last frame.
    private struct WeakController {
        weak var controller: ViewController?
    }

    /// The layers at `places`, each domain that asked to be redrawn since drawn again into
    /// its surface, with the rows that changed; nil when a controller of them is gone.
    private func redraw(_ places: [LayerPlace], owners: [WeakController]) -> Arrangement? {
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

    /// `View.changes` when the last frame was composed, and whether an animation ran then.
    private var framedAt: UInt64 = 0
    private var animating = false
    /// `animator.changes` when the last frame was composed.
    private var framedAnimatorAt: UInt64 = 0

    // MARK: Animations a compositor shows

    /// With a compositor (`animator.presentsElsewhere`): each in-process child whose
    /// viewport moves in a declared animation is lifted out of this window's surface into
    /// a surface of its own (its subtree composed into it), which the compositor places
    /// and moves; the window's own frame shows what is behind it. Kept between frames so
    /// each lifted frame carries only its changed cells.
    private var liftedSurfaces: [ControllerID: Surface] = [:]
    private var liftedNext: [ControllerID: Surface] = [:]
    /// The frames of the lifted surfaces, taken by `takeFrame` (each names its layer).
    public private(set) var liftedFrames: [FrameUpdate] = []
    /// The motions `takeFrame` found that the compositor has not been told of, in this
    /// window's coordinates (as placements are), each with its `Animator` group.
    public private(set) var declarations: [(group: Int, animation: Animation)] = []

    /// The layers of one composition, and what a frame needs to know of them.
    private struct Arrangement {
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
    private struct LayerPlace: Equatable {
        let owner: ObjectIdentifier?
        let frame: Rect
        let clip: Rect
        let size: Size
    }

    /// Lays out, renders what changed and lists the layers, bottom first; logs placement
    /// changes and notes where remote children go. `takingChangedRows`: take each
    /// surface's changed rows (see `Surface.takeChangedRows`), which only `takeFrame`,
    /// whose screen is kept, may do.
    private func arrange(takingChangedRows: Bool) -> Arrangement {
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
        swap(&drawn, &drawnNext)
        drawnNext.removeAll(keepingCapacity: true)
        if forCompositor {
            swap(&liftedSurfaces, &liftedNext)
            liftedNext.removeAll(keepingCapacity: true)
            animator.declared(Dictionary(declarations.map { ($0.group, 1) }, uniquingKeysWith: +))
        }
        logPlacementChanges(placed)
        remotePlacements = remote
        return arrangement
    }

    /// The window's own layer, kept between compositions (as each controller keeps its
    /// surface): the renderer clears and redraws it whole, so only its buffers carry over,
    /// saving two full-screen allocations a frame.
    private var own = Surface(size: .zero)
    private var ownDrawn: UInt64?

    /// Per controller composed last time: which view its surface was drawn from and at
    /// which `displayGeneration`. Rebuilt each composition, so a controller that leaves the
    /// tree is forgotten and drawn afresh should it come back.
    private var drawn: [ObjectIdentifier: DrawnSurface] = [:]
    private var drawnNext: [ObjectIdentifier: DrawnSurface] = [:]

    private struct DrawnSurface {
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
    private func renderIfNeeded(_ root: View, into surface: inout Surface, drawn: inout UInt64?) -> [ViewportPlacement] {
        redrawIfNeeded(root, into: &surface, drawn: &drawn) ?? ViewRenderer.placements(of: root)
    }

    /// `renderIfNeeded` for a caller that knows the viewports already: returns them only
    /// when it drew (drawing finds them anyway), nil when the surface held the domain.
    @discardableResult
    private func redrawIfNeeded(_ root: View, into surface: inout Surface, drawn: inout UInt64?) -> [ViewportPlacement]? {
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
    private func redrawSurface(of child: ViewController) -> Range<Int>? {
        let key = ObjectIdentifier(child)
        let view = child.view
        var generation = drawn[key].flatMap { $0.controller === child && $0.view === view ? $0.generation : nil }
        if redrawIfNeeded(view, into: &child.surface, drawn: &generation) != nil {
            drawn[key] = DrawnSurface(controller: child, view: view, generation: generation!)
        }
        return child.surface.takeChangedRows()
    }

    /// Redraws `child`'s own surface from its view tree if its domain changed; returns its
    /// children's viewports.
    private func renderSurface(of child: ViewController, takingChangedRows: Bool) -> (placements: [ViewportPlacement], changedRows: Range<Int>?) {
        let key = ObjectIdentifier(child)
        let view = child.view
        var generation = drawn[key].flatMap { $0.controller === child && $0.view === view ? $0.generation : nil }
        let placements = renderIfNeeded(view, into: &child.surface, drawn: &generation)
        drawnNext[key] = DrawnSurface(controller: child, view: view, generation: generation!)
        return (placements, takingChangedRows ? child.surface.takeChangedRows() : nil)
    }

    /// After `compose()`: where the surfaces of children in other processes go, in this
    /// window's coordinates — what this process's host tells the compositor — and, after
    /// `takeFrame` with a compositor, where the layers lifted for an animation go.
    public private(set) var remotePlacements: [Placement] = []
    private var remote: [Placement] = []

    /// Whether `collect` lifts moving in-process children out of the window's surface.
    private enum Lifting {
        /// Not for this composition (an in-process window, or `compose()`).
        case never
        /// Yes: the layers collected go into the window's surface.
        case top
        /// Collecting into a lifted surface whose origin is at this point of the window:
        /// nothing inside is lifted again, and remote children are placed in the window's
        /// coordinates (they do not follow the motion).
        case inside(Point)
    }

    private func collect(
        _ placements: [ViewportPlacement], by container: String, offset: Point, clip: Rect, takingChangedRows: Bool,
        lifting: Lifting, into arrangement: inout Arrangement, _ placed: inout [ControllerID: (String, Placement)]
    ) {
        for p in placements {
            guard let child = p.view.owner as? ViewController else { continue }
            let shown = animator.presentationFrame(of: p.view)
            let frame = p.frame.offsetBy(dx: offset.x + shown.minX - p.view.frame.minX, dy: offset.y + shown.minY - p.view.frame.minY)
            let layerClip = p.clip.offsetBy(dx: offset.x, dy: offset.y).intersection(clip)
            placed[child.id] = (container, Placement(
                surface: child.id, frame: CellRect(p.frame), z: Int32(p.z), clip: CellRect(p.clip), visible: true))
            if case .top = lifting, !(child is RemoteController), animator.isMoving(p.view) {
                lift(child, frame: frame, clip: layerClip, z: arrangement.layers.count, container: container, &placed)
                declare(child, viewport: p.view, frame: frame)
                continue
            }
            let (placements, rows) = renderSurface(of: child, takingChangedRows: takingChangedRows)
            arrangement.add(
                Layer(surface: child.surface, frame: frame, clip: layerClip, z: arrangement.layers.count, visible: true),
                owner: child, changedRows: rows)
            if child is RemoteController {
                // Its content is another process's surface: the compositor places it there,
                // in this window's coordinates, above what this process drew.
                var inWindow = (frame: frame, clip: layerClip)
                if case .inside(let origin) = lifting {
                    inWindow = (frame.offsetBy(dx: origin.x, dy: origin.y), layerClip.offsetBy(dx: origin.x, dy: origin.y))
                }
                remote.append(Placement(
                    surface: child.id, frame: CellRect(inWindow.frame), z: Int32(arrangement.layers.count),
                    clip: CellRect(inWindow.clip), visible: true))
                if case .top = lifting { declare(child, viewport: p.view, frame: frame) }
            }
            collect(
                placements, by: child.id.rawValue, offset: frame.origin, clip: layerClip, takingChangedRows: takingChangedRows,
                lifting: lifting, into: &arrangement, &placed)
        }
    }

    /// Composes `child`'s subtree into a surface of its own and places it where the model
    /// has it, above what this window drew so far (`z`), for the compositor to move.
    private func lift(
        _ child: ViewController, frame: Rect, clip: Rect, z: Int, container: String,
        _ placed: inout [ControllerID: (String, Placement)]
    ) {
        let bounds = Rect(origin: .zero, size: frame.size)
        var layers = Arrangement(height: frame.height)
        let (placements, _) = renderSurface(of: child, takingChangedRows: true)
        layers.add(Layer(surface: child.surface, frame: bounds, clip: bounds, z: 0, visible: true), owner: child, changedRows: nil)
        collect(
            placements, by: child.id.rawValue, offset: .zero, clip: bounds, takingChangedRows: true,
            lifting: .inside(frame.origin), into: &layers, &placed)
        var surface = liftedSurfaces[child.id].flatMap { $0.size == frame.size ? $0 : nil } ?? {
            var fresh = Surface(size: frame.size)
            fresh.damageAll()
            return fresh
        }()
        Composition.compose(layers.layers, into: &surface)
        if var update = surface.takeFrame(number: 0) {
            update.layer = child.id
            liftedFrames.append(update)
        }
        liftedNext[child.id] = surface
        remote.append(Placement(surface: child.id, frame: CellRect(frame), z: Int32(z), clip: CellRect(clip), visible: true))
    }

    /// Notes `viewport`'s motion for the compositor, if it has not been told: from where
    /// it was to `frame` (the model's place, in this window's coordinates).
    private func declare(_ child: ViewController, viewport: View, frame: Rect) {
        guard let m = animator.undeclared(viewport) else { return }
        let from = Rect(
            x: frame.minX + m.from.minX - viewport.frame.minX, y: frame.minY + m.from.minY - viewport.frame.minY,
            width: m.from.width, height: m.from.height)
        declarations.append((m.group, Animation(
            surface: child.id, from: CellRect(from), to: CellRect(frame),
            durationMilliseconds: UInt32((m.duration * 1000).rounded()), curve: m.curve)))
    }

    /// What the containers would send the compositor: a placement line per child whose
    /// place, order or visibility changed since the last composition (S1-4's strategies
    /// show up here: a child brought to the front, a child hidden).
    private func logPlacementChanges(_ placed: [ControllerID: (String, Placement)]) {
        defer { lastPlacements = placed }
        guard log.isEnabled || observer != nil else { return }
        // Every frame comes here, and placements seldom change: sorted (for a stable log)
        // only when one did.
        guard placed.count != lastPlacements.count || placed.contains(where: { lastPlacements[$0.key]?.1 != $0.value.1 })
        else { return }
        for (id, (container, p)) in placed.sorted(by: { $0.key < $1.key }) where lastPlacements[id]?.1 != p {
            route(kind: "placement", from: container, to: id, outcome: .sent, reason: nil, detail: Message.placement(p).summary)
        }
        for (id, (container, old)) in lastPlacements.sorted(by: { $0.key < $1.key }) where placed[id] == nil {
            var hidden = old
            hidden.visible = false
            route(kind: "placement", from: container, to: id, outcome: .sent, reason: nil, detail: Message.placement(hidden).summary)
        }
    }
    private var lastPlacements: [ControllerID: (String, Placement)] = [:]

    /// The composed screen as text, rows joined by newlines.
    public var screenText: String { compose().text }

    // MARK: Routing log

    func route(
        kind: String, from: some CustomStringConvertible, to: some CustomStringConvertible,
        outcome: RoutingRecord.Outcome, reason: String?, detail: @autoclosure () -> String? = nil
    ) {
        guard log.isEnabled || observer != nil else { return }
        let r = RoutingRecord(
            host: host, at: to.description, source: from.description, target: to.description, kind: kind,
            outcome: outcome, via: "local", reason: reason, detail: detail())
        log.record(r)
        observer?(r)
    }
}
