import TrellisCanvas
import TrellisViews
import TrellisWire

/// A primary column (a list) beside a secondary one (its detail), collapsed to one column
/// when the horizontal size class is compact (UIKit's `UISplitViewController`, two columns;
/// docs/LIFECYCLE.md, "Built-in containers").
///
/// Expanded, the primary takes `primaryColumnWidth` columns on the left, a divider, and the
/// secondary the rest. Collapsed, one of them fills the view: the secondary once one was
/// shown with `showDetailViewController` (the detail the person chose), else the primary;
/// `showPrimary()` (or a `back` request from the secondary) goes back to the list. Both stay
/// children; a view that leaves the tree disappears and one that enters appears, by the
/// rules for any child.
open class SplitViewController: ViewController {
    public private(set) var primary: ViewController
    public private(set) var secondary: ViewController?
    /// The primary column's width when expanded (at most half the view).
    public var primaryColumnWidth = 28 { didSet { view.setNeedsLayout() } }
    public let divider = View()

    /// True while the horizontal size class is compact: one column.
    public var isCollapsed: Bool { traitCollection.horizontalSizeClass == .compact }
    /// Collapsed, whether the secondary is the column shown.
    public private(set) var isShowingSecondaryWhileCollapsed = false

    public init(primary: ViewController, secondary: ViewController? = nil, id: ControllerID? = nil) {
        self.primary = primary
        self.secondary = secondary
        super.init(id: id)
        addChild(primary)
        primary.didMove(toParent: self)
        if let secondary {
            addChild(secondary)
            secondary.didMove(toParent: self)
        }
    }

    open override func loadView() {
        let root = View()
        root.identifier = "split"
        divider.identifier = "splitDivider"
        divider.border = .none
        root.addSubview(divider)
        view = root
    }

    open override func viewDidLoad() {
        super.viewDidLoad()
        arrangeColumns()
    }

    open override func traitCollectionDidChange(_ previous: TraitCollection?) {
        super.traitCollectionDidChange(previous)
        if isViewLoaded, previous?.horizontalSizeClass != traitCollection.horizontalSizeClass { arrangeColumns() }
    }

    open override func viewDidLayoutSubviews() {
        super.viewDidLayoutSubviews()
        let b = view.bounds
        if isCollapsed {
            divider.frame = .zero
            shownColumn.viewIfLoaded?.frame = b
            return
        }
        let w = min(primaryColumnWidth, b.width / 2)
        primary.viewIfLoaded?.frame = Rect(x: 0, y: 0, width: w, height: b.height)
        divider.frame = Rect(x: w, y: 0, width: 1, height: b.height)
        secondary?.viewIfLoaded?.frame = Rect(x: w + 1, y: 0, width: max(0, b.width - w - 1), height: b.height)
    }

    /// The one column shown while collapsed.
    private var shownColumn: ViewController {
        isShowingSecondaryWhileCollapsed ? (secondary ?? primary) : primary
    }

    /// Puts the views of the columns shown in the tree, and takes the others out.
    private func arrangeColumns() {
        let shown: [ViewController] = isCollapsed ? [shownColumn] : [primary] + (secondary.map { [$0] } ?? [])
        for c in children where !shown.contains(where: { $0 === c }) { c.viewIfLoaded?.removeFromSuperview() }
        for c in shown where c.viewIfLoaded?.superview !== view { view.addSubview(c.view) }
        view.setNeedsLayout()
        view.layoutIfNeeded()
    }

    /// Makes `controller` the secondary column; the old one leaves the children. Collapsed,
    /// it becomes the column shown.
    public func showSecondary(_ controller: ViewController) {
        if let old = secondary, old !== controller {
            old.willMove(toParent: nil)
            old.viewIfLoaded?.removeFromSuperview()
            old.removeFromParent()
        }
        if controller.parent !== self {
            addChild(controller)
            secondary = controller
            controller.didMove(toParent: self)
        }
        secondary = controller
        isShowingSecondaryWhileCollapsed = true
        if isViewLoaded { arrangeColumns() }
    }

    /// Collapsed: back to the primary column. Expanded, both are shown already.
    public func showPrimary() {
        isShowingSecondaryWhileCollapsed = false
        if isViewLoaded { arrangeColumns() }
    }

    open override func handle(_ request: Request, from child: ViewController) -> Reply? {
        guard request.name == StandardRequest.back, isCollapsed, isShowingSecondaryWhileCollapsed else { return nil }
        showPrimary()
        return Reply(status: .ok)
    }
}

extension SplitViewController: ShowTarget {
    /// A split view controller shows details (UIKit's overrides `showDetailViewController`);
    /// `show` goes on up, or to a navigation controller in the primary column first.
    public func canPerformShow(_ action: ShowAction) -> Bool { action == .showDetail }

    public func performShow(_ action: ShowAction, _ controller: ViewController, sender: Any?) {
        showSecondary(controller)
    }
}
