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
@MainActor
public final class ChildHost {
    public let controller: ViewController
    public let proxy: ParentProxy
    public let window: Window
    public let link: Link
    /// The link frames go out on: the parent link when the parent is the compositor.
    public private(set) var compositorLink: Link?
    private var publisher: FramePublisher?
    /// The parent's size transition this host's tree takes part in, until it completes.
    private var sizeTransition: TransitionCoordinator?

    /// The compositor's controller id on every link.
    public static let compositorID: ControllerID = .compositor

    private init(controller: ViewController, proxy: ParentProxy, window: Window, link: Link) {
        self.controller = controller
        self.proxy = proxy
        self.window = window
        self.link = link
    }

    /// Connects `controller` to its parent `parent` at `endpoint`, and — when given and
    /// the parent is not the compositor itself — to the compositor at `compositor`, where
    /// its frames go (with `compositorOptions`, else `options`: the two ends have
    /// different keys).
    public static func start(
        controller: ViewController, parent: ControllerID, endpoint: String, compositor: String? = nil,
        loop: IOLoop, log: RoutingLog, options: LinkOptions = LinkOptions(), compositorOptions: LinkOptions? = nil
    ) async throws(LinkError) -> ChildHost {
        let line = Switchboard.Line(log: log)
        let link = try await Link.connect(
            id: controller.id, parent: parent, endpoint: endpoint, loop: loop, log: log, options: options,
            onMessage: line.onMessage, onPeer: line.onPeer(loop: loop))
        let proxy = ParentProxy(id: parent, port: LinkPort(link: link, line: line, peer: nil, timeout: options.requestTimeout))
        let window = Window(size: .zero, log: log, host: log.host)
        if parent == compositorID {
            // The root has no parent (UIKit's root view controller): the compositor drives
            // it as a window drives its root.
            window.host(controller)
        } else {
            window.host(proxy)
            window.installRootView()
        }
        let host = ChildHost(controller: controller, proxy: proxy, window: window, link: link)
        if parent == compositorID {
            host.compositorLink = link
        } else if let compositor {
            let compositorLine = Switchboard.Line(log: log)
            host.compositorLink = try await Link.connect(
                id: controller.id, parent: compositorID, endpoint: compositor, loop: loop, log: log,
                options: compositorOptions ?? options, onMessage: compositorLine.onMessage)
            compositorLine.attach { [weak host] envelope in
                host?.fromCompositor(envelope) ?? Reply(status: .failed, payload: Array("the host is gone".utf8))
            }
        }
        if let c = host.compositorLink { host.publisher = FramePublisher(link: c, window: window) }
        // Only now may the parent's messages be handled (the switchboard holds them until
        // then). A restarted child's parent replays its state the moment it says hello,
        // which can be while the compositor link above is still being made: handled then,
        // the size and appearance scheduled no frame, and the child never drew (issue 19,
        // finding 6).
        if parent != compositorID {
            // The process's state goes to the parent's, which keeps it for a restart.
            StateRestoration.saver = { [weak host] bytes in
                guard let host else { return }
                let answer = host.proxy.port.exchange(
                    .request(Request(name: StateRestoration.saveRequest, payload: bytes)), from: host.controller.id, to: parent)
                if let answer, answer.status != .ok {
                    View.diagnostics("State restoration: \(parent) did not keep the state: \(String(decoding: answer.payload, as: UTF8.self))")
                }
            }
        }
        line.attach { [weak host] envelope in
            // Not `host?.deliver(…) ?? …`: nil is deliver's answer for "handled".
            guard let host else { return Reply(status: .failed, payload: Array("the host is gone".utf8)) }
            return host.deliver(envelope)
        }
        return host
    }

    /// Asks for a frame to be sent at the end of this turn. A view's change needs no such
    /// call — it draws itself (`ViewChanges`); this is for what the views cannot see.
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
        return Reply(status: .ok)
    }

    func deliver(_ envelope: Envelope) -> Reply? {
        defer {
            // Input's frame goes out before its answer: the person waits for the frame,
            // the sender only learns from the answer whether anything handled it — unless
            // this input arrived while the main thread waits on a child, part-way through
            // handling something else, which the frame must not be composed in the middle of.
            if (envelope.kind == .touch || envelope.kind == .key) && !Switchboard.shared.isWaiting {
                publisher?.publishNow()
            } else {
                publisher?.setNeedsFrame()
            }
        }
        let message = envelope.message
        switch message {
        case .containment(let c) where c.phase == .willMove && c.parent != nil:
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
                try StateRestoration.received(r.payload)
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
        case .appearance, .touch:
            embedView()
            return controller.handleMessage(message, from: proxy)
        case .request(let r) where r.name == Request.redraw && envelope.source == Self.compositorID:
            return redraw()
        case .request(let r) where r.name == ControllerDescription.request:
            // For `trellis tree`: this process's part of the tree, asked by the parent.
            guard let json = try? JSONEncoder().encode(controller.describe(isProcessRoot: true)) else {
                return Reply(status: .failed, payload: Array("could not encode the description".utf8))
            }
            return Reply(status: .ok, payload: Array(json))
        default:
            return controller.handleMessage(message, from: proxy)
        }
    }

    private func embedView() {
        if window.rootViewController === controller { return window.installRootView() }
        guard controller.parent === proxy, controller.viewIfLoaded?.superview == nil else { return }
        proxy.view.addSubview(controller.view)
        controller.view.pinEdges(to: proxy.view)
    }
}
