import TrellisViews

/// The two ways to show a controller without knowing the container (UIKit's `show` and
/// `showDetailViewController` actions).
public enum ShowAction: String, Sendable {
    /// In the primary context: a navigation controller pushes it.
    case show
    /// In a secondary (detail) context: a split view controller's detail column.
    case showDetail
}

/// A container that shows controllers for its descendants (UIKit: a controller that
/// overrides `show(_:sender:)` or `showDetailViewController(_:sender:)`).
public protocol ShowTarget: ViewController {
    /// Whether this container handles `action` now.
    func canPerformShow(_ action: ShowAction) -> Bool
    /// Shows `controller` as `action` asks; called only when `canPerformShow` said yes.
    func performShow(_ action: ShowAction, _ controller: ViewController, sender: Any?)
}

extension ViewController {
    /// The controller that handles `action` for this one (UIKit's
    /// `targetViewController(forAction:sender:)`): this controller or the nearest ancestor
    /// that can, across a presentation to the controller it covers; nil when none can.
    public func targetViewController(forAction action: ShowAction, sender: Any?) -> ViewController? {
        var c: ViewController? = self
        while let current = c {
            if let target = current as? any ShowTarget, target.canPerformShow(action) { return current }
            c = current.parent ?? current.presentationState.presentedBy?.context
        }
        return nil
    }

    /// Shows `controller` in the primary context (UIKit's `show(_:sender:)`): the nearest
    /// container that handles it does — a navigation controller pushes it; with none, it is
    /// presented modally. The caller never knows which container it is in (docs/LIFECYCLE.md).
    public func show(_ controller: ViewController, sender: Any?) {
        perform(.show, controller, sender: sender)
    }

    /// Shows `controller` in a secondary (detail) context (UIKit's
    /// `showDetailViewController(_:sender:)`): a container that handles details does; with
    /// none (a navigation controller does not), it is presented modally, as in UIKit.
    public func showDetailViewController(_ controller: ViewController, sender: Any?) {
        perform(.showDetail, controller, sender: sender)
    }

    private func perform(_ action: ShowAction, _ controller: ViewController, sender: Any?) {
        if let target = targetViewController(forAction: action, sender: sender) as? any ShowTarget {
            window?.route(kind: "show", from: id, to: target.id, outcome: .delivered, reason: nil, detail: "\(action.rawValue) \(controller.id)")
            target.performShow(action, controller, sender: sender)
            return
        }
        // UIKit presents from the window's root controller; from the root of this
        // controller's layer instead, which is the root unless something is presented — and
        // then the root would refuse, as it is presenting already.
        present(controller, animated: true)
    }
}

extension NavigationController: ShowTarget {
    /// A navigation controller pushes for `show` (UIKit's overrides `show` only). While a
    /// slide runs the push is refused and logged, as any push then is.
    public func canPerformShow(_ action: ShowAction) -> Bool { action == .show }

    public func performShow(_ action: ShowAction, _ controller: ViewController, sender: Any?) {
        push(controller, animated: true)
    }
}
