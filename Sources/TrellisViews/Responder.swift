import Synchronization
import TrellisCanvas
import TrellisWire

/// One finger (or mouse pointer) on the screen, as a view sees it.
///
/// A touch is delivered to the view it began on for its whole life (UIKit's rule), even
/// when it moves outside that view. `location` is in the coordinates of the surface the
/// touch was delivered on (the controller's root view); `location(in:)` converts it.
public struct Touch: Hashable, Sendable {
    public enum Phase: Sendable, Hashable { case began, moved, ended, cancelled }
    public var phase: Phase
    /// Which pointer: touches with the same id belong to one gesture.
    public var pointer: UInt32
    public var tapCount: Int
    /// In the coordinates of the root view of the tree that received it.
    public var location: Point
    public var timestamp: UInt64

    public init(phase: Phase, pointer: UInt32 = 0, tapCount: Int = 1, location: Point, timestamp: UInt64 = 0) {
        self.phase = phase
        self.pointer = pointer
        self.tapCount = tapCount
        self.location = location
        self.timestamp = timestamp
    }

    /// The touch's location in `view`'s bounds coordinates. `location` is relative to
    /// the root of `view`'s controller tree — its layout root — so the answer is the same
    /// whether the controller runs in-process or behind a link.
    public func location(in view: View) -> Point {
        view.convert(location, from: view.layoutRoot)
    }
}

/// An object that can handle touches and pass what it does not handle on.
///
/// As in UIKit, the default implementation of every touch method forwards to `next`, so a
/// subclass that overrides one handles it and one that does not lets it travel up the
/// responder chain (view → its controller, if it is the controller's root view →
/// superview …). When the chain runs out inside a controller whose parent lives behind a
/// link, the controller layer carries the touch across the link into the parent's tree
/// (S0-3); `unhandledTouches` is where the chain ends.
open class Responder {
    public init() {}

    /// The next responder in the chain; `nil` ends it.
    open var next: Responder? { nil }

    open func touchesBegan(_ touches: Set<Touch>) { forward(touches) }
    open func touchesMoved(_ touches: Set<Touch>) { forward(touches) }
    open func touchesEnded(_ touches: Set<Touch>) { forward(touches) }
    open func touchesCancelled(_ touches: Set<Touch>) { forward(touches) }

    /// Called on the last responder of the chain when nothing handled the touches.
    /// The controller layer overrides it to continue in the parent's tree.
    open func unhandledTouches(_ touches: Set<Touch>) {}

    private func forward(_ touches: Set<Touch>) {
        if let next { next.deliver(touches) } else { unhandledTouches(touches) }
    }

    // MARK: The mouse wheel

    /// The wheel turned over this responder (`deltaY` notches down, `deltaX` right):
    /// return true if it scrolled something. The default says no, and the wheel goes on
    /// up the chain — to an outer scroll view, when this one is at its edge.
    open func scrollWheel(_ input: ScrollInput) -> Bool { false }

    /// Offers the wheel to this responder and those after it, until one scrolls.
    public func deliverScroll(_ input: ScrollInput) -> Bool {
        var responder: Responder? = self
        while let r = responder {
            if r.scrollWheel(input) { return true }
            responder = r.next
        }
        return false
    }

    // MARK: Presses (keys)

    /// The keys this responder answers with an action. Offered each press before
    /// `pressesBegan`; see `KeyCommand`.
    open var keyCommands: [KeyCommand] { [] }

    /// As with touches, the default passes the presses on to `next`: override to handle
    /// a key, and call `super` for keys you do not handle.
    open func pressesBegan(_ presses: Set<Press>) { forward(presses) }
    open func pressesEnded(_ presses: Set<Press>) { forward(presses) }

    /// Called on the last responder of the chain when nothing handled the presses.
    open func unhandledPresses(_ presses: Set<Press>) {}

    private func forward(_ presses: Set<Press>) {
        if let next { next.deliver(presses) } else { endPressChain(presses) }
    }

    /// Offers the presses to this responder's key commands, then to the press method
    /// for their phase; what neither handles travels on up the chain. Commands fire on a
    /// press and its repeats, never on a release (docs/LIFECYCLE.md, "Keys").
    public func deliver(_ presses: Set<Press>) {
        guard let first = presses.first else { return }
        if let command = keyCommands.first(where: { $0.matches(first) }) {
            command.action()
            return
        }
        switch first.phase {
        case .began: pressesBegan(presses)
        case .ended: pressesEnded(presses)
        }
    }

    /// Ends the chain here: records that nothing handled the presses (see
    /// `deliverReportingHandled`), then calls `unhandledPresses`. The controller layer
    /// calls it where a controller's part of the chain ends.
    public func endPressChain(_ presses: Set<Press>) {
        Responder.delivery?.reachedEnd.store(true, ordering: .relaxed)
        unhandledPresses(presses)
    }

    /// Delivers `presses` from this responder and returns whether anything handled them
    /// before the chain ended.
    public func deliverReportingHandled(_ presses: Set<Press>) -> Bool {
        let delivery = PressDelivery()
        Responder.$delivery.withValue(delivery) { deliver(presses) }
        return !delivery.reachedEnd.load(ordering: .relaxed)
    }

    /// The reporting delivery under way, innermost first: task-local, not a static, since a
    /// delivery is synchronous on its tree's thread and trees on other threads deliver apart.
    @TaskLocal private static var delivery: PressDelivery?

    /// Calls the touch method for the touches' phase.
    public func deliver(_ touches: Set<Touch>) {
        guard let phase = touches.first?.phase else { return }
        switch phase {
        case .began: touchesBegan(touches)
        case .moved: touchesMoved(touches)
        case .ended: touchesEnded(touches)
        case .cancelled: touchesCancelled(touches)
        }
    }
}

/// One `deliverReportingHandled`: whether its chain reached its end.
private final class PressDelivery: Sendable {
    let reachedEnd = Atomic<Bool>(false)
}
