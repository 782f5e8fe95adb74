import TrellisViews
import TrellisWire

/// A presented controller in another process (docs/LIFECYCLE.md, "Presented in another
/// process"). In the presenter's process the presentation is an ordinary one whose
/// presented controller is a `RemoteController`: its viewport is placed by the
/// presentation's style, above the presenter, and the appearance, traits, size and input
/// reach the real controller as a child's do. In the presented controller's process, the
/// `ParentProxy` stands for the controller the presentation covers: it "presents" the
/// controller, whose view fills that process's window, and it has no parent.
extension RemoteController {
    /// Before its view loads: the controller in the other process is presented in `style`.
    func presentationBegins(style: ModalPresentationStyle) {
        // Its size is told again at this presentation's layout, though the viewport's is
        // the last one's: the process may be a new one, which has none.
        sentSize = nil
        viewIfLoaded?.setNeedsLayout()
        forward(.request(Request(name: ProcessChildRequest.present, payload: Array(style.rawValue.utf8))))
    }

    /// Before its will-disappear: it is being dismissed.
    func dismissalBegins() {
        forward(.request(Request(name: ProcessChildRequest.dismissing)))
    }

    /// After its dismissal: its view leaves its window there.
    func presentationEnded() {
        forward(.request(Request(name: ProcessChildRequest.presentEnd)))
    }

    /// Its process was lost (crashed, killed, hung) while it was presented: the
    /// presentation is dismissed at once, so that the controllers beneath are usable again
    /// (docs/LIFECYCLE.md: chosen). Nothing is presented again when the process returns.
    public func presentedProcessLost() {
        guard presentationState.presentedBy != nil else { return }
        window?.route(kind: "presentation", from: presentingViewController?.id.rawValue ?? "window", to: id, outcome: .event,
                      reason: "dismissed: the presented controller's process was lost")
        dismiss(animated: false)
    }

    /// Its process answers again after it was lost — while presented, it was dismissed
    /// meanwhile, and a process that only stopped (SIGSTOP, a stall) still shows it: it
    /// disappears and its presentation ends, as the presenter has it. A new process has
    /// nothing to end, and gets its saved state back.
    func replayDismissal() {
        guard presentationState.presentedBy == nil else { return }
        // First, as to a child: a restarted process restores it when its view loads, once
        // it is presented again.
        if let restorableState {
            port.post(.request(Request(name: StateRestoration.restoreRequest, payload: restorableState)), from: "-", to: id)
        }
        guard let theirs = childAppearance() else { return }
        for phase in Self.phases(from: theirs, to: .disappeared) {
            forward(.appearance(Appearance(phase, animated: false)))
        }
        forward(.request(Request(name: ProcessChildRequest.presentEnd)))
    }

    /// The presented controller asked to be dismissed (`ProcessChildRequest.dismissRequest`).
    public func dismissAsked(_ payload: [UInt8]) -> Reply {
        guard let animated = ProcessChildRequest.dismissesAnimated(payload) else {
            return Reply(status: .failed, payload: Array("a dismiss request's payload is animated or now".utf8))
        }
        // Presented, in a presented tree (a replacement shown in its place holds it), or in a
        // tree whose root stands for a parent further up: UIKit's rule for `dismiss` on it.
        guard presentedViewController != nil || presentationShowingThisTree != nil || layerRoot is ParentProxy else {
            return Reply(status: .declined, payload: Array("\(id) is not presented, nor in a presented tree, nor presents anything".utf8))
        }
        dismiss(animated: animated)
        return Reply(status: .ok)
    }
}

extension ParentProxy {
    /// The presentation this proxy holds for the presenter's process, if any — not one
    /// made in this process over the layer this proxy is the root of (an alert there).
    var hostedPresentation: Presentation? {
        guard let p = presentationState.presenting, p.forAnotherProcess else { return nil }
        return p
    }

    /// The controller this proxy stands for presented `controller` in `style` (a `present`
    /// request): it is presented by this proxy, not its child, in this proxy's window. False
    /// if it cannot be: it has a parent or is presented, or this proxy presents already.
    public func hostPresentation(of controller: ViewController, style: ModalPresentationStyle) -> Bool {
        guard controller.presentationState.presentedBy == nil, controller.parent == nil, presentationState.presenting == nil,
              let window
        else { return false }
        // Held by this proxy, as a presenting controller holds its presentation.
        let record = Presentation(presented: controller, context: self, style: style, transition: controller.modalTransitionStyle)
        record.forAnotherProcess = true
        presentationState.presenting = record
        controller.presentationState.presentedBy = record
        controller.modalPresentationStyle = style
        controller.hostingWindow = window
        controller.presentationState.isBeingPresented = true
        return true
    }

    /// Puts the presented controller's view into the window, filling it — the presenter's
    /// process placed its viewport — if it is not there yet; false if nothing is presented.
    public func embedPresentedView() -> Bool {
        guard let controller = hostedPresentation?.presented, let window else { return false }
        guard controller.viewIfLoaded?.superview == nil else { return true }
        window.rootView.addSubview(controller.view)
        controller.view.pinEdges(to: window.rootView)
        return true
    }

    /// After an appearance message: a presented controller that has appeared is no longer
    /// being presented.
    public func presentedAppearanceChanged() {
        guard let controller = hostedPresentation?.presented, controller.appearanceState == .appeared else { return }
        controller.presentationState.isBeingPresented = false
    }

    /// The dismissal begins (a `dismissing` request).
    public func presentedDismissalBegins() {
        hostedPresentation?.presented.presentationState.isBeingDismissed = true
    }

    /// The presentation ended (`presentEnd`): the view leaves the window, the presented
    /// controller is presented no more, and what waited for the dismissal runs.
    public func endHostedPresentation() {
        guard let record = hostedPresentation else { return }
        let controller = record.presented
        controller.viewIfLoaded?.removeFromSuperview()
        controller.presentationState.isBeingPresented = false
        controller.presentationState.isBeingDismissed = false
        controller.presentationState.presentedBy = nil
        controller.formerWindow = controller.hostingWindow
        controller.hostingWindow = nil
        presentationState.presenting = nil
        let waiting = record.afterDismissal
        record.afterDismissal.removeAll()
        for run in waiting { run() }
    }

    /// `dismiss(animated:completion:)` on `controller`, in this proxy's tree, with nothing
    /// presented in this process: the parent's process dismisses what its tree is in or
    /// presents, if anything; `completion` runs when it has answered (chosen: after an
    /// animated dismissal has begun, not ended — there is no presentation here to wait on).
    func askParentToDismiss(for controller: ViewController, animated: Bool, completion: (@MainActor () -> Void)?) {
        let answer = port.exchange(
            .request(Request(name: ProcessChildRequest.dismissRequest, payload: Array((animated ? "animated" : "now").utf8))),
            from: controller.id, to: id)
        if let answer, answer.status == .failed {
            View.diagnostics("\(controller.id): \(id) did not dismiss (\(String(decoding: answer.payload, as: UTF8.self)))")
        }
        completion?()
    }

    /// `dismiss(animated:completion:)` on the presented controller here: the presenter's
    /// process dismisses it; `completion` runs when its presentation has ended.
    func askToDismiss(animated: Bool, completion: (@MainActor () -> Void)?) {
        guard let record = hostedPresentation else {
            completion?()
            return
        }
        if let completion { record.afterDismissal.append(completion) }
        let answer = port.exchange(
            .request(Request(name: ProcessChildRequest.dismissRequest, payload: Array((animated ? "animated" : "now").utf8))),
            from: record.presented.id, to: id)
        guard let answer, answer.status != .ok else { return }
        // Not dismissed (the presenter's process did not answer, or refused): said, and
        // the completion waits for the presentation's end, whenever it comes.
        View.diagnostics("\(record.presented.id): \(id) did not dismiss it (\(answer.status): \(String(decoding: answer.payload, as: UTF8.self)))")
    }
}
