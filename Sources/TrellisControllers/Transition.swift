import TrellisCanvas
import TrellisViews
import TrellisWire

/// Misuse of the containment API, with what to do about it.
public struct ContainmentError: Error, Equatable, CustomStringConvertible {
    public let message: String
    public var description: String { message }
}

/// Options of `transition(from:to:…)`; the curve is the compositor's to apply.
public struct TransitionOptions: OptionSet, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    public static let curveEaseInOut = TransitionOptions([])
    public static let curveLinear = TransitionOptions(rawValue: 1 << 0)
}

extension ViewController {
    /// True while a `transition(from:to:…)` this controller runs animates: a container
    /// leaves the frames of the two children to the animation until it ends.
    public var isRunningTransition: Bool { appearance.transitionsUnderWay > 0 }

    /// Swaps one child's view for another's (UIKit's
    /// `transition(from:to:duration:options:animations:completion:)`, S3-4).
    ///
    /// Both must be children of this controller, `from`'s view must be in this
    /// controller's tree, and this controller must forward appearance automatically (UIKit
    /// raises for one that forwards by hand); otherwise nothing happens and the error says
    /// why. `to`'s view
    /// is added beside `from`'s (same superview, in front), `animations` run inside an
    /// animation of `duration` — frames set there are shown moving by the compositor — and
    /// when it is over `from`'s view is removed and `completion(true)` runs; the caller
    /// calls `removeFromParent` and `didMove(toParent:)` there, as in UIKit. If this
    /// controller is visible, `to` gets will/did-appear and `from` will/did-disappear
    /// around the animation, balanced; if this controller leaves or enters the window
    /// before the animation ends, both follow it instead. When the animation ends this
    /// controller's view is laid out again, so a resize made meanwhile is not lost.
    /// `to` hears each phase before `from` (docs/LIFECYCLE.md, "The order of a swap").
    public func transition(
        from: ViewController, to: ViewController, duration: Double, options: TransitionOptions = [],
        animations: (() -> Void)?, completion: ((Bool) -> Void)?
    ) throws(ContainmentError) {
        try transition(from: from, to: to, duration: duration, options: options, order: .appearingFirst, animations: animations, completion: completion)
    }

    /// `transition(from:to:…)` with the order a built-in container tells its two children in.
    func transition(
        from: ViewController, to: ViewController, duration: Double, options: TransitionOptions = [], order: SwapOrder,
        animations: (() -> Void)?, completion: ((Bool) -> Void)?
    ) throws(ContainmentError) {
        guard from.parent === self, to.parent === self else {
            let stray = [from, to].filter { $0.parent !== self }.map(\.id.rawValue).joined(separator: " and ")
            throw ContainmentError(message: "transition(from: \(from.id), to: \(to.id)): \(stray) \(stray.contains(" and ") ? "are" : "is") not a child of \(id); both must be children of the controller that runs the transition (call addChild first).")
        }
        guard shouldAutomaticallyForwardAppearanceMethods else {
            throw ContainmentError(message: "transition(from: \(from.id), to: \(to.id)): \(id) forwards appearance to its children by hand (shouldAutomaticallyForwardAppearanceMethods is false), and this method forwards it itself; UIKit raises here too. Call beginAppearanceTransition/endAppearanceTransition on both and move their views yourself.")
        }
        guard from !== to else {
            throw ContainmentError(message: "transition(from:to:): from and to are the same controller \(from.id).")
        }
        guard let superview = from.viewIfLoaded?.superview, from.view.isDescendant(of: view) else {
            throw ContainmentError(message: "transition(from: \(from.id), to: \(to.id)): the view of \(from.id) is not in the view tree of \(id); add it first.")
        }
        let visible = appearanceState == .appeared || appearanceState == .appearing
        appearance.transitionsUnderWay += 1
        from.appearance.drivenByContainer = true
        to.appearance.drivenByContainer = true
        if visible { sendSwapPhase(will: true, appearing: to, disappearing: from, animated: duration > 0, order: order) }
        superview.addSubview(to.view)
        let finish: (Bool) -> Void = { [weak self] finished in
            guard let self else { return }
            // False when this controller appeared or disappeared meanwhile: the two follow
            // it already, and `from` disappears as its view leaves, if it has to.
            let driven = from.appearance.drivenByContainer && to.appearance.drivenByContainer
            from.view.removeFromSuperview()
            self.appearance.transitionsUnderWay -= 1
            // Containers keep their layout out of an animation's way (a slide sets frames
            // layout would undo); a resize meanwhile is laid out now, at its final size,
            // and before the dids, as UIKit lays out an appearing view before viewDidAppear.
            self.view.setNeedsLayout()
            self.view.layoutIfNeeded()
            if visible, driven { self.sendSwapPhase(will: false, appearing: to, disappearing: from, animated: duration > 0, order: order) }
            from.appearance.drivenByContainer = false
            to.appearance.drivenByContainer = false
            completion?(finished)
        }
        if let animator = window?.animator {
            let curve: Animation.Curve = options.contains(.curveLinear) ? .linear : .easeInOut
            animator.animate(in: view, duration: duration, curve: curve, { animations?() }, completion: finish)
        } else {
            animations?()
            finish(true)
        }
    }
}
