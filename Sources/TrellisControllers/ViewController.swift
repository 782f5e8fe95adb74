import Synchronization
import TrellisCanvas
import TrellisLog
import TrellisViews
import TrellisWire

/// The unit of ownership: one controller owns one view subtree (UIKit's
/// `UIViewController`, with its lifecycle and containment semantics).
///
/// A parent never calls the lifecycle of a child directly: what UIKit's containers
/// call — appearance, containment, traits, size, memory warnings, touches — goes to the
/// child as a `Message` (TrellisWire), delivered on the same-process path here and over
/// a link when the child lives in another process, and logged the same way in both
/// (docs/LIFECYCLE.md). In a host, controllers share its main actor, as UIKit's share the
/// main thread: not by type, but because the host owns their tree there (docs/VIEWS.md,
/// "Whose a tree is").
open class ViewController: Responder, ViewOwner {
    /// Its address on links and in the routing log.
    public let id: ControllerID
    /// Shown by containers (navigation bar, tab bar) and in logs.
    open var title: String?

    /// `id` defaults to the class name and a number unique in the process.
    public init(id: ControllerID? = nil) {
        self.id = id ?? ControllerIdentity.next(for: Self.self)
        super.init()
    }

    // MARK: - The view

    private var loadedView: View?

    /// The root view, loaded on first access (`loadView`, then `viewDidLoad`).
    public var view: View {
        get {
            loadViewIfNeeded()
            return loadedView!
        }
        set { install(newValue) }
    }

    /// The root view if it is loaded, without loading it.
    public var viewIfLoaded: View? { loadedView }
    public var isViewLoaded: Bool { loadedView != nil }

    public func loadViewIfNeeded() {
        guard loadedView == nil else { return }
        // A restarted process's state, before the view that shows it is made.
        (loggingWindow ?? deliveringWindow)?.stateRestoration.restore(self)
        loadView()
        if loadedView == nil { install(View()) }
        performEmbedSegues()
        logCallback("viewDidLoad")
        viewDidLoad()
    }

    /// Creates the root view. Override to install your own view class (S0-2); do not
    /// call `super` then. The default makes a plain `View`.
    open func loadView() {
        view = View()
    }

    deinit {
        // Its view may outlive it (held by a superview, a test). Its weak `owner` reads
        // nil from now on, and `hasOwner` must say so too — unless another controller
        // has taken the view since, whose `owner` is still set.
        if let view = loadedView, view.owner == nil { view.owner = nil }
    }

    private func install(_ newView: View) {
        if let old = loadedView, old !== newView { old.owner = nil }
        loadedView = newView
        newView.owner = self
    }

    open func viewDidLoad() {}

    /// Saves what this controller must keep across a restart of its process into
    /// `coder`; called at the end of a turn in which `setNeedsStateSave()` was called
    /// (docs/LIFECYCLE.md, "State restoration"). The default saves nothing.
    open func encodeRestorableState(with coder: RestorationCoder) {}

    /// Takes back what `encodeRestorableState(with:)` saved, after a restart of this
    /// controller's process, just before its view loads. The default does nothing.
    open func decodeRestorableState(with coder: RestorationCoder) {}

    // MARK: - Embed segues (scene files)

    /// What the scene handed this controller when it was embedded (`data:`).
    public var embedData: [String: String] = [:]
    private var pendingSegues: [EmbedSegue] = []
    private var segueRegistry: ControllerRegistry?

    /// Embed segues to run when the view loads; children come from `registry`.
    public func setEmbedSegues(_ segues: [EmbedSegue], registry: ControllerRegistry) {
        pendingSegues = segues
        segueRegistry = registry
    }

    /// Called for each embed segue before the child is added (UIKit's
    /// `prepare(for:sender:)`): the place to configure a child in this process.
    open func prepare(for segue: EmbedSegue, destination: ViewController) {}

    private func performEmbedSegues() {
        let segues = pendingSegues
        pendingSegues = []
        for segue in segues {
            do throws(EmbedSegueFailure) {
                guard let container = loadedView?.view(withIdentifier: segue.containerView) else {
                    throw .noContainerView(segue.containerView)
                }
                guard let child = segueRegistry?.make(segue.className, id: segue.destination) else {
                    throw .unknownClass(segue.className)
                }
                child.embedData = segue.data
                prepare(for: segue, destination: child)
                addChild(child)
                container.addSubview(child.view)
                child.view.pinEdges(to: container)
                child.didMove(toParent: self)
            } catch {
                segueRegistry?.segueFailed?(id, segue, error)
            }
        }
    }

    // MARK: - Lifecycle callbacks (override; the framework calls them)

    open func viewWillAppear(_ animated: Bool) {}
    /// Between `viewWillAppear` and `viewDidAppear`, once the view is in the window and laid
    /// out, with its traits and geometry up to date (UIKit's `viewIsAppearing`): here, just
    /// before `viewDidAppear`, in every placement (docs/LIFECYCLE.md).
    open func viewIsAppearing(_ animated: Bool) {}
    open func viewDidAppear(_ animated: Bool) {}
    open func viewWillDisappear(_ animated: Bool) {}
    open func viewDidDisappear(_ animated: Bool) {}
    /// After `viewDidAppear` or `viewDidDisappear` has been forwarded to the children: for
    /// the built-in containers, whose delegates hear of it after the whole tree.
    func appearanceTransitionDidEnd(appeared: Bool) {}
    open func viewWillLayoutSubviews() {}
    open func viewDidLayoutSubviews() {}
    /// Whether children get appearance callbacks automatically when this controller gets
    /// them (UIKit's default, true). Return false to call `beginAppearanceTransition` /
    /// `endAppearanceTransition` on them yourself.
    open var shouldAutomaticallyForwardAppearanceMethods: Bool { true }

    /// Called after the trait collection changed — only when it did — parent first.
    open func traitCollectionDidChange(_ previous: TraitCollection?) {}

    /// A size change is coming: the default forwards it to every child with the size
    /// `size(forChildContentContainer:withParentContainerSize:)` gives. Run animations
    /// alongside with `coordinator.animate(alongsideTransition:completion:)` (S4-4).
    open func viewWillTransition(to size: Size, with coordinator: TransitionCoordinator) {
        for child in children where child.isViewShown(in: self) {
            let childSize = self.size(forChildContentContainer: child, withParentContainerSize: size)
            coordinator.forward(childSize, to: child, from: self)
        }
    }

    /// The size a child is told about in a size transition. The default returns
    /// `parentSize`, as UIKit's does; a container whose children fill only part of its
    /// view overrides it. The child's real frame still comes from layout.
    open func size(forChildContentContainer child: ViewController, withParentContainerSize parentSize: Size) -> Size {
        parentSize
    }

    /// A request from a descendant (delegation upward, S1-3, S2-4): return a reply to
    /// answer it, or nil to pass it on to this controller's parent. The child never knows
    /// which ancestor answered.
    open func handle(_ request: Request, from child: ViewController) -> Reply? { nil }

    /// The default forwards the warning to every child (as a `memory-warning` message).
    open func didReceiveMemoryWarning() {
        for child in children { send(.memoryWarning, to: child) }
    }

    // MARK: - Containment

    public private(set) weak var parent: ViewController?
    public private(set) var children: [ViewController] = []
    /// Its timers still running (`scheduleTimer`): held here, as a run loop holds UIKit's.
    var timers: [ControllerTimer] = []

    /// Makes `child` a child: UIKit's order — a child with another parent is first
    /// removed from it (`removeFromParent`, so it gets `didMove(toParent: nil)`), then
    /// the child gets `willMove(toParent: self)`, then it is in `children`. Installing
    /// its view and calling `didMove(toParent:)` is the container's job (S0-4, S3-2).
    public func addChild(_ child: ViewController) {
        guard child !== self, child.parent !== self else { return }
        precondition(!isDescendant(of: child), "\(child.id) is an ancestor of \(id); a controller tree has no cycles")
        if child.parent != nil { child.removeFromParent() }
        send(.containment(Containment(.willMove, parent: id)), to: child)
        children.append(child)
        child.parent = self
        if traitStorage != nil { pushTraits(to: child) }
    }

    /// Leaves the parent: out of its `children`, then `didMove(toParent: nil)` itself.
    /// The container calls `willMove(toParent: nil)` before and removes the view (S3-2).
    public func removeFromParent() {
        guard let p = parent else { return }
        p.children.removeAll { $0 === self }
        parent = nil
        traitOverrideFromParent = nil
        p.send(.containment(Containment(.didMove, parent: nil)), to: self)
    }

    /// Called before the controller is added to or removed from a parent. When you
    /// override it, call `super` (which writes the callback to the routing log).
    open func willMove(toParent parent: ViewController?) {
        isMovingToParent = parent != nil
        isMovingFromParent = parent == nil
        logCallback("willMove(toParent: \(parent.map(\.id.rawValue) ?? "nil"))")
    }
    /// Called after. When you override it, call `super`.
    open func didMove(toParent parent: ViewController?) {
        isMovingToParent = false
        isMovingFromParent = false
        logCallback("didMove(toParent: \(parent.map(\.id.rawValue) ?? "nil"))")
    }

    /// True between `willMove(toParent:)` with a parent and `didMove(toParent:)`: read in
    /// the appearance callbacks, the controller appears because it was just added (pushed,
    /// or added to a shown parent) — UIKit's `isMovingToParent`.
    public private(set) var isMovingToParent = false
    /// True between `willMove(toParent: nil)` and `didMove(toParent: nil)`: it disappears
    /// because it is being removed (popped) — UIKit's `isMovingFromParent`.
    public private(set) var isMovingFromParent = false

    /// Bookkeeping only, for `ParentProxy`: the messages travel separately.
    func adoptChild(_ child: ViewController) {
        children.append(child)
        child.parent = self
    }

    func releaseChild(_ child: ViewController) {
        children.removeAll { $0 === child }
        if child.parent === self { child.parent = nil; child.traitOverrideFromParent = nil }
    }

    public func isDescendant(of other: ViewController) -> Bool {
        var c: ViewController? = self
        while let current = c {
            if current === other { return true }
            c = current.parent
        }
        return false
    }

    /// The window this controller's tree is shown in, if any.
    public var window: Window? {
        var c: ViewController = self
        while let p = c.parent { c = p }
        return c.hostingWindow
    }
    weak var hostingWindow: Window?
    /// The window this controller was root of until it was taken out: a tree that left its
    /// window still runs callbacks (a transition that ends, a removal), and they go to that
    /// window's log, as a child process's go to its own whatever its parent does.
    weak var formerWindow: Window?
    /// Where this controller's callbacks are logged: its window's, else its tree's last.
    var loggingWindow: Window? {
        var c: ViewController = self
        while let p = c.parent { c = p }
        return c.hostingWindow ?? c.formerWindow
    }
    /// The loop that runs this controller's tree (`TreeLoop`): its window's, else the
    /// main actor's, where a host makes the controllers it shows.
    var treeLoop: TreeLoop { (loggingWindow ?? deliveringWindow)?.tree.loop ?? MainActorLoop.shared }
    /// The sender's window while a message is being delivered: a controller not yet in a
    /// tree (hearing `willMove(toParent:)`) still logs its callbacks where the sender does.
    weak var deliveringWindow: Window?

    // MARK: - ViewOwner

    public func refusalToEmbed(in superview: View) -> String? {
        let container = superview.layoutRoot.owner as? ViewController
        if let p = parent {
            if container === p { return nil }
            return "Cannot add the view of \(id) to \(container.map { "the view tree of \($0.id)" } ?? "a view outside any controller"): "
                + "its parent is \(p.id). A child's root view goes only into its parent's view tree."
        }
        if let container {
            return "Cannot add the view of \(id) to the view tree of \(container.id): \(id) is not its child. "
                + "Call \(container.id).addChild(\(id)) first."
        }
        return nil
    }

    public func rootViewDidMove(from oldSuperview: View?) {
        appearanceFollowsViewMove()
    }

    // MARK: - Responder chain

    /// UIKit's answer (docs/LIFECYCLE.md, "The responder chain"): the superview of this
    /// controller's view when that view is in its parent's tree (or, for the root, in the
    /// window), else the parent — a child whose view is not shown, or whose parent is a
    /// proxy for a controller in another process.
    open override var next: Responder? { ResponderChain.next(of: self) }

    // Delivery stops at the controller even though `next` goes on: what nobody in this
    // controller's tree handled is carried into the parent's tree by the router, as a
    // declined reply — the same way whether the parent is in this process or behind a
    // link (S0-3). Overrides that pass a touch on call `super`, which ends up here.
    open override func touchesBegan(_ touches: Set<Touch>) { unhandledTouches(touches) }
    open override func touchesMoved(_ touches: Set<Touch>) { unhandledTouches(touches) }
    open override func touchesEnded(_ touches: Set<Touch>) { unhandledTouches(touches) }
    open override func touchesCancelled(_ touches: Set<Touch>) { unhandledTouches(touches) }

    open override func unhandledTouches(_ touches: Set<Touch>) {
        touchRouting.unhandled = true
    }

    // Keys end here too, and go on in the parent's tree the same way (KeyRouting.swift).
    open override func pressesBegan(_ presses: Set<Press>) { endPressChain(presses) }
    open override func pressesEnded(_ presses: Set<Press>) { endPressChain(presses) }

    /// A `key` message for this controller; a proxy for a controller in another process
    /// would override it to forward instead of delivering here.
    func keyMessage(_ key: KeyPress) -> Reply? {
        // A modal presented over this controller's layer takes it (Presentation.swift).
        if let modal = modalAbove {
            let reply = modal.keyMessage(key)
            if reply?.status == .declined, window?.dismissesTopPresentationInteractively(key) == true { return nil }
            return reply
        }
        return routeKeyMessage(key)
    }

    var touchRouting = TouchRoutingState()

    /// A `touch` message for this controller; a proxy for a controller in another
    /// process overrides it to forward instead of hit-testing here.
    func touchMessage(_ input: TouchInput) -> Bool {
        if let modal = modalAbove { return routeTouch(input, to: modal) }
        return routeTouch(input)
    }

    /// Touches read together, for this controller, in order: one answer each. A proxy
    /// sends them on together; under a modal each goes on alone.
    func touchMessages(_ inputs: [TouchInput]) -> [Bool] {
        if let modal = modalAbove { return inputs.map { routeTouch($0, to: modal) } }
        return routeTouches(inputs)
    }

    /// A `scroll` message (the mouse wheel) for this controller; a proxy forwards it.
    func scrollMessage(_ input: ScrollInput) -> Bool {
        if let modal = modalAbove { return routeScroll(input, to: modal) }
        return routeScroll(input)
    }

    // MARK: - State kept for the lifecycle machinery

    var appearance = AppearanceMachine()
    /// What this controller last drew: the content of its surface in the compositor.
    public internal(set) var surface = Surface(size: .zero)
    /// The coordinator of the size transition being delivered to this controller.
    var pendingCoordinator: TransitionCoordinator?
    var traitStorage: TraitCollection?
    /// The override its parent set for it: the child's own, so it goes with the child.
    var traitOverrideFromParent: TraitCollection?
    /// Its modal presentations: what it presents, what presents it (Presentation.swift).
    var presentationState = PresentationState()
    /// `preferredContentSize` changes are reported to the parent.
    open var preferredContentSize: Size = .zero {
        didSet { if preferredContentSize != oldValue { parent?.preferredContentSizeDidChange(forChild: self) } }
    }
    open func preferredContentSizeDidChange(forChild child: ViewController) {}
}

extension ViewController {
    /// The id `init(id: nil)` would give a controller of class `name`: for one made
    /// elsewhere whose id its stand-in here needs first (an actor child, made on its loop).
    public static func generatedID(named name: String) -> ControllerID {
        ControllerIdentity.generatedID(named: name)
    }
}

/// Default controller ids: "TypeName-N", cut to fit the protocol's 32 bytes.
enum ControllerIdentity {
    /// Process-wide, behind an atomic: ids stay unique among every tree of the process.
    private static let counter = Atomic<Int>(0)
    static func next(for type: Any.Type) -> ControllerID {
        generatedID(named: String(describing: type))
    }

    static func generatedID(named name: String) -> ControllerID {
        let suffix = "-\(counter.wrappingAdd(1, ordering: .relaxed).newValue)"
        let name = name.filter { $0.isLetter || $0.isNumber }
        let base = String(name.prefix(ControllerID.maxLength - suffix.count))
        return ControllerID(base.isEmpty ? "C\(suffix)" : base + suffix) ?? ControllerID("C\(suffix)")!
    }
}
