import Foundation
import TrellisCanvas
import TrellisLog
import TrellisViews
import TrellisWire

/// Animations declared by containers (a push's slide, seed 003's slide-up, a page
/// scroll; S3-4).
///
/// As in Core Animation, the model changes at once — a frame set inside an animation
/// block *is* the new frame, layout and hit-testing see it — and what is shown moves
/// from the old frame to the new one over the duration. Only viewports (controller
/// surfaces) are animated, which is what a compositor can move without asking the
/// controller to redraw.
///
/// Who shows the motion depends on the window:
/// - **A compositor** (`presentsElsewhere`, a host process): each moving viewport is
///   declared to it once (`undeclared`, then `declared`) and the compositor interpolates
///   at its own frame rate; the animation's completions run when the compositor says
///   every motion of it is over (`finished`). One whose viewports never reached the
///   screen (none moved, or none is shown) completes when its time is up, on `tick`.
/// - **Nobody else** (an in-process window, as the controller tests use): the window
///   shows `presentationFrame` at each composition, and completions run when the time
///   is up, on `tick`, so a test drives time itself.
/// Both interpolate with `Animation.Curve` (TrellisWire), the one easing there is.
public final class Animator {
    /// One viewport's motion.
    public struct Motion {
        public let viewport: View
        public let from: Rect
        public let to: Rect
        public let duration: Double
        public let curve: Animation.Curve
        let start: Double
        /// The `animate` call this motion belongs to.
        public let group: Int
    }

    /// One `animate` call: its completions run together, once.
    private struct Group {
        let deadline: Double
        var completions: [(Bool) -> Void]
        /// Motions declared to the compositor and not yet finished there; nil while not
        /// declared (in-process windows never declare: their groups end by time).
        var outstanding: Int?
    }

    private var running: [ObjectIdentifier: Motion] = [:]
    private var groups: [Int: Group] = [:]
    private var nextGroup = 0
    /// Seconds; monotonic. Tests replace it with a clock they advance.
    public var now: () -> Double = { Double(MonotonicClock.nanoseconds()) / 1e9 }
    /// True in a host process, whose compositor shows the motion (see the type's comment).
    public var presentsElsewhere = false
    /// Counts changes of what runs, for a window that keeps its arrangement between frames.
    public private(set) var changes: UInt64 = 0

    public init() {}

    /// Runs `changes` now; viewports inside `root`'s domain whose frame changed are
    /// shown moving over `duration` with `curve`; `completion(true)` runs after it.
    public func animate(
        in root: View, duration: Double, curve: Animation.Curve = .easeInOut, _ changes: () -> Void,
        completion: ((Bool) -> Void)? = nil
    ) {
        let before = Self.viewportFrames(in: root)
        changes()
        root.layoutIfNeeded()
        guard duration > 0 else {
            completion?(true)
            return
        }
        let after = Self.viewportFrames(in: root)
        let t = now()
        nextGroup += 1
        let group = nextGroup
        for (id, entry) in after {
            let from = before[id]?.1 ?? entry.1
            if from != entry.1 {
                running[id] = Motion(viewport: entry.0, from: from, to: entry.1, duration: duration, curve: curve, start: t, group: group)
            }
        }
        groups[group] = Group(deadline: t + duration, completions: completion.map { [$0] } ?? [], outstanding: presentsElsewhere ? nil : 0)
        self.changes &+= 1
    }

    /// Ends what is over: in-process, the motions and groups whose time has come; with a
    /// compositor, the groups that had nothing to declare and whose time has come. Runs
    /// their completions, oldest first; returns whether anything is still running.
    @discardableResult
    public func tick() -> Bool {
        let t = now()
        if !presentsElsewhere {
            let before = running.count
            running = running.filter { t < $0.value.start + $0.value.duration }
            if running.count != before { changes &+= 1 }
        }
        for g in groups.keys.sorted() {
            guard let group = groups[g], group.outstanding == 0, group.deadline <= t else { continue }
            finish(g)
        }
        return isAnimating
    }

    public var isAnimating: Bool { !running.isEmpty || !groups.isEmpty }

    /// True while the window itself must show motion frame by frame: in-process only.
    public var isInterpolating: Bool { !presentsElsewhere && !running.isEmpty }

    /// When `tick` next has something to end by time, if anything (seconds, as `now`).
    public var nextDeadline: Double? {
        groups.values.filter { $0.outstanding == 0 }.map(\.deadline).min()
    }

    /// Whether `viewport` is moving in an animation not yet over (with a compositor:
    /// until the compositor says so).
    public func isMoving(_ viewport: View) -> Bool {
        running[ObjectIdentifier(viewport)] != nil
    }

    /// `viewport`'s motion, while it has not been declared to the compositor.
    public func undeclared(_ viewport: View) -> Motion? {
        guard presentsElsewhere, let m = running[ObjectIdentifier(viewport)], groups[m.group]?.outstanding == nil else { return nil }
        return m
    }

    /// True while an animation has not been declared to the compositor yet.
    public var hasUndeclared: Bool { groups.values.contains { $0.outstanding == nil } }

    /// The window declared `counts[group]` motions of each undeclared group to the
    /// compositor; a group it declared none of (nothing of it on the screen) ends by time.
    public func declared(_ counts: [Int: Int]) {
        for g in groups.keys where groups[g]?.outstanding == nil {
            groups[g]?.outstanding = counts[g] ?? 0
        }
    }

    /// The compositor showed one declared motion of `group` to its end (or could not
    /// show it: the model is final either way); the last one ends the group.
    public func finished(group: Int) {
        guard let outstanding = groups[group]?.outstanding, outstanding > 0 else { return }
        groups[group]?.outstanding = outstanding - 1
        if outstanding == 1 { finish(group) }
    }

    private func finish(_ group: Int) {
        guard let g = groups.removeValue(forKey: group) else { return }
        let before = running.count
        running = running.filter { $0.value.group != group }
        if running.count != before || presentsElsewhere { changes &+= 1 }
        for c in g.completions { c(true) }
    }

    /// Where `viewport` shows now, in its superview's coordinates: in-process, eased
    /// between its frames; with a compositor, its frame (the compositor shows the motion).
    public func presentationFrame(of viewport: View) -> Rect {
        guard !presentsElsewhere, let r = running[ObjectIdentifier(viewport)] else { return viewport.frame }
        let p = (now() - r.start) / r.duration
        return Rect(r.curve.interpolate(from: CellRect(r.from), to: CellRect(r.to), progress: p))
    }

    private static func viewportFrames(in root: View) -> [ObjectIdentifier: (View, Rect)] {
        var out: [ObjectIdentifier: (View, Rect)] = [:]
        func walk(_ v: View) {
            for s in v.subviews {
                if s.hasOwner { out[ObjectIdentifier(s)] = (s, s.frame) } else { walk(s) }
            }
        }
        walk(root)
        return out
    }
}
