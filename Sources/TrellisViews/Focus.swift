import TrellisCanvas

/// The top view of a tree that can hold focus: a window's root view. A view in a tree
/// without one (not in a window) cannot become first responder, as in UIKit.
@MainActor
public protocol FocusHost: AnyObject {
    var focus: FocusSystem { get }
}

/// The one focused view (first responder) of a view tree, and how it moves: by code
/// (`becomeFirstResponder`, `resignFirstResponder`), by Tab and Shift-Tab through the
/// focusable views in reading order or the order a container declares, and by a click
/// (docs/LIFECYCLE.md, "Focus").
@MainActor
public final class FocusSystem {
    /// Weak: a view leaving the tree loses focus anyway (`View.removeFromSuperview`).
    public private(set) weak var focusedView: View?
    /// Called after focus moved, with the view that had it and the one that has it.
    public var didChange: (@MainActor (_ old: View?, _ new: View?) -> Void)?

    public init() {}

    /// UIKit's order: the current first responder is asked to resign (it may refuse),
    /// then `view` must be able to take focus. True if `view` now has it.
    func focus(_ view: View) -> Bool {
        if focusedView === view { return true }
        guard view.isFocusable else { return false }
        if let current = focusedView, !current.canResignFirstResponder { return false }
        move(to: view)
        return true
    }

    /// True if nothing has focus afterwards.
    func resign(_ view: View) -> Bool {
        guard focusedView === view else { return true }
        guard view.canResignFirstResponder else { return false }
        move(to: nil)
        return true
    }

    /// Focus leaves a view that leaves the tree or is hidden, whatever it answers: it can
    /// no longer be shown as focused nor get keys (UIKit resigns a first responder that
    /// leaves its window).
    func subtreeWillLeave(_ root: View) {
        guard let current = focusedView, current.isDescendant(of: root) else { return }
        move(to: nil)
    }

    private func move(to view: View?) {
        let old = focusedView
        focusedView = view
        old?.setNeedsDisplay()
        view?.setNeedsDisplay()
        old?.focusDidChange()
        view?.focusDidChange()
        didChange?(old, view)
    }

    /// The views Tab visits in `root`'s tree, in order (see `View.focusOrder`).
    public func focusableViews(in root: View) -> [View] {
        FocusOrder.views(in: root)
    }

    /// Tab (`forward`) or Shift-Tab: focus moves to the next (previous) focusable view
    /// after the focused one, wrapping around; with nothing focused, to the first (last).
    /// False if there is no focusable view or the focused one would not resign.
    @discardableResult
    public func moveFocus(forward: Bool, in root: View) -> Bool {
        let order = focusableViews(in: root)
        guard !order.isEmpty else { return false }
        let target: View
        if let current = focusedView, let i = order.firstIndex(where: { $0 === current }) {
            target = order[(i + (forward ? 1 : order.count - 1)) % order.count]
        } else {
            target = forward ? order[0] : order[order.count - 1]
        }
        return focus(target)
    }
}

/// The order Tab visits focusable views in.
///
/// Reading order: by the top-left corner of each view on screen, row first, then column.
/// A view with a `focusOrder` is visited as one unit, placed by its own corner, and its
/// views in the order it lists them — each listed view itself if it is focusable, then
/// the focusable views inside it, in reading order. Hidden and non-interactive subtrees
/// are skipped, as they are by hit-testing.
@MainActor
enum FocusOrder {
    static func views(in root: View) -> [View] {
        guard root.isShownForFocus else { return [] }
        if let declared = root.focusOrder {
            var out: [View] = []
            if root.isFocusable { out.append(root) }
            for v in declared where v.isDescendant(of: root) && v !== root {
                for found in views(in: v) where !out.contains(where: { $0 === found }) { out.append(found) }
            }
            return out
        }
        var units: [(at: Point, views: [View])] = []
        collect(under: root, into: &units)
        let sorted = units.enumerated().sorted { a, b in
            (a.element.at.y, a.element.at.x, a.offset) < (b.element.at.y, b.element.at.x, b.offset)
        }
        return (root.isFocusable ? [root] : []) + sorted.flatMap(\.element.views)
    }

    private static func collect(under view: View, into units: inout [(at: Point, views: [View])]) {
        for sub in view.subviews where sub.isShownForFocus {
            let corner = sub.convert(sub.bounds.origin, to: nil)
            if sub.focusOrder != nil {
                units.append((corner, views(in: sub)))
                continue
            }
            if sub.isFocusable { units.append((corner, [sub])) }
            collect(under: sub, into: &units)
        }
    }
}

extension View {
    /// The focus system of the tree this view is in, if its top view holds one.
    public var focusSystem: FocusSystem? {
        var v = self
        while let s = v.superview { v = s }
        return (v as? FocusHost)?.focus
    }

    /// True while this view is its window's first responder.
    public var isFocused: Bool { focusSystem?.focusedView === self }
    /// UIKit's name for the same.
    public var isFirstResponder: Bool { isFocused }

    /// Asks for focus: true if this view has it afterwards. Fails when the view cannot be
    /// focused (`canBecomeFocused`, hidden, not interactive, not in a window) or the
    /// focused view will not resign.
    @discardableResult
    public func becomeFirstResponder() -> Bool {
        focusSystem?.focus(self) ?? false
    }

    /// Gives focus up: true unless `canResignFirstResponder` refused. Nothing is focused
    /// afterwards (no other view is chosen, as in UIKit).
    @discardableResult
    public func resignFirstResponder() -> Bool {
        focusSystem?.resign(self) ?? true
    }

    /// Focusable now: it says it can be, and it and its ancestors are shown and interactive.
    var isFocusable: Bool {
        guard canBecomeFocused else { return false }
        var v: View? = self
        while let current = v {
            if !current.isShownForFocus { return false }
            v = current.superview
        }
        return focusSystem != nil
    }

    fileprivate var isShownForFocus: Bool { !isHidden && isUserInteractionEnabled }
}

extension View {
    /// A click that begins on this view focuses the nearest view from here up to its
    /// controller's root view that can be focused, if any; focus stays where it was
    /// otherwise (UIKit and Textual alike keep it on a click elsewhere).
    public func focusForClick() {
        var v: View? = self
        while let current = v {
            if current.isFocusable {
                current.becomeFirstResponder()
                return
            }
            if current.owner != nil { return }
            v = current.superview
        }
    }
}
