import Foundation
import TrellisCanvas
import TrellisViews
import TrellisWire

/// How a controller reaches a controller in another process: one message out, and the
/// answer back — nil for an acknowledgement, a reply for a request or a touch.
///
/// `exchange` returns when the peer has *handled* the message (its callbacks ran and it
/// forwarded to its own children), or when the bounded wait ran out, which the link
/// logs; that wait is what keeps the global callback order across processes the same
/// as in one (docs/LIFECYCLE.md). A timed-out or failed exchange answers `.failed`.
public protocol RemotePort: AnyObject {
    func exchange(_ message: Message, from source: ControllerID, to target: ControllerID) -> Reply?
    /// Sends `message` without waiting for it to be handled: for a run of messages whose
    /// answers nothing needs, the peer handling them in the order they were sent, before
    /// whatever is sent next. The default waits, as `exchange` does.
    func post(_ message: Message, from source: ControllerID, to target: ControllerID)
    /// `exchange` for several messages, sent together: the peer handles them in order,
    /// each answered, and this returns once all are — without a round trip between them
    /// (touches read together, docs/LIFECYCLE.md "Touches read together"). The default
    /// exchanges them one after another.
    func exchange(_ messages: [Message], from source: ControllerID, to target: ControllerID) -> [Reply?]
}

extension RemotePort {
    public func exchange(_ messages: [Message], from source: ControllerID, to target: ControllerID) -> [Reply?] {
        messages.map { exchange($0, from: source, to: target) }
    }

    public func post(_ message: Message, from source: ControllerID, to target: ControllerID) {
        _ = exchange(message, from: source, to: target)
    }
}

/// Stands, in the parent's process, for a child controller that runs in another process.
///
/// The parent uses it like any child — `addChild`, its root view into the parent's
/// tree, `didMove(toParent:)`, appearance, traits, transitions. Its root view is the
/// viewport the child fills; every call the parent's machinery makes on it becomes a
/// message to the real child over `port`, answered before the parent goes on.
public final class RemoteController: ViewController {
    public let port: RemotePort
    /// The state the child's process last saved, kept here to hand back when it restarts
    /// (`StateRestoration`).
    public var restorableState: [UInt8]?
    /// What the remote child was last told its size is (forgotten when it is presented
    /// again: its process may be a new one).
    var sentSize: Size?

    public init(id: ControllerID, port: RemotePort) {
        self.port = port
        super.init(id: id)
    }

    /// The viewport; the real child loads its own view now, as an in-process child would
    /// on the parent's first access — a tab on its first selection (issue 23).
    public override func loadView() {
        let v = RemoteViewport(proxy: self)
        v.identifier = id.rawValue
        view = v
        forward(.request(Request(name: ProcessChildRequest.loadView)))
    }

    /// A key for the child's tree, where focus is (`RemoteViewport`): the child routes it
    /// to its focused view and up its chain, and answers declined — with the reason — if
    /// nothing there took it; then it goes on up this tree.
    override func keyMessage(_ key: KeyPress) -> Reply? {
        guard let answer = forward(.key(key)), answer.status != .ok else { return nil }
        if answer.status == .declined { return answer }
        let why = String(decoding: answer.payload, as: UTF8.self)
        return Reply(status: .declined, payload: Array("unhandled: \(id) did not answer the key (\(answer.status): \(why))".utf8))
    }

    /// Tab or Shift-Tab reached the viewport: the child's first (last) focusable view
    /// takes focus, if it has one.
    func enterFocus(forward: Bool) -> Bool {
        let answer = self.forward(.request(Request(name: ProcessChildRequest.focusEnter, payload: Array((forward ? "first" : "last").utf8))))
        return answer?.status == .ok
    }

    /// Focus moved from the viewport to elsewhere: the child's focused view resigns.
    func focusLeft() {
        forward(.request(Request(name: ProcessChildRequest.focusResign)))
    }

    /// The key commands of the child's tree, from its focused view up; empty if it does
    /// not answer (a footer then lists this tree's alone).
    /// What the child's tree offers a key typed now, as it last said
    /// (`ProcessChildRequest.keyCommandsChanged`): kept here, never asked for, so a footer
    /// or `trellis keys` costs no round trip and a hung child holds nothing up.
    public private(set) var activeKeyCommands: [KeyCommand.Summary] = []

    /// The child says its tree's key commands changed: kept, and this window's footers
    /// (and, in a host that is itself a child, its parent) hear of it.
    public func childKeyCommandsChanged(_ commands: [KeyCommand.Summary]) {
        guard commands != activeKeyCommands else { return }
        activeKeyCommands = commands
        window?.refreshKeyCommandFooters()
    }

    /// The child's process was lost: if focus was in its tree, it is nowhere now, and
    /// neither are the commands it offered (a restarted child says its own).
    public func childWasLost() {
        childKeyCommandsChanged([])
        guard let viewport = viewIfLoaded as? RemoteViewport, viewport.isFocused else { return }
        viewport.focusSystem?.clear()
    }

    /// A view in the child's tree took focus: so does the viewport here (and, through
    /// this process's own host, its parent's viewport, up to the root).
    public func childTookFocus() {
        guard let viewport = viewIfLoaded as? RemoteViewport else { return }
        viewport.focusSystem?.claim(viewport)
    }

    /// From its parent — or, presented, from the controller its presentation covers.
    @discardableResult
    func forward(_ message: Message) -> Reply? {
        port.exchange(message, from: sender, to: id)
    }

    /// Who the messages this proxy forwards come from: its parent, or the controller its
    /// presentation covers.
    private var sender: ControllerID { parent?.id ?? presentingViewController?.id ?? ControllerID("-") }

    // `super` keeps the movement flags on the proxy too, for the parent's code to read as
    // it would an in-process child's; it logs nothing for a proxy.
    public override func willMove(toParent parent: ViewController?) {
        super.willMove(toParent: parent)
        forward(.containment(Containment(.willMove, parent: parent?.id)))
    }

    public override func didMove(toParent parent: ViewController?) {
        super.didMove(toParent: parent)
        forward(.containment(Containment(.didMove, parent: parent?.id)))
    }

    public override func viewWillAppear(_ animated: Bool) { forward(.appearance(Appearance(.willAppear, animated: animated))) }
    public override func viewDidAppear(_ animated: Bool) { forward(.appearance(Appearance(.didAppear, animated: animated))) }
    public override func viewWillDisappear(_ animated: Bool) { forward(.appearance(Appearance(.willDisappear, animated: animated))) }
    public override func viewDidDisappear(_ animated: Bool) { forward(.appearance(Appearance(.didDisappear, animated: animated))) }

    public override func traitCollectionDidChange(_ previous: TraitCollection?) {
        forward(.traits(traitCollection.wire))
    }

    public override func didReceiveMemoryWarning() { forward(.memoryWarning) }

    /// The child's tree joins this transition: it hears the will now, its alongside blocks
    /// run where this proxy's place among `coordinator`'s is (where an in-process child
    /// registers its own), its completions with the others'; its new size comes from
    /// layout, as an in-process child's frame does. One coordinator for the whole tree,
    /// and no second transition for the same resize (issue 23).
    public override func viewWillTransition(to size: Size, with coordinator: TransitionCoordinator) {
        let transition = SizeTransition(
            width: UInt32(max(0, size.width)), height: UInt32(max(0, size.height)),
            durationMilliseconds: UInt32(max(0, coordinator.duration * 1000)))
        forward(.request(Request(name: ProcessChildRequest.sizeTransition, payload: ProcessChildRequest.payload(transition))))
        coordinator.animate(
            alongsideTransition: { [weak self] _ in self?.forward(.request(Request(name: ProcessChildRequest.alongside))) },
            completion: { [weak self] _ in self?.forward(.request(Request(name: ProcessChildRequest.complete))) })
    }

    /// The viewport's size is the child's size: tell it whenever layout changes it — a
    /// `size` message, which lays the child out and is no transition of its own.
    public override func viewDidLayoutSubviews() {
        super.viewDidLayoutSubviews()
        let size = view.bounds.size
        guard size != sentSize else { return }
        sentSize = size
        forward(.sizeTransition(SizeTransition(width: UInt32(size.width), height: UInt32(size.height))))
    }

    /// The child's process came back — restarted after a crash, or answering again after
    /// it stopped (SIGSTOP, a long stall): tell it what it missed — its parent, its
    /// traits, its size — in the order a new child hears them, then bring its appearance
    /// to where the parent has it (issue 4; issue 19, finding 2).
    public func replayState() {
        guard let parent else { return replayDismissal() }
        // First, so that each controller has its state back before its view loads.
        if let restorableState {
            forward(.request(Request(name: StateRestoration.restoreRequest, payload: restorableState)))
        }
        // Posted, not each waited for: the parent waits once, for the description below,
        // which the child answers after handling these in order. Each wait here holds up
        // everything else the parent's process would do (issue 19: taps elsewhere while a
        // stopped child was restarted).
        let post = { (message: Message) in self.port.post(message, from: parent.id, to: self.id) }
        post(.containment(Containment(.willMove, parent: parent.id)))
        if traitStorage != nil { post(.traits(traitCollection.wire)) }
        post(.containment(Containment(.didMove, parent: parent.id)))
        if let size = sentSize {
            post(.sizeTransition(SizeTransition(width: UInt32(size.width), height: UInt32(size.height))))
        }
        // Asked, not assumed: a restarted child has appeared nowhere, but one that only
        // stopped answering may have got a will whose did failed while it was stopped,
        // and would stay half-way (`viewWillDisappear` and no `viewDidDisappear`).
        guard let theirs = childAppearance() else { return }
        for phase in Self.phases(from: theirs, to: appearanceState) {
            forward(.appearance(Appearance(phase, animated: false)))
        }
    }

    /// The appearance the child's process has, from its own description; nil if it does
    /// not answer (then the next reconnection replays again).
    func childAppearance() -> AppearanceState? {
        let reply = port.exchange(.request(Request(name: ControllerDescription.request)), from: parent?.id ?? "-", to: id)
        guard let reply, reply.status == .ok,
              let d = try? JSONDecoder().decode(ControllerDescription.self, from: Data(reply.payload))
        else { return nil }
        return AppearanceState(rawValue: d.appearance)
    }

    /// The appearance messages that take a child from `theirs` to `ours`, each a legal
    /// step (LIFECYCLE.md: a will in the other direction cancels a transition under way),
    /// so every will the child got ends in its did.
    static func phases(from theirs: AppearanceState, to ours: AppearanceState) -> [Appearance.Phase] {
        switch (theirs, ours) {
        case (.disappeared, .appeared), (.disappearing, .appeared): [.willAppear, .didAppear]
        case (.appearing, .appeared): [.didAppear]
        case (.disappeared, .appearing), (.disappearing, .appearing): [.willAppear]
        case (.appeared, .disappeared), (.appearing, .disappeared): [.willDisappear, .didDisappear]
        case (.disappearing, .disappeared): [.didDisappear]
        case (.appeared, .disappearing), (.appearing, .disappearing): [.willDisappear]
        default: []
        }
    }

    override func scrollMessage(_ input: ScrollInput) -> Bool {
        guard let answer = forward(.scroll(input)) else { return true }
        return answer.status == .ok
    }

    override func touchMessage(_ input: TouchInput) -> Bool {
        guard let answer = forward(.touch(input)) else { return true }
        return answer.status == .ok
    }

    /// A gesture's phases read together go to the child's process together: it handles
    /// them in order, and nothing waits a round trip between them.
    override func touchMessages(_ inputs: [TouchInput]) -> [Bool] {
        port.exchange(inputs.map { .touch($0) }, from: sender, to: id).map { $0 == nil || $0?.status == .ok }
    }
}

/// The root view of a child hosted elsewhere, in its parent's tree: the child fills it,
/// and for focus it is one stop that stands for the child's tree (`FocusForwarding`).
/// Focused, it is the marker that keys go to the child; focus leaving it tells the child
/// to resign (docs/LIFECYCLE.md, "Focus across processes").
public final class RemoteViewport: View, FocusForwarding {
    public private(set) weak var proxy: RemoteController?

    init(proxy: RemoteController) {
        self.proxy = proxy
        super.init(frame: .zero)
    }

    public required init(frame: Rect = .zero) { super.init(frame: frame) }

    public func enterFocus(forward: Bool) -> Bool { proxy?.enterFocus(forward: forward) ?? false }

    public override func focusDidChange() {
        if !isFocused { proxy?.focusLeft() }
    }
}

/// Stands, in a child's process, for its parent in another process: the child's
/// `parent`, whose view holds the child's root view, and through which the child's
/// requests go up.
public final class ParentProxy: ViewController {
    public let port: RemotePort
    /// The completions of `dismiss` calls this proxy's tree asked the parent's process to
    /// apply, until it says it has (`ProcessChildRequest.dismissDone`).
    var afterParentDismissal: [() -> Void] = []
    /// Set by the host: presents a controller of this process, asked from this proxy's
    /// tree, from the parent's process — where the window that owns the screen it covers
    /// is (RemotePresentation.swift); answers why not, or nil once asked — `completion`
    /// runs once that process has presented it.
    public var presentsInParentProcess: (
        (_ controller: ViewController, _ animated: Bool, _ completion: (() -> Void)?) -> PresentationRefusal?
    )?

    public init(id: ControllerID, port: RemotePort) {
        self.port = port
        super.init(id: id)
    }

    public override func handle(_ request: Request, from child: ViewController) -> Reply? {
        port.exchange(.request(request), from: child.id, to: id) ?? Reply(status: .ok)
    }

    /// Makes `child` this proxy's child without sending it anything: the real parent
    /// already did (its `containment` message is being delivered).
    /// The controller this proxy stands for presented one here (RemotePresentation.swift):
    /// it hears the size transition after this proxy's tree, as a presented controller
    /// hears the window's.
    public override func viewWillTransition(to size: Size, with coordinator: TransitionCoordinator) {
        super.viewWillTransition(to: size, with: coordinator)
        guard let presented = hostedPresentation?.presented else { return }
        presented.pendingCoordinator = coordinator
        presented.viewWillTransition(to: size, with: coordinator)
        presented.pendingCoordinator = nil
    }

    public func adopt(_ child: ViewController) {
        guard child.parent !== self else { return }
        adoptChild(child)
    }

    /// The reverse of `adopt`, before `didMove(toParent: nil)` is delivered. The child's
    /// callbacks from then on still go to this process's window's log, as a removed tree's
    /// go to its last window's.
    public func release(_ child: ViewController) {
        releaseChild(child)
        if child.hostingWindow == nil { child.formerWindow = window }
    }
}
