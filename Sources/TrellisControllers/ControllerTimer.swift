/// A controller's timer: fires on the main actor after `interval`, once or repeatedly,
/// until it is invalidated — by `invalidate()`, by the controller's release, or, if
/// asked, by the controller's `viewDidDisappear`.
///
/// It fires between the process's other work, never inside it: never in the middle of
/// a callback, and never while a call to another process waits for its answer
/// (docs/TRANSPORT.md, "One call") — it runs as a main-actor task, which a call's wait
/// does not serve. A change it makes to a view draws itself (`ViewChanges`). Foundation's
/// `Timer` needs a run loop, which a Trellis host does not run; this is the timer to use
/// (Textual's `set_interval`, UIKit's `Timer` on the main run loop). Rules in
/// docs/LIFECYCLE.md, "Timers".
@MainActor
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
    private let action: @MainActor (ControllerTimer) -> Void
    private var task: Task<Void, Never>?

    /// True until it is invalidated or, not repeating, has fired.
    public var isValid: Bool { task != nil }

    fileprivate init(
        controller: ViewController, interval: Duration, repeats: Bool, lifetime: Lifetime,
        action: @escaping @MainActor (ControllerTimer) -> Void
    ) {
        self.controller = controller
        self.interval = max(interval, .milliseconds(1))
        self.repeats = repeats
        self.lifetime = lifetime
        self.action = action
        task = Task { @MainActor [weak self] in await self?.run() }
    }

    private func run() async {
        let clock = ContinuousClock()
        var next = clock.now + interval
        while task != nil {
            try? await clock.sleep(until: next)
            guard task != nil, !Task.isCancelled else { return }
            // The controller is gone: so is the timer, which was its.
            guard controller != nil else { return invalidate() }
            fireCount += 1
            if !repeats { task = nil }
            action(self)
            // A timer that fell behind (the process was busy or stopped) fires once, not
            // once for every interval it missed.
            next = max(next + interval, clock.now)
        }
    }

    /// Stops it: it fires no more. Idempotent.
    public func invalidate() {
        task?.cancel()
        task = nil
    }

    /// The controller's `viewDidDisappear` ran: its `untilDisappear` timers end.
    static func controllerDidDisappear(_ controller: ViewController) {
        for timer in controller.timers where timer.lifetime == .untilDisappear { timer.invalidate() }
        controller.timers.removeAll { !$0.isValid }
    }
}

extension ViewController {
    /// Fires `action` on the main actor after `interval`, and every `interval` after that
    /// if `repeats`, until the returned timer is invalidated, this controller is
    /// released, or — with `.untilDisappear` — it disappears.
    @discardableResult
    public func scheduleTimer(
        after interval: Duration, repeats: Bool = false, lifetime: ControllerTimer.Lifetime = .controller,
        _ action: @escaping @MainActor (ControllerTimer) -> Void
    ) -> ControllerTimer {
        let timer = ControllerTimer(controller: self, interval: interval, repeats: repeats, lifetime: lifetime, action: action)
        timers.removeAll { !$0.isValid }
        timers.append(timer)
        return timer
    }
}
