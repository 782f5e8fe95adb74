import TrellisWire

/// A sheet the person dismisses: UIKit's swipe down is Escape here, when nothing in the
/// presented tree took it (docs/LIFECYCLE.md, "Modal presentation", "Dismissed by the person").
extension ViewController {
    /// While true, the person cannot dismiss the sheet this controller is presented in;
    /// code still can (UIKit's `isModalInPresentation`, default false).
    public var isModalInPresentation: Bool {
        get { presentationState.isModalInPresentation }
        set { presentationState.isModalInPresentation = newValue }
    }
}

extension Window {
    /// Escape, with no modifier, that the topmost presentation's tree declined: the person
    /// dismisses it if it is a sheet; true if that was handled — dismissed, or refused and
    /// the delegate told.
    func dismissesTopPresentationInteractively(_ key: KeyPress) -> Bool {
        guard key.special == .escape, key.modifiers.isEmpty, let top = (rootView as? WindowRootView)?.presentations.last else {
            return false
        }
        return top.dismissInteractively()
    }
}

extension Presentation {
    /// The person's dismissal: only of a sheet (asked as `.formSheet` or `.automatic`,
    /// adapted or not), never of an alert or a full-screen presentation, which UIKit's swipe
    /// does not dismiss either. Refused while `isModalInPresentation` or when the delegate's
    /// `presentationControllerShouldDismiss` says no, with `…DidAttemptToDismiss`; else
    /// `…WillDismiss`, the animated dismissal, and `…DidDismiss` once it has ended.
    func dismissInteractively() -> Bool {
        guard requested == .formSheet, !(original is AlertController) else { return false }
        // The delegate and the flag of the controller that was presented, whatever is shown.
        let controller = original.presentationController
        let delegate = controller.delegate
        let window = presented.window
        guard !original.isModalInPresentation, delegate?.presentationControllerShouldDismiss(controller) ?? true else {
            window?.route(kind: "presentation", from: "window", to: presented.id, outcome: .rejected,
                          reason: "Escape: \(presented.id) may not be dismissed by the person (isModalInPresentation, or its delegate said no)")
            delegate?.presentationControllerDidAttemptToDismiss(controller)
            return true
        }
        window?.route(kind: "presentation", from: "window", to: presented.id, outcome: .delivered, reason: nil, detail: "dismissed by Escape")
        delegate?.presentationControllerWillDismiss(controller)
        presented.dismiss(animated: true) { [weak delegate] in delegate?.presentationControllerDidDismiss(controller) }
        return true
    }
}
