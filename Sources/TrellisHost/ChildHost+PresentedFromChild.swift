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
    func presentFromParentProcess(_ presented: ViewController, animated: Bool, completion: (() -> Void)?) -> PresentationRefusal? {
        let id = presented.id
        guard !presentedBeingVouched.contains(id) else {
            return PresentationRefusal(message: "\(id) is not presented: it is being presented already")
        }
        // UIKit's warning, as `present` in one process gives it: this tree presents already.
        if let current = proxy.presentedFromThisTree {
            return PresentationRefusal(message: "Attempt to present \(id) on \(controller.id), which is already presenting \(current.id) (UIKit's warning); nothing is presented. Present from \(current.id), or dismiss it first.")
        }
        if let completion { afterPresentedFromChild[id, default: []].append(completion) }
        // The relation is set now, as `present` sets it in one process, and ended with the
        // presentation, a refusal or the parent's loss (`presentationFromChildEnded`).
        proxy.presentationFromThisTreeBegins(presented)
        // The view focused here gets focus back when the presentation ends, as in one
        // process (the parent's process gives it back to this tree's viewport).
        weak let focused = window.focusedView
        // Loaded now, as `present` loads it in one process: what it says of its size (an
        // alert sizes itself to its content there) goes with the request.
        proxy.loadBeforePresenting(presented)
        let asked = ProcessChildRequest.PresentFromChild(
            style: presented.modalPresentationStyle.resolved, transition: presented.modalTransitionStyle, animated: animated,
            preferred: presented.preferredContentSize, presented: id)
        let ask = { [weak self] (host: ChildHost) in
            guard let self else { return }
            host.onPresentationEnd = { [weak self] in
                self?.presentationFromChildEnded(id)
                if let focused, focused.focusSystem != nil { _ = focused.becomeFirstResponder() }
            }
            // Posted, as `proxy.port.post` does, with its answer heard: a parent that
            // declines (it presents already, the stand-in is presented) presents nothing.
            let loop = self.loop, trace = Switchboard.of(self.loop).trace
            // Heard on the loop's thread, which this host is: reached again there.
            let refused = LoopBound({ [weak self] (why: String) in
                guard let self else { return }
                View.diagnostics("\(id) was not presented from \(controller.id): \(why)")
                afterPresentedFromChild[id] = nil
                presentationFromChildEnded(id)
            }, loop: loop)
            link.now { l in
                l.request(.request(Request(name: ProcessChildRequest.presentFromChild, payload: asked.payload)), trace: trace) { answer in
                    // No answer (a slow or lost parent) is not a refusal: its loss ends it.
                    guard case .success(let e) = answer, case .reply(let r) = e.message, r.status != .ok else { return }
                    let why = String(decoding: r.payload, as: UTF8.self)
                    loop.execute { refused.value(why) }
                }
            }
        }
        if let host = presentedHosts[id] {
            ask(host)
            return nil
        }
        switch standInKeys {
        case nil:
            afterPresentedFromChild[id] = nil
            proxy.presentationFromThisTreeEnded(presented)
            return PresentationRefusal(message: "\(id) is not presented: this host's links are keyed for one end only")
        case .plain?:
            do {
                presentedHosts[id] = try hostApart(presented, options: options, compositorOptions: compositorOptions)
            } catch {
                afterPresentedFromChild[id] = nil
                proxy.presentationFromThisTreeEnded(presented)
                return PresentationRefusal(message: "\(id) is not presented: no link to \(proxy.id)'s process (\(error))")
            }
            ask(presentedHosts[id]!)
        case .keyed(let parentKey, let compositorKey)?:
            // Keys are issued before any process starts, one per id: this one has none. Its
            // pair is made here, and vouched for over this host's own links, whose keys
            // were issued (docs/PROTOCOL.md §1, "Vouched keys"); it connects once both ends
            // admit it — a handshake refused before would not be tried again.
            let pair: CurveKeyPair
            do { pair = try CurveKeyPair.generate() } catch {
                afterPresentedFromChild[id] = nil
                proxy.presentationFromThisTreeEnded(presented)
                return PresentationRefusal(message: "\(id) is not presented: no key pair (\(error))")
            }
            var parentOptions = options, ownCompositorOptions = compositorOptions ?? options
            parentOptions.curve = .client(pair, serverKey: parentKey)
            ownCompositorOptions.curve = compositorKey.map { .client(pair, serverKey: $0) }
            presentedBeingVouched.insert(id)
            vouch(for: pair.publicKey, as: id, at: [link] + [compositorLink].compactMap { $0 }.filter { $0 !== link }[...]) { [weak self] why in
                guard let self else { return }
                presentedBeingVouched.remove(id)
                do {
                    if let why { throw PresentationRefusal(message: why) }
                    presentedHosts[id] = try hostApart(presented, options: parentOptions, compositorOptions: ownCompositorOptions)
                    presentedKeys[id] = pair.publicKey
                    ask(presentedHosts[id]!)
                } catch {
                    afterPresentedFromChild[id] = nil
                    proxy.presentationFromThisTreeEnded(presented)
                    View.diagnostics("\(id) was not presented from \(controller.id): \(error)")
                }
            }
        }
        return nil
    }

    /// How a controller presented from here is keyed: as this host's links are — plain,
    /// or keyed at both ends (nil: one only, which no session makes).
    enum StandInKeys {
        case plain
        case keyed(parent: String, compositor: String?)
    }

    var standInKeys: StandInKeys? {
        switch (options.curve, compositorOptions?.curve) {
        case (nil, nil): .plain
        case (.client(_, let parent)?, .client(_, let compositor)?): .keyed(parent: parent, compositor: compositor)
        case (.client(_, let parent)?, nil) where compositorLink == nil: .keyed(parent: parent, compositor: nil)
        default: nil
        }
    }

    /// `presented` on links of its own to the parent and the compositor, as an actor child.
    private func hostApart(_ presented: ViewController, options: LinkOptions, compositorOptions: LinkOptions?) throws(LinkError) -> ChildHost {
        try ChildHost.startActor(
            controller: presented, parent: proxy.id, endpoint: link.endpoint, compositor: compositorLink?.endpoint,
            loop: loop, log: log, options: options, compositorOptions: compositorOptions,
            treeLoop: window.tree.loop, stateRestoration: window.stateRestoration)
    }

    private static func peer(of link: Link) -> String {
        if case .child(let parent) = link.role { "\(parent)" } else { "the parent end" }
    }

    /// Vouches for `key` as `id` at each of `links`' other ends in turn; `then` gets nil
    /// once all have admitted it, or the first refusal.
    private func vouch(
        for key: String, as id: ControllerID, at links: ArraySlice<Link>, then: @escaping (String?) -> Void
    ) {
        guard let next = links.first else { return then(nil) }
        let payload = Link.vouchPayload(key, as: id), loop = self.loop, trace = Switchboard.of(self.loop).trace
        // Heard on the loop's thread, which this host is: reached again there.
        let heard = LoopBound({ [weak self] (why: String?) in
            guard let self else { return }
            if let why { return then(why) }
            vouch(for: key, as: id, at: links.dropFirst(), then: then)
        }, loop: loop)
        next.now { l in
            l.request(.request(Request(name: Link.vouchRequest, payload: payload)), trace: trace) { answer in
                let why: String? = switch answer {
                case .success(let e):
                    if case .reply(let r) = e.message, r.status == .ok { nil } else if case .reply(let r) = e.message {
                        "\(Self.peer(of: l)) refused its key: \(String(decoding: r.payload, as: UTF8.self))"
                    } else { "its key was answered \(e.kind.name)" }
                case .failure(let error): "its key was not admitted: \(error)"
                }
                loop.execute { heard.value(why) }
            }
        }
    }

    /// This host's compositor link connected again — to a restarted compositor, which
    /// admits no key vouched for before: each hosted presented controller's link to it is
    /// closed, its key vouched for again, and once admitted, its link made anew.
    func vouchAgainToCompositor() {
        guard let compositorLink, compositorLink !== link else { return }
        for (id, key) in presentedKeys {
            presentedHosts[id]?.closeCompositorLink()
            vouch(for: key, as: id, at: [compositorLink][...]) { [weak self] why in
                guard let self, let host = presentedHosts[id] else { return }
                if let why { return View.diagnostics("\(id) is not shown by the restarted compositor: \(why)") }
                host.reconnectCompositor()
            }
        }
    }

    /// The presentation of `id` from this tree ended there, was refused, or the parent's
    /// process was lost: this tree presents it no more.
    func presentationFromChildEnded(_ id: ControllerID) {
        guard let presented = proxy.presentedFromThisTree, presented.id == id else { return }
        proxy.presentationFromThisTreeEnded(presented)
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
