import TrellisCanvas

/// A view that stands for a tree this focus system cannot see into — the viewport of a
/// child controller whose views are hosted elsewhere (another process, or apart in this
/// one). It is one stop of the Tab order, and takes focus by asking that tree; while a
/// view there is focused, this view is the focused view here, a marker that keys go that
/// way (docs/LIFECYCLE.md, "Focus across processes").
public protocol FocusForwarding: View {
    /// Tab (`forward`) or Shift-Tab reached this stop: the first (last) focusable view of
    /// the tree behind it should take focus. True if one did.
    func enterFocus(forward: Bool) -> Bool
}

/// The one focused view (first responder) of a view tree, and how it moves: by code
/// (`becomeFirstResponder`, `resignFirstResponder`), by Tab and Shift-Tab through the
/// focusable views in reading order or the order a container declares, and by a click
/// (docs/LIFECYCLE.md, "Focus").
public final class FocusSystem {
    /// Weak: a view leaving the tree loses focus anyway (`View.removeFromSuperview`).
    public private(set) weak var focusedView: View?
    /// Called after focus moved, with the view that had it and the one that has it.
    public var didChange: ((_ old: View?, _ new: View?) -> Void)?

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

    /// Focus went into the tree behind `stop` (a view there took it: a click, code): the
    /// focus here moves to `stop`, whatever the focused view answers — the person already
    /// sees the new focus there.
    public func claim(_ stop: FocusForwarding) {
        guard focusedView !== stop else { return }
        move(to: stop)
    }

    /// Focus left this tree for another (its parent moved it on): nothing here is
    /// focused afterwards, whatever the focused view answers.
    public func clear() {
        guard focusedView != nil else { return }
        move(to: nil)
    }

    /// Focus arrives in this tree from outside, by Tab (`forward`) or Shift-Tab: the
    /// first (last) stop of `root`'s order takes it. True if one did.
    public func enter(forward: Bool, in root: View) -> Bool {
        let order = focusableViews(in: root)
        return take(forward ? order[...] : order.reversed()[...], forward: forward)
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
        old?.holdsFocus = false
        view?.holdsFocus = true
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
    /// after the focused one, wrapping around unless `wrapping` is false; with nothing
    /// focused, to the first (last). A stop that stands for another tree
    /// (`FocusForwarding`) takes it if a view there does, else the stop after it is
    /// tried. False if no stop took it, or the focused view would not resign.
    @discardableResult
    public func moveFocus(forward: Bool, in root: View, wrapping: Bool = true) -> Bool {
        let order = focusableViews(in: root)
        guard !order.isEmpty else { return false }
        var after: [View]
        if let current = focusedView, let i = order.firstIndex(where: { $0 === current }) {
            after = forward ? Array(order[(i + 1)...]) : Array(order[..<i].reversed())
            if wrapping {
                after += forward ? Array(order[..<i]) : Array(order[(i + 1)...].reversed())
            }
        } else {
            after = forward ? order : order.reversed()
        }
        return take(after[...], forward: forward)
    }

    /// Gives focus to the first of `candidates` that takes it: a plain view the first
    /// (the others are not asked, as before there were stops that can decline), a stop
    /// for another tree only if a view there took it.
    ///
    /// The view that had focus resigns before a stop's tree is asked, so that the order
    /// of the callbacks is the one a single tree gives — the old view's, then the new
    /// one's — wherever the two are. If no stop's tree takes it, focus goes back.
    private func take(_ candidates: ArraySlice<View>, forward: Bool) -> Bool {
        let old = focusedView
        for candidate in candidates {
            guard let stop = candidate as? FocusForwarding else {
                if focus(candidate) { return true }
                if focusedView == nil, let old { return restore(old, forward: forward) }
                return false
            }
            if let current = focusedView {
                guard current.canResignFirstResponder else { return false }
                move(to: nil)
            }
            if stop.enterFocus(forward: forward) {
                move(to: stop)
                return true
            }
        }
        if focusedView == nil, let old { return restore(old, forward: forward) }
        return false
    }

    /// Focus back to `old`, after no stop took it: false, as no move was made.
    private func restore(_ old: View, forward: Bool) -> Bool {
        if let stop = old as? FocusForwarding {
            if stop.enterFocus(forward: !forward) { move(to: stop) }
        } else if old.isFocusable {
            move(to: old)
        }
        return false
    }
}

/// The order Tab visits focusable views in.
///
/// Reading order: by the top-left corner of each view on screen, row first, then column.
/// A view with a `focusOrder` is visited as one unit, placed by its own corner, and its
/// views in the order it lists them — each listed view itself if it is focusable, then
/// the focusable views inside it, in reading order. Hidden and non-interactive subtrees
/// are skipped, as they are by hit-testing.
enum FocusOrder {
    static func views(in root: View) -> [View] {
        guard root.isShownForFocus else { return [] }
        if root is FocusForwarding { return [root] }
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
            // A stop for another tree: its views are not here to collect.
            if sub is FocusForwarding {
                units.append((corner, [sub]))
                continue
            }
            if sub.isFocusable { units.append((corner, [sub])) }
            collect(under: sub, into: &units)
        }
    }
}

extension View {
    /// The focus system of the tree this view is in (`ViewTree.focus`), if it has one: a
    /// window's. A view in no window cannot become first responder, as in UIKit.
    /// Kept by the tree every view holds, not found by a walk to the top and a protocol
    /// cast there: the runtime's conformance lookup was the largest single cost of a
    /// click's focus, cold (`trellis bench render`'s `tap_cold_us`).
    public var focusSystem: FocusSystem? { tree?.focus }

    /// True while this view is its window's first responder. Asked for every view drawn
    /// (`style`): the mark answers no for all but one without the walk to the top.
    public var isFocused: Bool { holdsFocus && focusSystem?.focusedView === self }
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
            if current.hasOwner { return }
            v = current.superview
        }
    }
}
