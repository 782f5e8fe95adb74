import TrellisCanvas
import TrellisViews

/// What a presentation's delegate decides (UIKit's `UIAdaptivePresentationControllerDelegate`):
/// how it adapts, and whether the person may dismiss it (InteractiveDismissal.swift).
public protocol AdaptivePresentationControllerDelegate: AnyObject {
    /// The style to show the presentation in while `traitCollection` is horizontally
    /// compact: `.fullScreen` or `.overFullScreen`, or `.none` to keep the style asked
    /// for; anything else counts as `.none`, as UIKit takes an invalid answer. The default
    /// is the terminal's own adaptation, `.fullScreen`.
    func adaptivePresentationStyle(for controller: PresentationController, traitCollection: TraitCollection) -> ModalPresentationStyle
    /// The controller to show in place of the presented one when the presentation begins in
    /// the adapted `style` — the presented controller in a `NavigationController`, say, or
    /// another altogether; nil (the default) shows the presented controller. Asked only when
    /// a presentation begins adapted, never when it crosses the boundary while shown.
    func presentationController(_ controller: PresentationController, viewControllerForAdaptivePresentationStyle style: ModalPresentationStyle) -> ViewController?
    /// Whether the person may dismiss the sheet (Escape); default true. Not asked when code dismisses it.
    func presentationControllerShouldDismiss(_ controller: PresentationController) -> Bool
    /// The person's dismissal begins; not called when code dismisses it.
    func presentationControllerWillDismiss(_ controller: PresentationController)
    /// The person's dismissal ended; not called when code dismisses it.
    func presentationControllerDidDismiss(_ controller: PresentationController)
    /// The person tried to dismiss it and was refused (`isModalInPresentation`, or
    /// `presentationControllerShouldDismiss` said no): say why, for example.
    func presentationControllerDidAttemptToDismiss(_ controller: PresentationController)
}

extension AdaptivePresentationControllerDelegate {
    public func adaptivePresentationStyle(for controller: PresentationController, traitCollection: TraitCollection) -> ModalPresentationStyle {
        .fullScreen
    }
    public func presentationController(_ controller: PresentationController, viewControllerForAdaptivePresentationStyle style: ModalPresentationStyle) -> ViewController? {
        nil
    }
    public func presentationControllerShouldDismiss(_ controller: PresentationController) -> Bool { true }
    public func presentationControllerWillDismiss(_ controller: PresentationController) {}
    public func presentationControllerDidDismiss(_ controller: PresentationController) {}
    public func presentationControllerDidAttemptToDismiss(_ controller: PresentationController) {}
}

/// A controller's presentation as UIKit's `UIPresentationController` shows it: who takes
/// part, the style it is shown in now, and the delegate that decides how it adapts to a
/// compact width (docs/LIFECYCLE.md, "Modal presentation", "Adaptation"). Made on first
/// access to `ViewController.presentationController`, before or during a presentation.
public final class PresentationController {
    public weak var delegate: AdaptivePresentationControllerDelegate?
    public private(set) unowned var presentedViewController: ViewController

    init(presented: ViewController) {
        presentedViewController = presented
    }

    /// The controller the presentation covers, while it is presented.
    public var presentingViewController: ViewController? { presentedViewController.presentingViewController }

    /// The style the presented controller is shown in: the one asked for, or what it
    /// adapted to. While it is not presented, the one it would be presented in.
    public var presentationStyle: ModalPresentationStyle {
        presentedViewController.presentationState.presentedBy?.style ?? presentedViewController.modalPresentationStyle.resolved
    }

    /// The style a presentation asked in `requested` is shown in under `traits`: a form
    /// sheet in a compact width covers the window, unless the delegate says `.none`; the
    /// other styles, and an alert (UIKit's alerts keep their look everywhere), never adapt.
    func adaptedStyle(_ requested: ModalPresentationStyle, for traits: TraitCollection) -> ModalPresentationStyle {
        guard requested == .formSheet, traits.horizontalSizeClass == .compact, !(presentedViewController is AlertController) else {
            return requested
        }
        let answer = delegate?.adaptivePresentationStyle(for: self, traitCollection: traits) ?? .fullScreen
        return answer == .fullScreen || answer == .overFullScreen ? answer : requested
    }

    /// What to show for a presentation that begins in `style`: the presented controller,
    /// or, when `style` is an adaptation, what the delegate gives in its place.
    func controllerShown(in style: ModalPresentationStyle, requested: ModalPresentationStyle) -> ViewController {
        guard style != requested, let other = delegate?.presentationController(self, viewControllerForAdaptivePresentationStyle: style),
              other !== presentedViewController
        else { return presentedViewController }
        return other
    }
}

extension ViewController {
    /// This controller's presentation controller (UIKit's `presentationController`): set
    /// its delegate before presenting to decide how the presentation adapts.
    public var presentationController: PresentationController {
        if let p = presentationState.controller { return p }
        let p = PresentationController(presented: self)
        presentationState.controller = p
        return p
    }
}

extension Presentation {
    /// Shows the presentation in the style `traits` give it; true if that changed, and the
    /// presented view is then laid out again at its new frame. An adapted style changes only
    /// where the presented view is: no controller enters or leaves the window for it.
    @discardableResult
    func adapt(to traits: TraitCollection) -> Bool {
        let style = original.presentationController.adaptedStyle(requested, for: traits)
        guard style != self.style else { return false }
        presented.window?.route(kind: "presentation", from: context?.id.rawValue ?? "window", to: presented.id, outcome: .event, reason: nil,
                                detail: "adapt \(self.style.rawValue) → \(style.rawValue)")
        self.style = style
        container.setNeedsLayout()
        return true
    }
}
