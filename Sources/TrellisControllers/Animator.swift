import Foundation
import TrellisCanvas
import TrellisLog
import TrellisViews

/// Animations declared by containers (a push's slide, seed 003's slide-up, S3-4).
///
/// As in Core Animation, the model changes at once — a frame set inside an animation
/// block *is* the new frame, layout and hit-testing see it — and what is shown moves
/// from the old frame to the new one over the duration. Showing it is the compositor's
/// job: only viewports (controller surfaces) are animated, which is what the compositor
/// can move without asking the controller to redraw. Completions run when the time is
/// up, on `tick`, so a test drives time itself.
@MainActor
public final class Animator {
    struct Running {
        let viewport: View
        let from: Rect
        let to: Rect
        let start: Double
        let duration: Double
    }
    private var running: [ObjectIdentifier: Running] = [:]
    private var completions: [(deadline: Double, block: @MainActor (Bool) -> Void)] = []
    /// Seconds; monotonic. Tests replace it with a clock they advance.
    public var now: @MainActor () -> Double = { Double(MonotonicClock.nanoseconds()) / 1e9 }

    public init() {}

    /// Runs `changes` now; viewports inside `root`'s domain whose frame changed are
    /// shown moving over `duration`; `completion(true)` runs after it.
    public func animate(
        in root: View, duration: Double, _ changes: () -> Void,
        completion: (@MainActor (Bool) -> Void)? = nil
    ) {
        let before = Self.viewportFrames(in: root)
        changes()
        root.layoutIfNeeded()
        let after = Self.viewportFrames(in: root)
        let t = now()
        if duration > 0 {
            for (id, entry) in after {
                let from = before[id]?.1 ?? entry.1
                if from != entry.1 {
                    running[id] = Running(viewport: entry.0, from: from, to: entry.1, start: t, duration: duration)
                }
            }
        }
        if let completion {
            if duration > 0 { completions.append((t + duration, completion)) } else { completion(true) }
        }
    }

    /// Runs the completions whose time has come; returns whether anything is still moving.
    @discardableResult
    public func tick() -> Bool {
        let t = now()
        running = running.filter { t < $0.value.start + $0.value.duration }
        let due = completions.filter { $0.deadline <= t }
        completions.removeAll { $0.deadline <= t }
        for c in due { c.block(true) }
        return !running.isEmpty || !completions.isEmpty
    }

    public var isAnimating: Bool { !running.isEmpty || !completions.isEmpty }

    /// Where `viewport` shows now, in its superview's coordinates (ease-in-out).
    public func presentationFrame(of viewport: View) -> Rect {
        guard let r = running[ObjectIdentifier(viewport)] else { return viewport.frame }
        let p = min(1, max(0, (now() - r.start) / r.duration))
        let e = p * p * (3 - 2 * p)
        func mix(_ a: Int, _ b: Int) -> Int { a + Int((Double(b - a) * e).rounded()) }
        return Rect(
            x: mix(r.from.minX, r.to.minX), y: mix(r.from.minY, r.to.minY),
            width: mix(r.from.width, r.to.width), height: mix(r.from.height, r.to.height))
    }

    /// What runs, for placements: the viewport, from and to, the duration in ms.
    public var declared: [(viewport: View, from: Rect, to: Rect, milliseconds: UInt32)] {
        running.values.map { ($0.viewport, $0.from, $0.to, UInt32($0.duration * 1000)) }
    }

    private static func viewportFrames(in root: View) -> [ObjectIdentifier: (View, Rect)] {
        var out: [ObjectIdentifier: (View, Rect)] = [:]
        func walk(_ v: View) {
            for s in v.subviews {
                if s.owner != nil { out[ObjectIdentifier(s)] = (s, s.frame) } else { walk(s) }
            }
        }
        walk(root)
        return out
    }
}
