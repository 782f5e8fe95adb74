import TrellisViews

/// A controller's timer: fires on its tree's loop after `interval`, once or repeatedly,
/// until it is invalidated — by `invalidate()`, by the controller's release, or, if
/// asked, by the controller's `viewDidDisappear`.
///
/// It fires between the process's other work, never inside it: never in the middle of
/// a callback, and never while a call to another process waits for its answer
/// (docs/TRANSPORT.md, "One call") — it runs as a turn of its tree's loop (`TreeLoop`;
/// in a host, a main-actor task), which a call's wait does not serve. A change it makes
/// to a view draws itself (`ViewTree.observe`). Foundation's `Timer` needs a run loop,
/// which a Trellis host does not run; this is the timer to use (Textual's
/// `set_interval`, UIKit's `Timer` on the main run loop). Rules in docs/LIFECYCLE.md,
/// "Timers".
public final class ControllerTimer {
    /// What, besides `invalidate()` and the controller's release, ends the timer.
    public enum Lifetime: Sendable {
        /// Only those.
        case controller
        /// Also the controller's next `viewDidDisappear`.
        case untilDisappear
    }

    public let interval: Duration
    public let repeats: Bool
    public let lifetime: Lifetime
    /// How many times it has fired.
    public private(set) var fireCount = 0
    private weak var controller: ViewController?
    private let action: (ControllerTimer) -> Void
    private let loop: TreeLoop
    private var next: ContinuousClock.Instant

    /// True until it is invalidated or, not repeating, has fired.
    public private(set) var isValid = true

    fileprivate init(
        controller: ViewController, interval: Duration, repeats: Bool, lifetime: Lifetime,
        action: @escaping (ControllerTimer) -> Void
    ) {
        self.controller = controller
        self.interval = max(interval, .milliseconds(1))
        self.repeats = repeats
        self.lifetime = lifetime
        self.action = action
        loop = controller.treeLoop
        next = ContinuousClock.now + self.interval
        loop.schedule(at: next) { [weak self] in self?.fire() }
    }

    private func fire() {
        guard isValid else { return }
        // The controller is gone: so is the timer, which was its.
        guard controller != nil else { return invalidate() }
        fireCount += 1
        if !repeats { isValid = false }
        action(self)
        guard isValid else { return }
        // A timer that fell behind (the process was busy or stopped) fires once, not
        // once for every interval it missed.
        next = max(next + interval, ContinuousClock.now)
        loop.schedule(at: next) { [weak self] in self?.fire() }
    }

    /// Stops it: it fires no more. Idempotent.
    public func invalidate() {
        isValid = false
    }

    /// The controller's `viewDidDisappear` ran: its `untilDisappear` timers end.
    static func controllerDidDisappear(_ controller: ViewController) {
        for timer in controller.timers where timer.lifetime == .untilDisappear { timer.invalidate() }
        controller.timers.removeAll { !$0.isValid }
    }
}

extension ViewController {
    /// Fires `action` on this controller's tree's loop after `interval`, and every
    /// `interval` after that if `repeats`, until the returned timer is invalidated, this
    /// controller is released, or — with `.untilDisappear` — it disappears.
    @discardableResult
    public func scheduleTimer(
        after interval: Duration, repeats: Bool = false, lifetime: ControllerTimer.Lifetime = .controller,
        _ action: @escaping (ControllerTimer) -> Void
    ) -> ControllerTimer {
        let timer = ControllerTimer(controller: self, interval: interval, repeats: repeats, lifetime: lifetime, action: action)
        timers.removeAll { !$0.isValid }
        timers.append(timer)
        return timer
    }
}
