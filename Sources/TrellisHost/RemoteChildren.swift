import Foundation
import TrellisCanvas
import TrellisControllers
import TrellisLog
import TrellisTransport
import TrellisViews
import TrellisWire

/// The parent end for one controller's children that run in other processes: one
/// bound link, and a `RemoteController` per child to use like any child. Requests the
/// children send up are answered by the parent's tree (`handle(_:from:)`), as if the
/// child were in this process. Its link's loop's thread's.
public final class RemoteChildren {
    public let link: Link
    public let parentID: ControllerID
    private let line: Switchboard.Line
    private var proxies: [ControllerID: RemoteController] = [:]
    private let timeout: Duration
    /// Children lost and not connected again since, as their events came in turn.
    private var lost: Set<ControllerID> = []
    /// Told each state a child saved, once kept: the actor children's are part of their
    /// process's state (`ActorChildren`).
    var onStateKept: ((ControllerID, [UInt8]) -> Void)?
    /// Controllers presented from a child, asked before their new process connected.
    private var waitingToBePresented: [ControllerID: () -> Result<Void, PresentationRefusal>] = [:]

    private init(link: Link, line: Switchboard.Line, parentID: ControllerID, timeout: Duration) {
        self.link = link
        self.line = line
        self.parentID = parentID
        self.timeout = timeout
    }

    /// Binds the endpoint the children of `parent` connect to. Called on `loop`'s thread,
    /// whose the children are: a call to a child waits by running it (`Switchboard`).
    public static func bind(
        parent: ControllerID, endpoint: String, loop: IOLoop, log: RoutingLog, options: LinkOptions = LinkOptions(),
        isolation: isolated (any Actor)? = #isolation
    ) async throws(LinkError) -> RemoteChildren {
        let line = Switchboard.Line(log: log, loop: loop)
        let link = try await Link.bind(
            id: parent, endpoint: endpoint, loop: loop, log: log, options: options,
            onMessage: line.onMessage, onPeer: line.onPeer)
        let children = RemoteChildren(link: link, line: line, parentID: parent, timeout: options.requestTimeout)
        line.attach(
            { [weak children] envelope in
                children?.deliver(envelope) ?? Reply(status: .failed, payload: Array("\(parent)'s children are gone".utf8))
            },
            peers: { [weak children] event in children?.peer(event) })
        return children
    }

    /// The stand-in for child `id`, made on first use.
    public func proxy(for id: ControllerID) -> RemoteController {
        if let p = proxies[id] { return p }
        let p = RemoteController(id: id, port: LinkPort(link: link, line: line, peer: id, timeout: timeout))
        proxies[id] = p
        return p
    }

    /// From now on, a controller of class `name` asked of `registry` — one whose code runs
    /// on this end's loop — is the stand-in for a child in another process, which connects
    /// here with the id it was asked for.
    public func place(_ name: String, in registry: ControllerRegistry) {
        registry.register(name) { id in self.proxy(for: id ?? ControllerID(name) ?? "child") }
    }

    /// A child lost (its heartbeats stopped: crashed, killed, hung) keeps its place in the
    /// tree; the compositor shows a placeholder, and calls to it fail at once
    /// (`Switchboard`). When it connects again it is sent its state again
    /// (`RemoteController.replayState`).
    func peer(_ event: PeerEvent) {
        switch event {
        case .lost(let id):
            lost.insert(id)
            // Focus in a lost child's tree is nowhere now: its process is gone or will not
            // answer, and a restarted one starts with nothing focused.
            proxies[id]?.childWasLost()
            // A presented one is dismissed: nothing beneath waits behind a modal that
            // cannot answer (docs/LIFECYCLE.md, "Presented in another process").
            proxies[id]?.presentedProcessLost()
        case .connected(let id):
            if lost.remove(id) != nil, let proxy = proxies[id] { proxy.replayState() }
            if let present = waitingToBePresented.removeValue(forKey: id), case .failure(let refusal) = present() {
                View.diagnostics("\(id) was not presented once connected: \(refusal.message)")
            }
        }
    }

    /// A child's process saved its state: kept, the latest copy only, to hand back if it
    /// restarts (`RemoteController.replayState`; docs/LIFECYCLE.md, "State restoration").
    private func keepState(_ bytes: [UInt8], of child: ControllerID) -> Reply {
        guard let proxy = proxies[child] else {
            return Reply(status: .failed, payload: Array("\(child) is not a child of \(parentID) here".utf8))
        }
        guard bytes.count <= StateRestoration.maxBytes else {
            return Reply(status: .failed, payload: Array("\(RestorationError.tooLarge(bytes.count))".utf8))
        }
        proxy.restorableState = bytes
        onStateKept?(child, bytes)
        return Reply(status: .ok)
    }

    /// Whether child `id` was lost and has not connected again since, as its events were
    /// handled in turn.
    public func hasLost(_ id: ControllerID) -> Bool { lost.contains(id) }

    /// Waits until child `id` has connected (said hello), or `timeout` passed.
    public func waitForChild(
        _ id: ControllerID, timeout: Duration = .seconds(10), isolation: isolated (any Actor)? = #isolation
    ) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if await link.connectedPeers.contains(id) { return true }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return false
    }

    /// A controller of child `presenter`'s process — hosted there apart, on a link of its
    /// own — is presented from it: its stand-in here is presented from `presenter`'s, as
    /// `present` in one process would (docs/LIFECYCLE.md, "Presented from a child in
    /// another process"); once it has been, the child is told, for its completion.
    private func presentFromChild(_ presenter: RemoteController, _ payload: [UInt8]) -> Reply {
        guard let asked = ProcessChildRequest.presentsFromChild(payload) else {
            return Reply(status: .failed, payload: Array("a \(ProcessChildRequest.presentFromChild)'s payload is: style transition animated|now WIDTHxHEIGHT id".utf8))
        }
        let presented = asked.presented, animated = asked.animated
        let standIn = proxy(for: presented)
        guard presented != presenter.id, standIn.parent == nil, standIn.presentingViewController == nil else {
            let why = "\(presented) cannot be presented from \(presenter.id): it is that child, a child, or presented already"
            View.diagnostics(why)
            return Reply(status: .declined, payload: Array(why.utf8))
        }
        standIn.modalPresentationStyle = asked.style
        standIn.modalTransitionStyle = asked.transition
        standIn.preferredContentSize = asked.preferred
        let present = { [weak presenter] () -> Result<Void, PresentationRefusal> in
            guard let presenter else { return .failure(PresentationRefusal(message: "the child that presented \(presented) is gone")) }
            // Waited for, as a completion in one process runs before `present`'s caller goes on.
            return presenter.present(standIn, animated: animated) { [weak presenter] in
                guard let presenter else { return }
                _ = presenter.port.exchange(
                    .request(Request(name: ProcessChildRequest.presentedFromChild, payload: Array(presented.rawValue.utf8))),
                    from: presenter.parent?.id ?? "-", to: presenter.id)
            }
        }
        // Its link came after this child's: a controller whose earlier process was lost is
        // still known lost until its new one says hello — on its own link, which may be
        // read after this; presented once it has (`peer`), not told a presentation now that
        // would fail at once.
        if line.isLost(presented) {
            waitingToBePresented[presented] = present
            return Reply(status: .ok)
        }
        if case .failure(let refusal) = present() { return Reply(status: .declined, payload: Array(refusal.message.utf8)) }
        return Reply(status: .ok)
    }

    func deliver(_ envelope: Envelope) -> Reply? {
        if case .request(let r) = envelope.message, r.name == StateRestoration.saveRequest {
            // Posted by the child: a refusal is said here.
            let answer = keepState(r.payload, of: envelope.source)
            if answer.status != .ok {
                View.diagnostics("State restoration: \(parentID) did not keep \(envelope.source)'s state: \(String(decoding: answer.payload, as: UTF8.self))")
            }
            return answer
        }
        // A presented child's requests go to the controller its presentation covers.
        guard let proxy = proxies[envelope.source], let parent = proxy.parent ?? proxy.presentingViewController else {
            return Reply(status: .failed, payload: Array("\(envelope.source) is not a child of \(parentID) here".utf8))
        }
        switch envelope.message {
        case .request(let r) where r.name == ProcessChildRequest.focusTook:
            proxy.childTookFocus()
            return Reply(status: .ok)
        case .request(let r) where r.name == ProcessChildRequest.keyCommandsChanged:
            guard let commands = try? JSONDecoder().decode([KeyCommand.Summary].self, from: Data(r.payload)) else {
                return Reply(status: .failed, payload: Array("a \(r.name)'s payload is a JSON list of key commands".utf8))
            }
            proxy.childKeyCommandsChanged(commands)
            return Reply(status: .ok)
        case .request(let r) where r.name == ProcessChildRequest.dismissRequest:
            return proxy.dismissAsked(r.payload)
        case .request(let r) where r.name == ProcessChildRequest.presentFromChild:
            return presentFromChild(proxy, r.payload)
        case .request:
            return parent.handleMessage(envelope.message, from: proxy)
        default:
            return Reply(status: .failed, payload: Array("a parent does not accept \(envelope.kind.name) from a child".utf8))
        }
    }
}
