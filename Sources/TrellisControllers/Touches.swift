import TrellisCanvas
import TrellisViews
import TrellisWire

/// Where each pointer's touches go for the rest of its gesture.
struct TouchRoutingState {
    enum Target {
        case view(View)
        case child(ViewController, viewport: View)
    }
    var targets: [UInt32: Target] = [:]
    /// Set by the end of the responder chain while a delivery is under way.
    var unhandled = false
}

extension ViewController {
    /// Routes one touch that arrived for this controller — from the compositor at the
    /// root, from the parent below it — with its location in this controller's surface
    /// (the root view's visible area). Returns false when nothing in this tree handled
    /// it, so that the parent continues the responder chain in its own tree (S0-3).
    ///
    /// A touch that begins is hit-tested; the view it hits keeps the pointer until it
    /// ends (UIKit's rule). When the hit view is a child's viewport, the touch goes to
    /// the child as a message, in the child's coordinates, and the child hit-tests its
    /// own tree: a container never looks inside its child's views (S2-5).
    func routeTouch(_ input: TouchInput) -> Bool {
        let root = view
        root.layoutIfNeeded()
        let point = Point(x: Int(input.x) + root.bounds.minX, y: Int(input.y) + root.bounds.minY)
        if input.phase == .began {
            guard let hit = root.hitTest(point) else { return false }
            if hit !== root, let child = hit.owner as? ViewController {
                touchRouting.targets[input.pointer] = .child(child, viewport: hit)
            } else {
                touchRouting.targets[input.pointer] = .view(hit)
                hit.focusForClick()
            }
        }
        guard let target = touchRouting.targets[input.pointer] else {
            window?.route(kind: "touch", from: "compositor", to: id, outcome: .dropped,
                          reason: "\(input.phase) for pointer \(input.pointer), which has no touch that began")
            return false
        }
        if input.phase == .ended || input.phase == .cancelled { touchRouting.targets[input.pointer] = nil }
        let touch = Touch(
            phase: Touch.Phase(input.phase), pointer: input.pointer, tapCount: Int(input.tapCount),
            location: Point(x: Int(input.x), y: Int(input.y)), timestamp: input.timestamp)
        switch target {
        case .view(let v):
            return deliverTouches([touch], from: v)
        case .child(let child, let viewport):
            let local = viewport.childCoordinates(of: point, from: root)
            var forwarded = input
            forwarded.x = Int32(local.x)
            forwarded.y = Int32(local.y)
            if send(.touch(forwarded), to: child) == nil { return true }
            // The child's tree did not take it: on up the chain from the viewport's superview.
            guard let above = viewport.superview else { return false }
            return deliverTouches([touch], from: above)
        }
    }

    /// Delivers to `responder` and reports whether the chain ended unhandled.
    private func deliverTouches(_ touches: Set<Touch>, from responder: Responder) -> Bool {
        let outer = touchRouting.unhandled
        touchRouting.unhandled = false
        responder.deliver(touches)
        let handled = !touchRouting.unhandled
        touchRouting.unhandled = outer
        return handled
    }
}

extension Touch.Phase {
    init(_ p: TouchInput.Phase) {
        switch p {
        case .began: self = .began
        case .moved: self = .moved
        case .ended: self = .ended
        case .cancelled: self = .cancelled
        }
    }
}

extension View {
    /// `point`, in `root`'s coordinates, where the child whose viewport this is sees it:
    /// its surface's, whose 0,0 is the viewport's visible top-left — what a touch or a
    /// wheel forwarded into a child's tree carries.
    func childCoordinates(of point: Point, from root: View?) -> Point {
        let local = convert(point, from: root)
        return Point(x: local.x - bounds.minX, y: local.y - bounds.minY)
    }

    /// The way back: `point` as that child sees it, in `root`'s coordinates (nil: the
    /// window's) — where a modal above finds an input sent to the child beneath.
    func point(fromChildCoordinates point: Point, to root: View?) -> Point {
        convert(Point(x: point.x + bounds.minX, y: point.y + bounds.minY), to: root)
    }
}
