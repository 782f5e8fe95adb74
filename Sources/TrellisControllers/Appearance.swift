import TrellisCanvas
import TrellisViews
import TrellisWire

/// Where a controller is between appearing and disappearing.
public enum AppearanceState: String, Sendable {
    case disappeared, appearing, appeared, disappearing
}

/// The appearance bookkeeping of one controller.
struct AppearanceMachine {
    var state: AppearanceState = .disappeared
    var animated = false
    /// True from `viewWillAppear` starting until the will-phase has been forwarded to
    /// the children: a child view added meanwhile gets its will from that forwarding.
    var forwardingWill = false
    /// Set on a child while its container drives its appearance by hand (a transition):
    /// moving its view then does not trigger automatic callbacks. Cleared when the
    /// container's own appearance starts to change: the child follows it from then on.
    var drivenByContainer = false
    /// On a container: how many of its `transition(from:to:…)` have not ended yet.
    var transitionsUnderWay = 0
}

extension ViewController {
    public var appearanceState: AppearanceState { appearance.state }

    /// Starts an appearance transition: `viewWillAppear` or `viewWillDisappear`.
    ///
    /// Beginning the opposite direction while a transition is under way cancels it:
    /// a controller that got `viewWillDisappear` and then `beginAppearanceTransition(true)`
    /// gets `viewWillAppear` and later `viewDidAppear`, never `viewDidDisappear`, so every
    /// did has its will (UIKit's behaviour for a cancelled interactive pop). A begin that
    /// changes nothing (appearing when appeared) is reported as unbalanced and ignored.
    public func beginAppearanceTransition(_ isAppearing: Bool, animated: Bool) {
        let next: AppearanceState
        switch (appearance.state, isAppearing) {
        case (.disappeared, true), (.disappearing, true): next = .appearing
        case (.appeared, false), (.appearing, false): next = .disappearing
        default:
            View.diagnostics("Unbalanced calls to begin/end appearance transitions for \(id): begin(\(isAppearing ? "appearing" : "disappearing")) while \(appearance.state.rawValue).")
            return
        }
        appearance.state = next
        appearance.animated = animated
        if isAppearing {
            loadViewIfNeeded()
            appearance.forwardingWill = true
            logCallback("viewWillAppear")
            viewWillAppear(animated)
            appearance.forwardingWill = false
        } else {
            logCallback("viewWillDisappear")
            viewWillDisappear(animated)
        }
        guard shouldAutomaticallyForwardAppearanceMethods else { return }
        // A transition under way drives its two children only while this controller's
        // appearance stands still: leaving or entering the window, they follow it like any
        // child in its tree, or one would stay appeared in a hidden tab (LIFECYCLE.md).
        for child in children where child.appearance.drivenByContainer { child.appearance.drivenByContainer = false }
        // Parent before children, children in the order they were added (LIFECYCLE.md).
        for child in children where child.isViewShown(in: self) && !child.appearance.drivenByContainer {
            let wants: AppearanceState = isAppearing ? .appearing : .disappearing
            guard child.appearance.state != wants, isAppearing ? child.appearance.state != .appeared : child.appearance.state != .disappeared else { continue }
            send(.appearance(Appearance(isAppearing ? .willAppear : .willDisappear, animated: animated)), to: child)
        }
    }

    /// Finishes the transition begun last: `viewDidAppear` or `viewDidDisappear`.
    public func endAppearanceTransition() {
        let animated = appearance.animated
        switch appearance.state {
        case .appearing:
            // The view is in the window and was laid out before the did (LIFECYCLE.md).
            logCallback("viewIsAppearing")
            viewIsAppearing(animated)
            appearance.state = .appeared
            logCallback("viewDidAppear")
            viewDidAppear(animated)
        case .disappearing:
            appearance.state = .disappeared
            logCallback("viewDidDisappear")
            viewDidDisappear(animated)
            if !timers.isEmpty { ControllerTimer.controllerDidDisappear(self) }
        default:
            View.diagnostics("Unbalanced calls to begin/end appearance transitions for \(id): end while \(appearance.state.rawValue).")
            return
        }
        let appeared = appearance.state == .appeared
        defer { appearanceTransitionDidEnd(appeared: appeared) }
        guard shouldAutomaticallyForwardAppearanceMethods else { return }
        for child in children where !child.appearance.drivenByContainer {
            guard child.appearance.state == (appeared ? .appearing : .disappearing) else { continue }
            send(.appearance(Appearance(appeared ? .didAppear : .didDisappear, animated: animated)), to: child)
        }
    }

    /// True when this controller's root view is inside `parent`'s view tree.
    func isViewShown(in parent: ViewController) -> Bool {
        guard let v = viewIfLoaded, let pv = parent.viewIfLoaded else { return false }
        return v.superview != nil && v.isDescendant(of: pv)
    }

    /// UIKit's `didMoveToWindow` rule: a child whose view enters a visible parent's tree
    /// appears; one whose view leaves it disappears.
    func appearanceFollowsViewMove() {
        guard let p = parent, p.shouldAutomaticallyForwardAppearanceMethods, !appearance.drivenByContainer else { return }
        let shown = isViewShown(in: p)
        switch (p.appearance.state, shown, appearance.state) {
        case (.appeared, true, .disappeared):
            p.send(.appearance(Appearance(.willAppear, animated: false)), to: self)
            p.send(.appearance(Appearance(.didAppear, animated: false)), to: self)
        case (.appearing, true, .disappeared) where !p.appearance.forwardingWill:
            // The parent's end of transition will bring the did.
            p.send(.appearance(Appearance(.willAppear, animated: p.appearance.animated)), to: self)
        case (_, false, .appeared), (_, false, .appearing):
            p.send(.appearance(Appearance(.willDisappear, animated: false)), to: self)
            p.send(.appearance(Appearance(.didDisappear, animated: false)), to: self)
        default:
            break
        }
    }
}
