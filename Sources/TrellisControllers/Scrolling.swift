import TrellisCanvas
import TrellisLog
import TrellisViews
import TrellisWire

/// The mouse wheel (docs/LIFECYCLE.md, "The mouse wheel"): a `scroll` message goes where
/// a touch would begin — to the view under the pointer, hit-tested tree by tree, into a
/// child's tree as a message — and from there up the responder chain to the first view
/// that scrolls that way (`Responder.scrollWheel`). A scroll view at its edge passes it on,
/// so an outer one scrolls; what nothing scrolls is declined, and the parent goes on up
/// its own tree from the child's viewport, as touches do.
extension ViewController {
    func routeScroll(_ input: ScrollInput) -> Bool {
        let root = view
        root.layoutIfNeeded()
        let point = Point(x: Int(input.x) + root.bounds.minX, y: Int(input.y) + root.bounds.minY)
        guard let hit = root.hitTest(point) else { return false }
        guard hit !== root, let child = hit.owner as? ViewController else { return hit.deliverScroll(input) }
        let local = hit.childCoordinates(of: point, from: root)
        var forwarded = input
        forwarded.x = Int32(local.x)
        forwarded.y = Int32(local.y)
        if send(.scroll(forwarded), to: child) == nil { return true }
        return hit.superview?.deliverScroll(input) ?? false
    }
}

extension Window {
    /// The wheel turned `deltaY` notches down (`deltaX` right) with the pointer at
    /// `point`, as the compositor's `scroll` message is delivered. True if something
    /// scrolled.
    @discardableResult
    public func scroll(deltaY: Int = 0, deltaX: Int = 0, at point: Point) -> Bool {
        // The topmost presented controller, if any, takes the wheel (Presentation.swift).
        guard let root = inputController else { return false }
        let input = ScrollInput(
            deltaX: Int32(deltaX), deltaY: Int32(deltaY), x: Int32(point.x), y: Int32(point.y), timestamp: MonotonicClock.nanoseconds())
        route(kind: "scroll", from: "window", to: root.id, outcome: .delivered, reason: nil)
        guard root !== rootViewController else { return root.scrollMessage(input) }
        return root.routeScroll(atWindowPoint: point, input)
    }
}
