import TrellisCanvas
import TrellisWire

/// What a view needs from the controller whose root view it is: a place in the
/// responder chain and the layout callbacks UIKit sends around `layoutSubviews`. An
/// owner that goes away before its view clears the view's `owner` (`ViewController`
/// does in its `deinit`), so that `View.hasOwner` stays true to it.
public protocol ViewOwner: Responder {
    func viewWillLayoutSubviews()
    func viewDidLayoutSubviews()
    /// Why the owner's root view may not go into `superview`'s tree, or nil if it may.
    /// A controller's root view belongs only in its parent's tree (S2-5).
    func refusalToEmbed(in superview: View) -> String?
    /// The root view entered or left a tree (appearance follows, UIKit's `didMoveToWindow`).
    func rootViewDidMove(from oldSuperview: View?)
}

/// A rectangle of cells with content, in a tree. UIKit's `UIView`, in cells.
///
/// Subviews are kept back to front: the last one is drawn last and hit first.
/// A view whose `owner` is set is a controller's root view; its subtree belongs to that
/// controller. Seen from the parent's side it is a *viewport*: the parent positions it
/// and never draws, hit-tests or constrains what is inside (S2-5); the owning controller
/// does, whether it runs in this process or behind a link.
open class View: Responder {
    // MARK: Geometry

    private var storedFrame: Rect
    private var boundsOrigin: Point = .zero

    /// The view's rectangle in its superview's bounds coordinates.
    open var frame: Rect {
        get { storedFrame }
        set {
            guard newValue != storedFrame else { return }
            let resized = newValue.size != storedFrame.size
            storedFrame = newValue
            if resized { setNeedsLayout() }
            if translatesAutoresizingMaskIntoConstraints {
                invalidateLayoutEngine()
            } else if resized, hasOwner {
                // A controller's root view is the fixed frame of its own domain however its
                // parent places it: placed by the parent's constraints, a new size must
                // still re-solve what is inside.
                layoutEngine.invalidate()
            }
            setNeedsDisplayEverywhere()
        }
    }

    /// The view's own coordinate system: `origin` is what shows at its top-left corner
    /// (a scroll view's content offset), `size` is `frame.size`.
    public var bounds: Rect {
        get { Rect(origin: boundsOrigin, size: storedFrame.size) }
        set {
            boundsOrigin = newValue.origin
            frame.size = newValue.size
            setNeedsDisplayEverywhere()
        }
    }

    public var center: Point { Point(x: frame.minX + frame.width / 2, y: frame.minY + frame.height / 2) }

    public required init(frame: Rect = .zero) {
        storedFrame = frame
        super.init()
    }

    // MARK: The tree

    public private(set) weak var superview: View?
    /// Back to front.
    public private(set) var subviews: [View] = []

    /// Set by a controller on its root view (UIKit's private `_viewDelegate`), and cleared
    /// by it when it goes (`ViewController`'s `deinit`), so `hasOwner` always says whether
    /// it is set.
    public weak var owner: (any ViewOwner)? {
        // Setting or clearing it moves the boundary between two drawing domains: this
        // view's subtree leaves one and joins the other, and both draw differently.
        didSet {
            hasOwner = owner != nil
            if owner !== oldValue {
                setNeedsDisplayEverywhere()
                superview?.setNeedsDisplayEverywhere()
            }
        }
    }

    /// Whether `owner` is set, read without loading it: the walks up and down the tree
    /// (`layoutRoot`, `setNeedsDisplay`, the renderer) ask it of every view they pass,
    /// and a weak load is a call into the runtime and a retain and release of the owner
    /// (docs/BENCHMARKS.md, e2e, "Where a tab switch waits").
    public private(set) var hasOwner = false

    /// A name tests and the `tree` command show; no effect on behaviour.
    public var identifier: String?
    public var tag: Int = 0

    public func addSubview(_ view: View) {
        insertSubview(view, at: subviews.count)
    }

    /// Inserts `view` at `index` of `subviews` (0 = backmost), taking it from its old
    /// superview first, as UIKit does.
    public func insertSubview(_ view: View, at index: Int) {
        precondition(view !== self && !isDescendant(of: view), "a view cannot be its own ancestor")
        if view.superview === self, let old = subviews.firstIndex(where: { $0 === view }) {
            subviews.remove(at: old)
            subviews.insert(view, at: min(index, subviews.count))
        } else {
            if let owner = view.owner, let refusal = owner.refusalToEmbed(in: self) {
                View.diagnostics(refusal)
                return
            }
            let old = view.superview
            let oldFocus = view.focusSystem
            view.removeFromSuperview(notifying: false)
            subviews.insert(view, at: min(max(0, index), subviews.count))
            view.superview = self
            view.adopt(tree)
            tree?.joinedOrLeft()
            view.didMoveToSuperview()
            view.owner?.rootViewDidMove(from: old)
            // Moved within its window it keeps focus, as in UIKit; into another tree, it
            // left the one whose focus it may hold.
            if let oldFocus, oldFocus !== view.focusSystem { oldFocus.subtreeWillLeave(view) }
        }
        setNeedsLayout()
        // Layout the new subview had pending before it was in this tree (a controller's
        // root view loaded and sized off screen) must be reached by the next pass, which
        // descends only into subtrees marked as needing it.
        if view.needsLayout || view.subtreeNeedsLayout { subtreeNeedsLayout = true }
        subviewJoinedOrLeft(view)
        if view.hasOwner { viewportsChanged() } else { setNeedsDisplayEverywhere() }
    }

    public func bringSubviewToFront(_ view: View) {
        guard view.superview === self else { return }
        insertSubview(view, at: subviews.count)
    }

    public func sendSubviewToBack(_ view: View) {
        guard view.superview === self else { return }
        insertSubview(view, at: 0)
    }

    public func removeFromSuperview() { removeFromSuperview(notifying: true) }

    private func removeFromSuperview(notifying: Bool) {
        guard let parent = superview else { return }
        // A move (`notifying` false) keeps focus if it stays in the window: `insertSubview` decides.
        if notifying { focusSystem?.subtreeWillLeave(self) }
        if hasOwner { parent.viewportsChanged() } else { parent.setNeedsDisplayEverywhere() }
        parent.subviewJoinedOrLeft(self)
        LayoutConstraint.deactivateConstraints(crossing: self)
        parent.subviews.removeAll { $0 === self }
        superview = nil
        // A move (`notifying` false) is inserted at once, where it adopts its new tree.
        if notifying { adopt(nil) }
        parent.tree?.joinedOrLeft()
        parent.setNeedsLayout()
        didMoveToSuperview()
        if notifying { owner?.rootViewDidMove(from: parent) }
    }

    /// Called after the view gained or lost its superview.
    open func didMoveToSuperview() {}

    /// Called on every view a view file created, once the file's whole tree is built:
    /// subviews before their superview, a nested file's views before the file that
    /// included it (seed 002's order, S2-2). UIKit's `awakeFromNib`.
    open func awakeFromFile() {}

    public func isDescendant(of view: View) -> Bool {
        var v: View? = self
        while let current = v {
            if current === view { return true }
            v = current.superview
        }
        return false
    }

    /// `isDescendant(of: view)` for a view that `stop`, an ancestor of `view`, may be
    /// above: a view inside `view` meets it on the way up before `stop`, so the walk ends
    /// at `stop` rather than at the top of the tree.
    func isInside(_ view: View, below stop: View) -> Bool {
        var v: View? = self
        while let current = v, current !== stop {
            if current === view { return true }
            v = current.superview
        }
        return false
    }

    /// The root of the layout and drawing domain this view belongs to: the nearest
    /// controller root view above it (itself included), or the top of the tree.
    public var layoutRoot: View {
        var v = self
        while !v.hasOwner, let s = v.superview { v = s }
        return v
    }

    /// True when this view is a controller's root view sitting in another tree.
    public var isViewport: Bool { hasOwner && superview != nil }

    /// The first view in this subtree (depth-first, front to back) with `identifier`.
    public func view(withIdentifier id: String) -> View? {
        if identifier == id { return self }
        for s in subviews.reversed() { if let v = s.view(withIdentifier: id) { return v } }
        return nil
    }

    // MARK: Appearance

    public var isHidden = false {
        didSet {
            guard isHidden != oldValue else { return }
            setNeedsDisplayEverywhere()
            superview?.setNeedsDisplayEverywhere()
            // A hidden view can be neither seen as focused nor typed into.
            if isHidden { focusSystem?.subtreeWillLeave(self) }
        }
    }
    public var isUserInteractionEnabled = true
    /// When true, subviews are drawn and hit only inside this view's bounds.
    /// Hit-testing never reaches outside a view's bounds either way (UIKit's rule).
    public var clipsToBounds = false { didSet { setNeedsDisplayEverywhere() } }
    // Set to what they were, these draw nothing: a tab bar sets every tab's colours on
    // each layout, and a redraw would come out the same (issue 20).
    /// `nil` leaves what is behind the view visible.
    public var backgroundColor: CellColor? { didSet { if backgroundColor != oldValue { setNeedsDisplay() } } }
    public var foregroundColor: CellColor = .default { didSet { if foregroundColor != oldValue { setNeedsDisplay() } } }
    public var border: BorderStyle = .none { didSet { if border != oldValue { setNeedsDisplay() } } }
    public var borderColor: CellColor = .default { didSet { if borderColor != oldValue { setNeedsDisplay() } } }
    /// A corner radius of at least half the shorter side makes the view an ellipse
    /// (seed 000's circle); smaller radii are not drawn, a cell has no finer corner.
    public var cornerRadius = 0 { didSet { if cornerRadius != oldValue { setNeedsDisplay() } } }

    /// The style text and borders of this view use; `focusedAttributes` while focused.
    public var style: Style {
        Style(foreground: foregroundColor, background: backgroundColor ?? .default, attributes: isFocused ? focusedAttributes : [])
    }

    // MARK: Focus (Focus.swift)

    /// Whether Tab, a click or `becomeFirstResponder` may focus this view (UIKit's
    /// `canBecomeFocused`). False by default; controls that take keys say true.
    open var canBecomeFocused: Bool { false }
    /// Whether the view lets focus go when asked (`resignFirstResponder`, Tab, another view
    /// asking for it). A view leaving its window loses focus whatever it answers.
    open var canResignFirstResponder: Bool { true }
    /// The order Tab visits the focusable views inside this one, replacing reading order
    /// (see `FocusOrder`); nil: reading order.
    public var focusOrder: [View]?
    /// Called after focus moved, on the view that lost it and on the one that gained it
    /// (read `isFocused`); UIKit's `didUpdateFocus(in:with:)`, for one view. The view is
    /// already marked for display.
    open func focusDidChange() {}
    /// What `style` adds while the view is focused: how a view that does not draw focus
    /// itself shows it. A view chooses its own by setting this or by reading `isFocused`.
    public var focusedAttributes: CellAttributes = [.bold, .underline] { didSet { setNeedsDisplay() } }
    /// Set while some focus system's `focusedView` is this view: only `FocusSystem.move`
    /// sets that, and it keeps this in step.
    var holdsFocus = false

    // MARK: Responder chain

    /// UIKit's chain: a controller's root view hands on to its controller; any other
    /// view to its superview.
    open override var next: Responder? { owner ?? superview }

    // MARK: Hit-testing

    /// True when `point` (in bounds coordinates) is inside the view.
    open func point(inside point: Point) -> Bool { bounds.contains(point) }

    /// The deepest, frontmost visible, interactive view containing `point` (in this view's
    /// bounds coordinates), or nil. Hidden and non-interactive views and their subtrees are
    /// never hit; a point outside a view's bounds never hits its overflowing subviews.
    /// Another controller's root view is returned as a leaf: the parent does not look
    /// inside its child's tree, it hands the touch over (S0-3, S2-5).
    open func hitTest(_ point: Point) -> View? {
        guard !isHidden, isUserInteractionEnabled, self.point(inside: point) else { return nil }
        for sub in subviews.reversed() {
            let inSub = sub.convertFromSuperview(point)
            if sub.hasOwner {
                if !sub.isHidden, sub.isUserInteractionEnabled, sub.point(inside: inSub) { return sub }
                continue
            }
            if let hit = sub.hitTest(inSub) { return hit }
        }
        return self
    }

    /// `convert(point, from: superview)`, without the two walks to the top of the tree it
    /// takes: hit-testing asks it of every subview on the way down.
    private func convertFromSuperview(_ point: Point) -> Point {
        Point(x: point.x - frame.minX + bounds.minX, y: point.y - frame.minY + bounds.minY)
    }

    // MARK: Coordinates

    /// Converts `point` from `view`'s bounds coordinates (nil: the top of this view's
    /// tree) into this view's.
    public func convert(_ point: Point, from view: View?) -> Point {
        let top = view ?? topmost
        return point + top.offsetFromTopmost() - offsetFromTopmost()
    }

    /// Converts `point` from this view's bounds coordinates into `view`'s.
    public func convert(_ point: Point, to view: View?) -> Point {
        (view ?? topmost).convert(point, from: self)
    }

    public func convert(_ rect: Rect, to view: View?) -> Rect {
        Rect(origin: convert(rect.origin, to: view), size: rect.size)
    }

    private var topmost: View {
        var v = self
        while let s = v.superview { v = s }
        return v
    }

    /// Where this view's bounds origin sits in the topmost view's bounds coordinates,
    /// negated: adding it converts to, subtracting converts from.
    private func offsetFromTopmost() -> Point {
        var offset = Point.zero
        var v = self
        while let s = v.superview {
            offset = offset + v.frame.origin - v.bounds.origin
            v = s
        }
        return Point(x: offset.x - v.bounds.origin.x, y: offset.y - v.bounds.origin.y)
    }

    // MARK: Layout

    public private(set) var needsLayout = true
    /// When true (the default, as in UIKit) the view's frame is fixed by whoever sets it
    /// and constraints see it as constants; set false to let constraints place the view.
    public var translatesAutoresizingMaskIntoConstraints = true {
        didSet { if oldValue != translatesAutoresizingMaskIntoConstraints { invalidateLayoutEngine() } }
    }

    /// The size the view's content wants, if any (labels, buttons). Constraints treat
    /// it as UIKit does: hugging and compression resistance at 250 and 750.
    open var intrinsicContentSize: Size? { nil }
    /// Tells Auto Layout the content size changed. Only a view some constraint has used
    /// (it has solver variables) matters to it, as in UIKit: a label placed by its frame
    /// changes its text without the domain's constraints being solved again. A constraint
    /// added later that uses the view solves them anyway.
    public func invalidateIntrinsicContentSize() {
        guard layoutVariables != nil else { return }
        // Laid out again either way (a label's new text lays its domain out, as in UIKit),
        // but solved again only if the size changed (`LayoutEngine.solveIfNeeded`).
        let root = layoutRoot
        root.layoutEngine.invalidateIntrinsicSize(of: self)
        root.setNeedsLayout()
        if root === self, let parent = root.superview { parent.layoutRoot.layoutEngine.invalidateIntrinsicSize(of: self) }
    }

    /// The tree this view is in — its root's `hostedTree` — or nil for a view in no hosted
    /// tree. Kept on every view as it joins or leaves one, as UIKit's views keep their
    /// window, so that a change reaches its tree without a walk to the root.
    public private(set) var tree: ViewTree?

    /// Set on the root of a tree by its owner (a window): see `ViewTree`. Kept as `tree`
    /// and a flag, not a field of its own: every view would carry it, and only roots use it.
    public var hostedTree: ViewTree? {
        get { hostsTree ? tree : nil }
        set {
            hostsTree = newValue != nil
            spread(newValue ?? superview?.tree)
        }
    }

    /// This view and its subviews are now in `inherited`'s tree, unless this view is a
    /// root of its own. Stops where nothing changes: a move within one tree costs nothing.
    private func adopt(_ inherited: ViewTree?) {
        guard !hostsTree else { return }
        spread(inherited)
    }

    private func spread(_ tree: ViewTree?) {
        guard tree !== self.tree else { return }
        self.tree = tree
        for s in subviews { s.adopt(tree) }
    }

    public func setNeedsLayout() {
        tree?.changed()
        needsLayout = true
        // The pass starts at a layout root; an ancestor that does not need layout itself
        // still walks down to the views that do.
        var v = superview
        while let s = v, !s.subtreeNeedsLayout {
            s.subtreeNeedsLayout = true
            v = s.superview
        }
    }
    var subtreeNeedsLayout = true
    private var hostsTree = false

    /// Lays out subviews. The default places views that use constraints; override to
    /// place subviews yourself (S0-1), calling `super` if constraints matter too.
    open func layoutSubviews() {
        layoutEngineRoot.layoutEngine.applyFrames(toSubviewsOf: self)
    }

    /// Solves constraints if they changed and runs `layoutSubviews` where needed, top down.
    /// Controller roots inside the tree are laid out too, with their owner's
    /// `viewWillLayoutSubviews`/`viewDidLayoutSubviews` around them.
    public func layoutIfNeeded() {
        layoutEngineRoot.layoutEngine.solveIfNeeded()
        layoutPass()
    }

    private func layoutPass() {
        if hasOwner, superview != nil { layoutEngine.solveIfNeeded() }
        if needsLayout {
            needsLayout = false
            owner?.viewWillLayoutSubviews()
            layoutSubviews()
            owner?.viewDidLayoutSubviews()
        }
        guard subtreeNeedsLayout else { return }
        subtreeNeedsLayout = false
        for sub in subviews { sub.layoutPass() }
    }

    /// Where constraints touching this view are solved: its layout root.
    var layoutEngineRoot: View { layoutRoot }
    lazy var layoutEngine = LayoutEngine(root: self)
    /// Constraints whose nearest common ancestor is this view (UIKit's `constraints`).
    var installedConstraints: [LayoutConstraint] = []
    /// How many active constraints name this view, as either item: a leaf that none
    /// names has none to deactivate when it leaves its superview, and is not searched
    /// for (`LayoutConstraint.deactivateConstraints(crossing:)`: a tab's viewport).
    var constraintsNamingThis = 0
    /// The solver's variables for this view, created the first time a constraint uses it.
    var layoutVariables: LayoutVariables?

    func invalidateLayoutEngine() {
        let root = layoutRoot
        root.layoutEngine.invalidate()
        root.setNeedsLayout()
        // A controller root that moved or resized changes its parent's domain too; a view
        // inside it does not: the parent's constraints end at the root (a leaf there), and
        // what is inside never sizes it (a label's new text re-solves only its own domain).
        if root === self, let parent = root.superview { parent.layoutRoot.layoutEngine.invalidate() }
    }

    /// `view` joined, left or moved among this view's subviews: the domain's constraints
    /// are solved again — unless it is another controller's root view that no constraint
    /// has used (it has no solver variables): a leaf the solver never held, whose coming
    /// or going changes no frame the solver gives. Then the domain is only laid out again
    /// (a tab's viewport swapped re-collected the tab bar's whole domain, issue 20). A
    /// constraint that uses it later, or one crossing it deactivated as it leaves,
    /// invalidates the domain itself.
    private func subviewJoinedOrLeft(_ view: View) {
        guard view.hasOwner, view.layoutVariables == nil else { return invalidateLayoutEngine() }
        layoutRoot.setNeedsLayout()
    }

    // MARK: Drawing

    public private(set) var needsDisplay = true

    /// Asks for this view to be drawn again: its content changed, not where it is. Its
    /// domain's renderer may then redraw only the rows it and its subviews cover.
    public func setNeedsDisplay() { markNeedsDisplay(everywhere: false) }

    /// For a change of where things are — a frame, bounds, visibility, clipping, the
    /// tree itself: what was drawn where this view no longer is must go too, so the
    /// whole domain is drawn again.
    func setNeedsDisplayEverywhere() { markNeedsDisplay(everywhere: true) }

    /// A controller's root view joined, left or moved among this view's subviews: what
    /// this domain draws is the same — a viewport's content is its controller's surface,
    /// never drawn into this one (`ViewRenderer`) — but where the layers go is not, so the
    /// window arranges them again (a tab switch redrew the tab bar's whole surface, issue 20).
    private func viewportsChanged() {
        tree?.changed(arrangement: true)
    }

    private func markNeedsDisplay(everywhere: Bool) {
        tree?.changed(arrangement: everywhere)
        needsDisplay = true
        let root = layoutRoot
        root.subtreeNeedsDisplay = true
        root.displayGeneration &+= 1
        guard !root.redrawAll else { return }
        if everywhere {
            root.redrawAll = true
            root.redrawRows = nil
        } else {
            let rows = rowsDrawn(in: root)
            root.redrawRows = root.redrawRows.map { min($0.lowerBound, rows.lowerBound)..<max($0.upperBound, rows.upperBound) } ?? rows
        }
    }

    /// The rows of `root`'s surface this view and its subviews can draw on (other
    /// controllers' views excluded: they have surfaces of their own), clipping aside.
    private func rowsDrawn(in root: View) -> Range<Int> {
        // A view's origin in the surface's rows is its superview's plus frame.minY - bounds.minY;
        // the root's is -bounds.minY, so its own rows start at 0.
        var origin = -root.bounds.minY
        var v = self
        while v !== root, let s = v.superview {
            origin += v.frame.minY - v.bounds.minY
            v = s
        }
        func rows(of view: View, origin: Int) -> Range<Int> {
            let top = origin + view.bounds.minY
            var lower = top, upper = top + view.bounds.height
            for sub in view.subviews where !sub.hasOwner {
                let r = rows(of: sub, origin: origin + sub.frame.minY - sub.bounds.minY)
                lower = min(lower, r.lowerBound)
                upper = max(upper, r.upperBound)
            }
            return lower..<max(lower, upper)
        }
        return rows(of: self, origin: origin)
    }

    /// On a layout root: since the tracked render at `redrawBase` (a `displayGeneration`),
    /// whether everything must be drawn again, else the rows that must (nil: none).
    var redrawBase: UInt64?
    var redrawAll = true
    var redrawRows: Range<Int>?
    /// Set on a layout root when anything in its domain changed since it last rendered.
    public internal(set) var subtreeNeedsDisplay = true
    /// On a layout root, a count that moves whenever anything in its domain asks to be
    /// redrawn. A renderer that keeps its surface between frames remembers the count it
    /// drew at and redraws only when it moved: unlike `subtreeNeedsDisplay`, which any
    /// render clears, it cannot be consumed by a render into some other surface.
    public private(set) var displayGeneration: UInt64 = 0

    /// Draws over the view's subviews, after them, in the same coordinates and clip as
    /// `draw(in:)` (what UIKit does with a subview kept in front, as a scroll view's
    /// indicators). The default draws nothing. Viewports — other controllers' views — are
    /// composed above it all the same.
    open func drawOverSubviews(in surface: inout Surface) {}

    /// Draws the view's own content into `surface`, whose `origin` and `clip` are already
    /// set to this view's bounds coordinates. The default fills the background, draws the
    /// border, and an ellipse when `cornerRadius` reaches half the shorter side.
    open func draw(in surface: inout Surface) {
        let local = Rect(origin: bounds.origin, size: bounds.size)
        if let bg = backgroundColor {
            let fill = Style(foreground: foregroundColor, background: bg)
            if cornerRadius > 0, cornerRadius * 2 >= min(local.width, local.height) {
                surface.fillEllipse(in: local, style: fill)
            } else {
                surface.fill(local, with: fill)
            }
        }
        if border != .none {
            let attributes: CellAttributes = isFocused ? focusedAttributes.intersection(.bold) : []
            surface.drawBorder(local, style: border, colors: Style(foreground: borderColor, background: backgroundColor ?? .default, attributes: attributes))
        }
    }
}

