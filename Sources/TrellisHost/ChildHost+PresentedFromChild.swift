import TrellisControllers
import TrellisTransport
import TrellisViews
import TrellisWire

/// A controller presented from this host's tree — which the parent's process shows — is
/// presented by the parent's process, so that it covers what it would in one process: the
/// window that owns the screen it covers is there (docs/LIFECYCLE.md, "Presented from a
/// child in another process").
///
/// The controller stays in this process, hosted apart on a link of its own to the parent
/// (and its own to the compositor, for its frames) as an actor-placed child is; over that
/// link it asks the parent's process to present its stand-in from this host's controller's.
/// From then on it is a presented controller in another process like any: the stand-in's
/// viewport is placed by the style over the parent's window, composed above what it
/// covers; input, appearance, traits and size reach it over its link; its own `dismiss`
/// asks the parent; and this process's loss dismisses it there.
extension ChildHost {
    /// Hosts `presented` apart (once: kept to be presented again) and asks the parent's
    /// process to present it from this host's controller — posted, on this host's link, so
    /// the parent handles it while it waits on this tree (the input that made the
    /// presentation), as one process would within that input. `completion` runs when the
    /// parent says it has been presented (`presentedFromChild`), which it waits for.
    func presentFromParentProcess(_ presented: ViewController, animated: Bool, completion: (@MainActor () -> Void)?) -> PresentationRefusal? {
        if presentedHosts[presented.id] == nil {
            do {
                presentedHosts[presented.id] = try ChildHost.startActor(
                    controller: presented, parent: proxy.id, endpoint: link.endpoint, compositor: compositorLink?.endpoint,
                    loop: loop, log: log, options: options, compositorOptions: compositorOptions)
            } catch {
                return PresentationRefusal(message: "\(presented.id) is not presented: no link to \(proxy.id)'s process (\(error))")
            }
        }
        if let completion { afterPresentedFromChild[presented.id, default: []].append(completion) }
        // The view focused here gets focus back when the presentation ends, as in one
        // process (the parent's process gives it back to this tree's viewport).
        weak let focused = window.focusedView
        presentedHosts[presented.id]?.onPresentationEnd = { if let focused, focused.focusSystem != nil { _ = focused.becomeFirstResponder() } }
        // Loaded now, as `present` loads it in one process: what it says of its size (an
        // alert sizes itself to its content there) goes with the request.
        proxy.loadBeforePresenting(presented)
        let asked = ProcessChildRequest.PresentFromChild(
            style: presented.modalPresentationStyle.resolved, transition: presented.modalTransitionStyle, animated: animated,
            preferred: presented.preferredContentSize, presented: presented.id)
        proxy.port.post(.request(Request(name: ProcessChildRequest.presentFromChild, payload: asked.payload)), from: controller.id, to: proxy.id)
        return nil
    }

    /// The parent presented `id` (`presentedFromChild`): the presenter's completions run.
    func presentedFromChild(_ payload: [UInt8]) -> Reply? {
        guard let id = ControllerID(bytes: payload), presentedHosts[id] != nil else {
            return Reply(status: .failed, payload: Array("\(String(decoding: payload.prefix(40), as: UTF8.self)) was not presented from \(controller.id)".utf8))
        }
        let waiting = afterPresentedFromChild.removeValue(forKey: id) ?? []
        for run in waiting { run() }
        return nil
    }
}
