import Foundation
import TrellisCanvas
import TrellisControllers
import TrellisLog
import TrellisTransport
import TrellisViews
import TrellisWire

/// Runs one controller in this process for a parent in another process: the child end
/// of their link, a `ParentProxy` standing for the parent, and a window that holds the
/// controller's tree at the size the parent's viewport has.
///
/// Every message from the parent is delivered to the controller as the parent's own
/// process would deliver it to an in-process child, and acknowledged once handled.
/// A child in another process always fills its viewport. Its view loads when the parent
/// first accesses the viewport (`ProcessChildRequest.loadView`), where an in-process
/// child's would — a tab's on its first selection, not at `didMove(toParent:)`; an
/// appearance, a size or a touch before that (a restarted child's) loads it too.
///
/// A size transition of the parent's reaches the controller in steps, as the parent's
/// coordinator reaches them (`ProcessChildRequest`): the will, the `size` its viewport's
/// layout gives, the alongside blocks, the completions — one transition for the tree.
///
/// Its loop's thread's, as its window's tree is: every link of it is on that loop, whose
/// switchboard hands it their messages.
public final class ChildHost {
    public let controller: ViewController
    public let proxy: ParentProxy
    public let window: Window
    public let link: Link
    private let line: Switchboard.Line
    /// "process", or "actor" for a child hosted apart in its parent's process.
    private let placement: String
    /// The link frames go out on: the parent link when the parent is the compositor.
    public private(set) var compositorLink: Link?
    private var publisher: FramePublisher?
    /// While focus moves as the parent said (it knows already: nothing is told back).
    private var followingParentFocus = false
    /// The key commands the parent was last told of; nil: tell it whatever they are.
    private var toldKeyCommands: [KeyCommand.Summary]?
    /// While touches are handled: what the parent is to be told (focus taken, key commands
    /// changed), told once their frame is out — the frame is what the person waits for,
    /// and the parent's work on these would compete with it for the machine — and still
    /// before their answers, so the parent knows of it when it hears they were handled.
    /// Each made only when sent: key commands are encoded as JSON, which is not done
    /// before the frame either.
    private var toldAfterFrame: [() -> Message]?
    /// The parent's size transition this host's tree takes part in, until it completes.
    private var sizeTransition: TransitionCoordinator?
    /// What another link of this process needs: the loop, the log, the options.
    let loop: IOLoop
    let log: RoutingLog
    let options: LinkOptions
    var compositorOptions: LinkOptions?
    /// The hosts of controllers presented from this tree by the parent's process, kept to
    /// be presented again (ChildHost+PresentedFromChild.swift).
    var presentedHosts: [ControllerID: ChildHost] = [:]
    /// The completions of those presentations, until the parent says they were made.
    var afterPresentedFromChild: [ControllerID: [() -> Void]] = [:]
    /// Controllers presented from here whose keys are being vouched for, not yet hosted.
    var presentedBeingVouched: Set<ControllerID> = []
    /// The public keys this host vouched for, for those it hosts: vouched for again to a
    /// restarted compositor (docs/PROTOCOL.md §1, "Vouched keys").
    var presentedKeys: [ControllerID: String] = [:]
    /// How many times the compositor asked for everything (once per connection to it).
    private var compositorRedraws = 0
    /// Runs when the presentation this host's controller is shown in ends (`presentEnd`).
    var onPresentationEnd: (() -> Void)?

    /// The compositor's controller id on every link.
    public static let compositorID: ControllerID = .compositor

    /// Connects `controller` to its parent `parent` at `endpoint`, and — when given and
    /// the parent is not the compositor itself — to the compositor at `compositor`, where
    /// its frames go (with `compositorOptions`, else `options`: the two ends have
    /// different keys). The controller is the process's: its state is the one the parent
    /// keeps for a restart (`StateRestoration`; `stateRestoration`, the process's, which
    /// its actor children share, else one of its own).
    public static func start(
        controller: ViewController, parent: ControllerID, endpoint: String, compositor: String? = nil,
        loop: IOLoop, log: RoutingLog, options: LinkOptions = LinkOptions(), compositorOptions: LinkOptions? = nil,
        stateRestoration: StateRestoration? = nil, isolation: isolated (any Actor)? = #isolation
    ) async throws(LinkError) -> ChildHost {
        let line = Switchboard.Line(log: log, loop: loop)
        let link = try await Link.connect(
            id: controller.id, parent: parent, endpoint: endpoint, loop: loop, log: log, options: options,
            onMessage: line.onMessage, onPeer: line.onPeer)
        // A loop that serves the main actor runs the tree's later work as its own turns:
        // the main queue would wake it through a descriptor for each, and a main-actor
        // task's sleep arms libdispatch's timer thread.
        let host = ChildHost(
            controller: controller, parent: parent, link: link, line: line, log: log, timeout: options.requestTimeout,
            placement: "process", loop: loop, options: options,
            treeLoop: loop.servesMainActor ? IOLoopTurns(loop) : MainActorLoop.shared, stateRestoration: stateRestoration)
        host.compositorOptions = compositorOptions
        if parent == compositorID {
            host.compositorLink = link
        } else if let compositor {
            let compositorLine = Switchboard.Line(log: log, loop: loop)
            host.connected(toCompositor: try await Link.connect(
                id: controller.id, parent: compositorID, endpoint: compositor, loop: loop, log: log,
                options: compositorOptions ?? options, onMessage: compositorLine.onMessage), line: compositorLine)
        }
        host.begin(keepingProcessState: true)
        return host
    }

    /// Hosts `controller` as an actor-placed child (docs/PROCESSES.md, "Placements"): in
    /// this process, on `loop`'s thread, reached by its parent only over a link — the
    /// same messages, waits and log lines as a child in a process of its own. Made now,
    /// from the loop's thread, where the code that asks for the child cannot await (its
    /// parent's, on the same loop; or a loop of the child's own starting it). Its tree's
    /// later work runs on `treeLoop`: the main actor's, or `IOLoopTurns(loop)` on a loop
    /// of its own. Its state is part of the process's: with `stateRestoration`, shared with
    /// a host on the same loop (a controller presented from its tree); without, its own,
    /// saved to its parent over the link as a process child's is, which keeps it as part
    /// of the process's (`ActorChildren`).
    public static func startActor(
        controller: ViewController, parent: ControllerID, endpoint: String, compositor: String?,
        loop: IOLoop, log: RoutingLog, options: LinkOptions = LinkOptions(), compositorOptions: LinkOptions? = nil,
        treeLoop: TreeLoop = MainActorLoop.shared, stateRestoration: StateRestoration? = nil
    ) throws(LinkError) -> ChildHost {
        let line = Switchboard.Line(log: log, loop: loop)
        let link = try Link.connectNow(
            id: controller.id, parent: parent, endpoint: endpoint, loop: loop, log: log, options: options,
            onMessage: line.onMessage, onPeer: line.onPeer)
        let host = ChildHost(
            controller: controller, parent: parent, link: link, line: line, log: log, timeout: options.requestTimeout,
            placement: "actor", loop: loop, options: options, treeLoop: treeLoop, stateRestoration: stateRestoration)
        host.compositorOptions = compositorOptions
        if let compositor {
            let compositorLine = Switchboard.Line(log: log, loop: loop)
            host.connected(toCompositor: try Link.connectNow(
                id: controller.id, parent: compositorID, endpoint: compositor, loop: loop, log: log,
                options: compositorOptions ?? options, onMessage: compositorLine.onMessage), line: compositorLine)
        }
        host.begin(keepingProcessState: stateRestoration == nil)
        return host
    }

    private init(
        controller: ViewController, parent: ControllerID, link: Link, line: Switchboard.Line, log: RoutingLog,
        timeout: Duration, placement: String, loop: IOLoop, options: LinkOptions, treeLoop: TreeLoop = MainActorLoop.shared,
        stateRestoration: StateRestoration?
    ) {
        self.controller = controller
        self.placement = placement
        self.loop = loop
        self.log = log
        self.options = options
        self.link = link
        self.line = line
        proxy = ParentProxy(id: parent, port: LinkPort(link: link, line: line, peer: nil, timeout: timeout))
        window = Window(size: .zero, log: log, host: log.host, loop: treeLoop, stateRestoration: stateRestoration)
        if parent == Self.compositorID {
            // The root has no parent (UIKit's root view controller): the compositor drives
            // it as a window drives its root.
            window.host(controller)
        } else {
            window.host(proxy)
            window.installRootView()
        }
    }

    private func connected(toCompositor link: Link, line: Switchboard.Line) {
        compositorLink = link
        publisher = FramePublisher(link: link, window: window)
        // After the publisher exists: a `redraw` held until now is what tells it a
        // compositor is there to show animations (FramePublisher.publishAll).
        line.attach { [weak self] envelope in
            self?.fromCompositor(envelope) ?? Reply(status: .failed, payload: Array("the host is gone".utf8))
        }
    }

    /// Frames start, and only now may the parent's messages be handled (the switchboard
    /// holds them until then). A restarted child's parent replays its state the moment it
    /// says hello, which can be while the compositor link is still being made: handled
    /// then, the size and appearance scheduled no frame, and the child never drew (issue
    /// 19, finding 6).
    private func begin(keepingProcessState: Bool) {
        if publisher == nil, let c = compositorLink { publisher = FramePublisher(link: c, window: window) }
        let parent = proxy.id
        if keepingProcessState && parent != Self.compositorID {
            // The process's state goes to the parent's, which keeps it for a restart.
            // Posted, not waited for: a save made while the parent waits on another link of
            // this process (a controller presented from this tree, hosted apart) would wait
            // on a parent that serves only that link meanwhile. The parent logs a refusal.
            window.stateRestoration.saver = { [weak self] bytes in
                guard let self else { return }
                proxy.port.post(.request(Request(name: StateRestoration.saveRequest, payload: bytes)), from: controller.id, to: parent)
            }
        }
        if parent != Self.compositorID, let focus {
            // A view here took focus (a click, code): the parent's focus moves to this
            // tree's viewport, and from there on up — one focus for the whole tree.
            let previous = focus.didChange
            focus.didChange = { [weak self] old, new in
                previous?(old, new)
                guard let self, new != nil, !followingParentFocus else { return }
                tellParent(.request(Request(name: ProcessChildRequest.focusTook)))
            }
        }
        // Keyed or plain at both ends: a presented controller's links are keyed as these are.
        if parent != Self.compositorID, standInKeys != nil {
            proxy.presentsInParentProcess = { [weak self] controller, animated, completion in
                guard let self else { return PresentationRefusal(message: "\(controller.id) is not presented: its host is gone") }
                return presentFromParentProcess(controller, animated: animated, completion: completion)
            }
        }
        // What touches told the parent goes before anything else sent to it.
        (proxy.port as? LinkPort)?.beforeSending = { [weak self] in self?.sendToldAfterFrame() }
        if parent != Self.compositorID {
            // The parent keeps what this tree offers a key, told when it changes, so its
            // footer never has to ask (ProcessChildRequest.keyCommandsChanged).
            window.keyCommandsObserver = { [weak self] commands in
                guard let self, commands != toldKeyCommands else { return }
                toldKeyCommands = commands
                // Summaries are strings and flags: encoding them does not fail.
                tellParent(.request(Request(
                    name: ProcessChildRequest.keyCommandsChanged, payload: Array((try? JSONEncoder().encode(commands)) ?? Data("[]".utf8)))))
            }
        }
        line.attach(
            { [weak self] envelope in
                // Not `self?.deliver(…) ?? …`: nil is deliver's answer for "handled".
                guard let self else { return Reply(status: .failed, payload: Array("the host is gone".utf8)) }
                return deliver(envelope)
            },
            touches: { [weak self] envelopes, more in
                guard let self else { return envelopes.map { _ in Reply(status: .failed, payload: Array("the host is gone".utf8)) } }
                return deliver(touches: envelopes, more: more)
            },
            peers: { [weak self] event in
                // A parent that is gone (restarted, lost) no longer shows focus here; a
                // focused view here would be a second focus in the tree.
                guard let self, case .lost = event else { return }
                followParentFocus { $0.clear() }
                // What it presented from this tree went with it.
                if let presented = proxy.presentedFromThisTree { presentationFromChildEnded(presented.id) }
            })
    }

    /// The window's one focus.
    private var focus: FocusSystem? { (window.rootView as? WindowRootView)?.focus }

    /// Moves focus as the parent says, which it knows of already: not told back up.
    private func followParentFocus<T>(_ body: (FocusSystem) -> T) -> T? {
        guard let focus else { return nil }
        followingParentFocus = true
        defer { followingParentFocus = false }
        return body(focus)
    }

    /// A key the tree here did not take: Tab and Shift-Tab move focus on within this tree,
    /// without wrapping — at its end, the parent moves it on past this tree's viewport.
    /// Their press and repeat move it, as in the window's root view; a release does not.
    private func key(_ envelope: Envelope, _ key: KeyPress) -> Reply? {
        // As `Window.key` does in one process: a footer here shows what the key changed
        // (focus moved inside a child, a command's list changed) in the key's own frame.
        defer { window.refreshKeyCommandFooters() }
        let answer = controller.handleMessage(envelope.message, from: proxy)
        guard answer?.status == .declined, window.rootViewController !== controller,
              key.special == .tab, key.modifiers.isSubset(of: .shift), key.phase != .ended
        else { return answer }
        let root = window.rootView
        let moved = followParentFocus { $0.moveFocus(forward: !key.modifiers.contains(.shift), in: root, wrapping: false) }
        return moved == true ? nil : answer
    }

    /// Asks for a frame to be sent at the end of this turn. A view's change needs no such
    /// call — it draws itself (`ViewTree.observe`); this is for what the views cannot see.
    public func setNeedsFrame() { publisher?.setNeedsFrame() }

    /// What the compositor asks of a host that is not the root: only `redraw`.
    func fromCompositor(_ envelope: Envelope) -> Reply? {
        guard case .request(let r) = envelope.message, r.name == Request.redraw else {
            return Reply(status: .declined, payload: Array("a host takes only \(Request.redraw) from the compositor".utf8))
        }
        return redraw()
    }

    /// The compositor's request for everything this host shows (`Request.redraw`), sent
    /// when the host connects to it: a restarted compositor has nothing, and one whose
    /// host restarted holds the dead process's placements. The frame and placements go
    /// out before the answer, on the same link, so the answer tells the compositor they
    /// have all come.
    private func redraw() -> Reply {
        publisher?.publishAll()
        compositorRedraws += 1
        // A restarted compositor admits no vouched key: vouched for again, once more.
        if compositorRedraws > 1 { vouchAgainToCompositor() }
        return Reply(status: .ok)
    }

    /// Closes this host's link to the compositor, keeping where it leads: before its key
    /// is vouched for to a restarted compositor. libzmq retries a refused handshake only
    /// sometimes (zeromq/libzmq#3519), so a link left open could connect once the key is
    /// admitted, beside the one made then, and the compositor would see one of the two
    /// leave — a crashed child's placeholder where the alert was.
    func closeCompositorLink() {
        guard let old = compositorLink, old !== link else { return }
        old.now { $0.close() }
    }

    /// This host's link to the compositor, made anew once its key is admitted again.
    func reconnectCompositor() {
        guard let old = compositorLink, old !== link else { return }
        closeCompositorLink()
        compositorLink = nil
        let line = Switchboard.Line(log: log, loop: loop)
        do {
            connected(toCompositor: try Link.connectNow(
                id: controller.id, parent: Self.compositorID, endpoint: old.endpoint, loop: loop, log: log,
                options: compositorOptions ?? options, onMessage: line.onMessage), line: line)
        } catch {
            View.diagnostics("\(controller.id) did not connect to the compositor again: \(error)")
        }
    }

    /// The frame of what a message changed. Input's goes out before its answer: the
    /// person waits for the frame, the sender only learns from the answer whether anything
    /// handled it — unless the input arrived while the main thread waits on a child,
    /// part-way through handling something else, which the frame must not be composed in
    /// the middle of. Anything else's goes at the end of the turn.
    private func sendFrame(afterInput isInput: Bool) {
        if isInput && !Switchboard.of(loop).isWaiting {
            publisher?.publishNow()
        } else {
            publisher?.setNeedsFrame()
        }
    }

    func deliver(_ envelope: Envelope) -> Reply? {
        defer { sendFrame(afterInput: envelope.kind.isInput) }
        let message = envelope.message
        switch message {
        case .containment(let c) where c.parent != nil && c.parent != proxy.id:
            // Adopted by another controller of the parent's process than the one this link
            // connects to (a container the presenter's adaptive delegate made): the proxy
            // stands for that process, so it is the parent here too (docs/LIFECYCLE.md,
            // "Adaptation"); its requests reach the real parent, which holds its stand-in.
            var envelope = envelope
            envelope.message = .containment(Containment(c.phase, parent: proxy.id))
            return deliver(envelope)
        case .containment(let c) where c.phase == .willMove && c.parent != nil:
            // A parent adopting this tree — for the first time, or again after it lost
            // this process and dropped what it was told — hears its key commands anew.
            toldKeyCommands = nil
            defer { window.refreshKeyCommandFooters() }
            let answer = controller.handleMessage(message, from: proxy)
            proxy.adopt(controller)
            return answer
        case .containment(let c) where c.phase == .didMove && c.parent == nil:
            controller.viewIfLoaded?.removeFromSuperview()
            proxy.release(controller)
            return controller.handleMessage(message, from: proxy)
        case .sizeTransition(let s):
            let size = Size(width: Int(s.width), height: Int(s.height))
            guard size.isSurfaceSize else {
                return Reply(status: .failed, payload: Array("size \(size) is more than \(Size.surfaceCells) cells".utf8))
            }
            embedView()
            // The root's is the terminal's resize, a transition of its own; any other host's
            // is its viewport's new size, laid out (a transition, if any, came as requests).
            if window.rootViewController === controller { window.resize(to: size) } else { window.take(size) }
            return nil
        case .request(let r) where r.name == StateRestoration.restoreRequest:
            do throws(RestorationError) {
                try window.stateRestoration.received(r.payload)
                return nil
            } catch {
                // Logged and answered; the process starts fresh (docs/LIFECYCLE.md).
                let log = window.log
                log.record(RoutingRecord(
                    host: log.host, at: controller.id.rawValue, source: envelope.source.rawValue, target: controller.id.rawValue,
                    kind: "state", sequence: envelope.sequence, trace: envelope.trace, outcome: .rejected,
                    reason: "restore failed, starting fresh: \(error)"))
                return Reply(status: .failed, payload: Array("\(error)".utf8))
            }
        case .request(let r) where r.name == ProcessChildRequest.loadView:
            embedView()
            return nil
        case .request(let r) where r.name == ProcessChildRequest.sizeTransition:
            guard let s = ProcessChildRequest.sizeTransition(from: r.payload) else {
                return Reply(status: .failed, payload: Array("a size transition's payload is its width, height and duration".utf8))
            }
            let size = Size(width: Int(s.width), height: Int(s.height))
            guard size.isSurfaceSize else {
                return Reply(status: .failed, payload: Array("size \(size) is more than \(Size.surfaceCells) cells".utf8))
            }
            // One the parent began and never finished (it was lost meanwhile) ends first.
            if let unfinished = sizeTransition { window.completeSizeTransition(unfinished) }
            sizeTransition = window.beginSizeTransition(to: size, duration: Double(s.durationMilliseconds) / 1000)
            return nil
        case .request(let r) where r.name == ProcessChildRequest.alongside:
            if let t = sizeTransition { window.runAlongside(t) }
            return nil
        case .request(let r) where r.name == ProcessChildRequest.complete:
            if let t = sizeTransition { window.completeSizeTransition(t) }
            sizeTransition = nil
            return nil
        case .appearance:
            embedView()
            defer { proxy.presentedAppearanceChanged() }
            return controller.handleMessage(message, from: proxy)
        case .touch, .scroll:
            embedView()
            // As `Window.touch` does in one process: what a touch changed, a footer shows.
            return window.holdingKeyCommandRefresh { controller.handleMessage(message, from: proxy) }
        case .request(let r) where r.name == ProcessChildRequest.present:
            guard let style = ProcessChildRequest.presentationStyle(r.payload) else {
                return Reply(status: .failed, payload: Array("a present request's payload is a presentation style (formSheet, fullScreen …), not \"\(String(decoding: r.payload.prefix(40), as: UTF8.self))\"".utf8))
            }
            guard proxy.hostPresentation(of: controller, style: style) else {
                return Reply(status: .failed, payload: Array("\(controller.id) is a child or presented already: it cannot be presented".utf8))
            }
            // Presented, as adopted: the presenter hears this tree's key commands anew.
            toldKeyCommands = nil
            window.refreshKeyCommandFooters()
            return nil
        case .request(let r) where r.name == ProcessChildRequest.dismissDone:
            proxy.parentDismissalDone()
            return nil
        case .request(let r) where r.name == ProcessChildRequest.presentedFromChild:
            return presentedFromChild(r.payload)
        case .request(let r) where r.name == ProcessChildRequest.dismissing:
            proxy.presentedDismissalBegins()
            return nil
        case .request(let r) where r.name == ProcessChildRequest.presentEnd:
            // Its presenter's relation ends first: the dismissal's completions see it ended.
            onPresentationEnd?()
            proxy.endHostedPresentation()
            return nil
        case .key(let k):
            embedView()
            return key(envelope, k)
        case .request(let r) where r.name == ProcessChildRequest.focusEnter:
            guard let forward = ProcessChildRequest.entersForward(r.payload) else {
                return Reply(status: .failed, payload: Array("a focus-enter's payload is first or last".utf8))
            }
            embedView()
            let root = window.rootView
            guard followParentFocus({ $0.enter(forward: forward, in: root) }) == true else {
                return Reply(status: .declined, payload: Array("nothing in \(controller.id)'s tree can take focus".utf8))
            }
            return nil
        case .request(let r) where r.name == ProcessChildRequest.keyCommands:
            guard let json = try? JSONEncoder().encode(window.activeKeyCommands) else {
                return Reply(status: .failed, payload: Array("could not encode the key commands".utf8))
            }
            return Reply(status: .ok, payload: Array(json))
        case .request(let r) where r.name == ProcessChildRequest.focusResign:
            followParentFocus { $0.clear() }
            return nil
        case .request(let r) where r.name == Request.redraw && envelope.source == Self.compositorID:
            return redraw()
        case .request(let r) where r.name == ControllerDescription.request:
            // For `trellis tree`: this process's part of the tree, asked by the parent.
            guard let json = try? JSONEncoder().encode(proxy.describe(hosting: controller, as: placement)) else {
                return Reply(status: .failed, payload: Array("could not encode the description".utf8))
            }
            return Reply(status: .ok, payload: Array(json))
        default:
            return controller.handleMessage(message, from: proxy)
        }
    }

    /// The most touches one frame answers.
    static let touchesPerFrame = 64

    /// Touches read together (`Switchboard`): routed as one — a gesture for a child in
    /// another process goes there in one piece — then those that arrived meanwhile, and
    /// one frame for them all (`sendFrame`), as `deliver` sends one for each input.
    func deliver(touches envelopes: [Envelope], more: () -> [Envelope]) -> [Reply?] {
        embedView()
        let outerTold = toldAfterFrame
        toldAfterFrame = []
        defer { toldAfterFrame = outerTold }
        var replies: [Reply?] = []
        // What the touches changed, a footer shows, refreshed once when they are handled.
        window.holdingKeyCommandRefresh {
            var batch = envelopes
            while !batch.isEmpty {
                let inputs = batch.compactMap { e -> TouchInput? in
                    if case .touch(let t) = e.message { return t } else { return nil }
                }
                precondition(inputs.count == batch.count, "ChildHost: a batch of touches holds only touches")
                replies += controller.handleTouches(inputs, from: proxy)
                // A sender that never pauses still sees frames.
                batch = replies.count < Self.touchesPerFrame ? more() : []
            }
        }
        sendFrame(afterInput: true)
        sendToldAfterFrame()
        return replies
    }

    /// Posts `message` to the parent, or keeps it for after the frame of the touches
    /// being handled (`toldAfterFrame`) — unless something else goes to the parent first,
    /// which sends it before (`LinkPort.beforeSending`).
    private func tellParent(_ message: @escaping @autoclosure () -> Message) {
        if toldAfterFrame != nil { return toldAfterFrame!.append(message) }
        proxy.port.post(message(), from: controller.id, to: proxy.id)
    }

    /// What `tellParent` kept, sent now.
    private func sendToldAfterFrame() {
        guard let told = toldAfterFrame, !told.isEmpty else { return }
        toldAfterFrame = nil
        for message in told { proxy.port.post(message(), from: controller.id, to: proxy.id) }
        toldAfterFrame = []
    }

    private func embedView() {
        if window.rootViewController === controller { return window.installRootView() }
        if proxy.embedPresentedView() { return }
        guard controller.parent === proxy, controller.viewIfLoaded?.superview == nil else { return }
        proxy.view.addSubview(controller.view)
        controller.view.pinEdges(to: proxy.view)
    }
}
