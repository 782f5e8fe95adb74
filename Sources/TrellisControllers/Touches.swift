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
        routeTouches([input])[0]
    }

    /// `routeTouch` for touches read together, in order, one answer each. A gesture that
    /// goes to a child in another process goes there with the phases of it read with it
    /// (a click's press and release), sent together: the child handles them in order, and
    /// nothing waits a round trip between them. A phase the child declines goes on up this
    /// tree once the child has answered them all — after the child has seen the later ones
    /// (docs/LIFECYCLE.md, "Touches read together").
    func routeTouches(_ inputs: [TouchInput]) -> [Bool] {
        var handled: [Bool] = []
        var rest = inputs[...]
        while let input = rest.popFirst() {
            guard let (target, point) = touchTarget(for: input) else {
                handled.append(false)
                continue
            }
            switch target {
            case .view(let v):
                handled.append(deliverTouches([Touch(input)], from: v))
            case .child(let child, let viewport):
                var gesture = [(input, point)]
                if child is RemoteController {
                    while let next = rest.first, next.pointer == input.pointer, next.phase != .began,
                          let last = gesture.last?.0, last.phase != .ended, last.phase != .cancelled,
                          let (_, nextPoint) = touchTarget(for: next) {
                        rest.removeFirst()
                        gesture.append((next, nextPoint))
                    }
                }
                let root = view
                let forwarded = gesture.map { input, point in
                    let local = viewport.childCoordinates(of: point, from: root)
                    var f = input
                    f.x = Int32(local.x)
                    f.y = Int32(local.y)
                    return f
                }
                for (k, taken) in send(touches: forwarded, to: child).enumerated() {
                    // The child's tree did not take it: on up the chain from the viewport's superview.
                    if taken {
                        handled.append(true)
                    } else if let above = viewport.superview {
                        handled.append(deliverTouches([Touch(gesture[k].0)], from: above))
                    } else {
                        handled.append(false)
                    }
                }
            }
        }
        return handled
    }

    /// Where `input` goes, and its location in this controller's root view: a touch that
    /// begins is hit-tested, and the view it hits keeps the pointer until it ends. Nil
    /// when nothing takes it (a touch beginning on nothing, a phase of no touch that began:
    /// logged).
    private func touchTarget(for input: TouchInput) -> (TouchRoutingState.Target, Point)? {
        let root = view
        root.layoutIfNeeded()
        let point = Point(x: Int(input.x) + root.bounds.minX, y: Int(input.y) + root.bounds.minY)
        if input.phase == .began {
            guard let hit = root.hitTest(point) else { return nil }
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
            return nil
        }
        if input.phase == .ended || input.phase == .cancelled { touchRouting.targets[input.pointer] = nil }
        return (target, point)
    }

    /// Hands `inputs`, one gesture's phases, to `child` — as `touch` messages, logged as
    /// `send` logs one — and reports which its tree handled.
    private func send(touches inputs: [TouchInput], to child: ViewController) -> [Bool] {
        guard inputs.count > 1 else { return [send(.touch(inputs[0]), to: child) == nil] }
        let previous = child.deliveringWindow
        child.deliveringWindow = loggingWindow
        let taken = child.touchMessages(inputs)
        child.deliveringWindow = previous
        for handled in taken where !handled {
            window?.route(kind: "reply", from: child.id, to: id, outcome: .delivered, reason: "\(Reply.Status.declined)")
        }
        return taken
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

extension Touch {
    /// A touch as its responders see it, at `input`'s location.
    init(_ input: TouchInput) {
        self.init(
            phase: Touch.Phase(input.phase), pointer: input.pointer, tapCount: Int(input.tapCount),
            location: Point(x: Int(input.x), y: Int(input.y)), timestamp: input.timestamp)
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
