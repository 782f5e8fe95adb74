import TrellisCanvas
import TrellisLog
import TrellisViews
import TrellisWire

/// The top of a controller tree in one process: the screen size, the traits that
/// follow from it, the root controller's appearance, input at the root, and the
/// composition of every in-process controller's surface into one screen. This file holds
/// the hosting, the size and the appearance; the rest is in `Window+Input`,
/// `Window+Frame`, `Window+Rendering` and `Window+Placements`.
///
/// In a host process the compositor plays this part for the root (issue 4); in tests and
/// in single-process apps the window does, with the same messages.
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
    public var observer: ((RoutingRecord) -> Void)?
    /// Hears the active key commands each time they may have changed
    /// (`refreshKeyCommandFooters`); a host that is a child tells its parent from here.
    public var keyCommandsObserver: (([KeyCommand.Summary]) -> Void)?
    /// Sends what the tree shows now, before the handling under way ends; set by a host
    /// (its frame goes to the compositor at once), nil where the screen is composed when
    /// asked (tests, one process). See `showLaidOutTree()`.
    public var showsNow: (() -> Void)?
    /// Where controllers asked for by name in this window's tree are made (a navigation
    /// controller's `show`): its host's, the app's registry; nil, none.
    public var registry: ControllerRegistry?
    /// The window's tree as its owner sees it: the loop it runs on, who hears it change.
    public let tree: ViewTree
    /// What the window's controllers save to be restored after a restart.
    public let stateRestoration: StateRestoration

    /// `loop` runs the tree's later work (timers, saves): the main actor's, where a host
    /// owns its windows. `stateRestoration`: one the host's other windows share (on the
    /// same loop), else the window's own.
    public init(
        size: Size, log: RoutingLog = .disabled, host: String = "app", loop: TreeLoop = MainActorLoop.shared,
        stateRestoration: StateRestoration? = nil
    ) {
        self.size = size
        self.log = log
        self.host = host
        let top = WindowRootView(frame: Rect(origin: .zero, size: size))
        tree = ViewTree(loop: loop, focus: top.focus)
        self.stateRestoration = stateRestoration ?? StateRestoration(loop: loop)
        rootView = top
        top.window = self
        top.hostedTree = tree
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

    /// Puts the root controller's view into the window, sized to it, if not there yet; a
    /// footer then lists the commands from the first frame, as after `makeKeyAndVisible`.
    public func installRootView() {
        guard let root = rootViewController, root.viewIfLoaded?.superview !== rootView else { return }
        root.view.frame = rootView.bounds
        rootView.addSubview(root.view)
        refreshKeyCommandFooters()
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



    /// A memory warning for the whole tree.
    public func simulateMemoryWarning() {
        guard let root = rootViewController else { return }
        route(kind: "memory-warning", from: "window", to: root.id, outcome: .delivered, reason: nil)
        root.didReceiveMemoryWarning()
    }

    /// Runs animation completions that are due.
    @discardableResult
    public func tick() -> Bool { animator.tick() }

    // MARK: What the extensions keep (stored properties live in the class)

    // The frame (Window+Frame.swift).
    /// What `takeFrame` composes into, and where each of its layers was then (which
    /// always describes the last arrangement: a frame that finds them different composes
    /// everything and keeps the new ones).
    var framed = Surface(size: .zero)
    var framedPlaces: [LayerPlace]?
    /// Whose surface each of those layers is, and `ViewTree.arrangementChanges` when they were
    /// arranged: while the count stands, the next frame reuses them.
    var framedOwners: (at: UInt64, owners: [WeakController])?
    /// `ViewTree.changes` when the last frame was composed, and whether an animation ran then.
    var framedAt: UInt64 = 0
    var animating = false
    /// `animator.changes` when the last frame was composed.
    var framedAnimatorAt: UInt64 = 0

    // The footers (ActiveKeyCommands.swift).
    /// The footers in the tree when `ViewTree.treeChanges` was `at`.
    var footersFound: (at: UInt64, footers: [WeakFooter])?
    /// Touches under way (`holdingKeyCommandRefresh`): a refresh asked meanwhile is the
    /// one they end with.
    var keyCommandRefreshHolds = 0

    // The render cache (Window+Rendering.swift).
    /// The window's own layer, kept between compositions (as each controller keeps its
    /// surface): the renderer clears and redraws it whole, so only its buffers carry over,
    /// saving two full-screen allocations a frame.
    var own = Surface(size: .zero)
    var ownDrawn: UInt64?

    /// Per controller composed: which view its surface was drawn from and at which
    /// `displayGeneration`. Rebuilt each composition from the controllers it reached, with
    /// those it did not and that are still alive carried over: one that left the tree and
    /// comes back unchanged is not drawn again (`keepDrawnOfAbsentControllers`).
    var drawn: [ObjectIdentifier: DrawnSurface] = [:]
    var drawnNext: [ObjectIdentifier: DrawnSurface] = [:]

    // The placements (Window+Placements.swift).
    /// After `compose()`: where the surfaces of children in other processes go, in this
    /// window's coordinates — what this process's host tells the compositor — and, after
    /// `takeFrame` with a compositor, where the layers lifted for an animation go.
    public internal(set) var remotePlacements: [Placement] = []
    var remote: [Placement] = []
    /// With a compositor (`animator.presentsElsewhere`): each in-process child whose
    /// viewport moves in a declared animation is lifted out of this window's surface into
    /// a surface of its own (its subtree composed into it), which the compositor places
    /// and moves; the window's own frame shows what is behind it. Kept between frames so
    /// each lifted frame carries only its changed cells.
    var liftedSurfaces: [ControllerID: Surface] = [:]
    var liftedNext: [ControllerID: Surface] = [:]
    /// The frames of the lifted surfaces, taken by `takeFrame` (each names its layer).
    public internal(set) var liftedFrames: [FrameUpdate] = []
    /// The motions `takeFrame` found that the compositor has not been told of, in this
    /// window's coordinates (as placements are), each with its `Animator` group.
    public internal(set) var declarations: [(group: Int, animation: Animation)] = []
    /// The placements the last composition logged, each with its container.
    var lastPlacements: [ControllerID: (String, Placement)] = [:]
    /// The last arrangement's placements, not logged yet (`logArrangedPlacements`).
    var arrangedPlacements: [ControllerID: (String, Placement)]?

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
