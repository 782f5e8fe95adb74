import TrellisCanvas
import TrellisControllers
import TrellisLog
import TrellisTransport
import TrellisViews
import TrellisWire

/// The parent end for one controller's children that run in other processes: one
/// bound link, and a `RemoteController` per child to use like any child. Requests the
/// children send up are answered by the parent's tree (`handle(_:from:)`), as if the
/// child were in this process.
@MainActor
public final class RemoteChildren {
    public let link: Link
    public let parentID: ControllerID
    private var proxies: [ControllerID: RemoteController] = [:]
    private let timeout: Duration

    private init(link: Link, parentID: ControllerID, timeout: Duration) {
        self.link = link
        self.parentID = parentID
        self.timeout = timeout
    }

    /// Binds the endpoint the children of `parent` connect to.
    public static func bind(
        parent: ControllerID, endpoint: String, loop: IOLoop, log: RoutingLog, options: LinkOptions = LinkOptions()
    ) async throws(LinkError) -> RemoteChildren {
        let box = RemoteChildrenBox()
        let link = try await Link.bind(
            id: parent, endpoint: endpoint, loop: loop, log: log, options: options,
            onMessage: Inbox.handler(log: log, isReady: { box.children != nil }) { envelope in
                guard let children = box.children else { return Reply(status: .failed) }
                return TraceContext.with(envelope.trace) { children.deliver(envelope) }
            },
            onPeer: { event in
                MainMailbox.shared.post(via: loop) { box.children?.peer(event) }
            })
        let children = RemoteChildren(link: link, parentID: parent, timeout: options.requestTimeout)
        box.children = children
        return children
    }

    /// The stand-in for child `id`, made on first use.
    public func proxy(for id: ControllerID) -> RemoteController {
        if let p = proxies[id] { return p }
        let p = RemoteController(id: id, port: LinkPort(link: link, peer: id, timeout: timeout, presence: presence))
        proxies[id] = p
        return p
    }

    /// Children known to have stopped answering: messages to them fail at once (and are
    /// logged by the link) instead of each waiting out the bound.
    private let presence = Presence()

    /// A child lost (its heartbeats stopped: crashed, killed, hung) keeps its place in the
    /// tree; the compositor shows a placeholder. When it connects again it is sent its
    /// state again (`RemoteController.replayState`).
    func peer(_ event: PeerEvent) {
        switch event {
        case .lost(let id):
            presence.setLost(id, true)
        case .connected(let id):
            let wasLost = presence.isLost(id)
            presence.setLost(id, false)
            if wasLost, let proxy = proxies[id] { proxy.replayState() }
        }
    }

    /// Waits until child `id` has connected (said hello), or `timeout` passed.
    public func waitForChild(_ id: ControllerID, timeout: Duration = .seconds(10)) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if await link.connectedPeers.contains(id) { return true }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return false
    }

    func deliver(_ envelope: Envelope) -> Reply? {
        guard let proxy = proxies[envelope.source], let parent = proxy.parent else {
            return Reply(status: .failed, payload: Array("\(envelope.source) is not a child of \(parentID) here".utf8))
        }
        switch envelope.message {
        case .request:
            return parent.handleMessage(envelope.message, from: proxy)
        default:
            return Reply(status: .failed, payload: Array("a parent does not accept \(envelope.kind.name) from a child".utf8))
        }
    }
}

@MainActor
final class RemoteChildrenBox: Sendable {
    var children: RemoteChildren?
    nonisolated init() {}
}
