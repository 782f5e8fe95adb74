import TrellisCanvas
import TrellisLog
import TrellisViews
import TrellisWire

/// Input at the root of the window: touches routed from the root down.
extension Window {
    /// One touch at a screen point, routed from the root down (DESIGN: no shortcut
    /// past the containers). Returns whether anything handled it.
    @discardableResult
    public func touch(_ phase: TouchInput.Phase, at point: Point, pointer: UInt32 = 0) -> Bool {
        // The topmost presented controller, if any, takes the touch (Presentation.swift).
        guard let root = inputController else { return false }
        let input = TouchInput(phase: phase, tapCount: 1, pointer: pointer, x: Int32(point.x), y: Int32(point.y), timestamp: MonotonicClock.nanoseconds())
        route(kind: "touch", from: "window", to: root.id, outcome: .delivered, reason: nil)
        return holdingKeyCommandRefresh { routeTouchFromWindow(input) }
    }

    /// A tap: began and ended at one point.
    @discardableResult
    public func tap(at point: Point, pointer: UInt32 = 0) -> Bool {
        let began = touch(.began, at: point, pointer: pointer)
        let ended = touch(.ended, at: point, pointer: pointer)
        return began || ended
    }
}
