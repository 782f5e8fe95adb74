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
        // The child's waiting completions run once it is done (`dismissDone`), posted.
        let done: () -> Void = { [weak self] in
            guard let self else { return }
            port.post(.request(Request(name: ProcessChildRequest.dismissDone)), from: parent?.id ?? presentingViewController?.id ?? "-", to: id)
        }
        guard presentedViewController != nil || presentationShowingThisTree != nil || layerRoot is ParentProxy else {
            // Posted by the child: logged here, where it is decided.
            let why = "\(id) asked to be dismissed, and is not presented, nor in a presented tree, nor presents anything"
            window?.route(kind: "presentation", from: id, to: id, outcome: .rejected, reason: why)
            done()
            return Reply(status: .declined, payload: Array(why.utf8))
        }
        dismiss(animated: animated, completion: done)
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
    /// presents, if anything. Posted, not waited for (as `askToDismiss`); `completion` runs
    /// when that process says it is done (`dismissDone`).
    func askParentToDismiss(for controller: ViewController, animated: Bool, completion: (() -> Void)?) {
        afterParentDismissal.append(completion ?? {})
        port.post(
            .request(Request(name: ProcessChildRequest.dismissRequest, payload: Array((animated ? "animated" : "now").utf8))),
            from: controller.id, to: id)
    }

    /// The parent's process did what this tree's oldest waiting `dismiss` asked.
    public func parentDismissalDone() {
        guard !afterParentDismissal.isEmpty else { return }
        afterParentDismissal.removeFirst()()
    }

    /// `dismiss(animated:completion:)` on the presented controller here: the presenter's
    /// process dismisses it; `completion` runs when its presentation has ended.
    func askToDismiss(animated: Bool, completion: (() -> Void)?) {
        guard let record = hostedPresentation else {
            completion?()
            return
        }
        if let completion { record.afterDismissal.append(completion) }
        // Posted, not waited for: the presenter's process handles it while it waits on this
        // one (the key or click that dismissed), and then calls this process — on this link,
        // and on the link of the child that presented it, which a wait here would not serve.
        // What it decides, it logs; the completion waits for the presentation's end.
        port.post(
            .request(Request(name: ProcessChildRequest.dismissRequest, payload: Array((animated ? "animated" : "now").utf8))),
            from: record.presented.id, to: id)
    }
}

extension ViewController {
    /// `present` from a tree whose root stands for a parent in another process: that
    /// process presents a stand-in for `controller`, which its host here runs apart, as a
    /// presented controller in another process (docs/LIFECYCLE.md, "Presented from a child
    /// in another process"). Asked, not waited for: the parent's process may be waiting on
    /// this one, and presents it at its next turn — before this input's answer when the
    /// input came from it. `completion` runs once it has been presented there.
    func presentFromParentProcess(
        _ controller: ViewController,
        by presentElsewhere: (ViewController, Bool, (() -> Void)?) -> PresentationRefusal?,
        animated: Bool, completion: (() -> Void)?
    ) -> Result<Void, PresentationRefusal> {
        if let refusal = presentElsewhere(controller, animated, completion) {
            View.diagnostics(refusal.message)
            window?.route(kind: "presentation", from: id, to: controller.id, outcome: .rejected, reason: refusal.message)
            return .failure(refusal)
        }
        window?.route(kind: "presentation", from: id, to: controller.id, outcome: .sent, reason: nil,
                      detail: "asked of the parent's process")
        return .success(())
    }
}

extension ParentProxy {
    /// Loads `controller`'s view before it is presented from this proxy's tree by the
    /// parent's process, as `present` loads it in one process; its callbacks meanwhile go to
    /// this proxy's window's log, where the process's others go.
    public func loadBeforePresenting(_ controller: ViewController) {
        if controller.hostingWindow == nil, controller.parent == nil { controller.formerWindow = window }
        controller.loadViewIfNeeded()
    }
}
