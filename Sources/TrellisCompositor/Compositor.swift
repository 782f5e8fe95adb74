import Foundation
import Dispatch
import Synchronization
import TrellisCanvas
import TrellisLog
import TrellisTransport
import TrellisWire

/// The render server: holds every controller's surface and every container's
/// placements, composes one screen from them, and is the root controller's parent —
/// it sends the root its traits, its size and its appearance, and hands it the input.
///
/// Hosts connect to `hosts` (frames, placements, animations come in; the root's link
/// is also how the root is driven). Test clients and tools connect to `control`: they
/// inject input exactly as the terminal would (`touch`, `key`, `size`), and read the
/// composed screen (`request "screen"` → the text). Headless, the screen is only kept in
/// memory; a terminal front end draws it (`onScreen`).
@MainActor
public final class Compositor {
    public let rootID: ControllerID
    public private(set) var tree: SurfaceTree
    public private(set) var screen: Surface
    /// The non-size traits of the terminal (size classes come from the screen's size).
    public var environment = Traits.terminalEnvironment
    /// Called with each newly composed screen and its damage: the cells that changed
    /// since the screen before (`Surface.takeDamage()`), which the terminal's writer
    /// encodes and no layer compares again. Unset (headless), the damage is not taken.
    public var onScreen: (@MainActor (Surface, SurfaceDamage) -> Void)?

    private let hosts: Link
    private let control: Link
    /// The loop the compositor's links run on, which serves its main actor.
    public nonisolated var loop: IOLoop { hosts.loop }
    private let log: RoutingLog
    private var rootIsUp = false
    /// Frames received since the last composition that an input caused.
    private var composedTraces: [(UInt64, ControllerID)] = []
    private var composeScheduled = false
    /// Hosts whose batch of messages (`EnvelopeFlags.moreInBatch`) is not all here yet:
    /// composing waits for the rest.
    private var openBatches: [ControllerID: Int] = [:]
    private var nextBatch = 0
    /// How long a batch's first message waits for the rest, at most.
    static let batchLimit: Duration = .milliseconds(200)
    /// `batchLimit`, unless a test that must see a batch held open whatever the machine's
    /// load sets a longer one.
    var batchLimit = Compositor.batchLimit
    /// Whether a host's batch is not all here yet, so nothing composes.
    var holdsOpenBatch: Bool { !openBatches.isEmpty }
    /// Clients waiting for texts to be on the screen (`request "await-text"`), answered
    /// from the compose that first shows them, so a client learns when a change was
    /// composed without polling.
    private var textWaiters: [TextWaiter] = []
    private var nextWaiter = 0
    /// Hosts asked to send everything again (`askForEverything`), and the surfaces they
    /// have placed since.
    private var resent: [ControllerID: Set<ControllerID>] = [:]
    /// Per animated surface, the `animation` its container sent and when its motion ends
    /// (monotonic ns): acknowledged by the first compose at or after then, which shows the
    /// surface at its placement — or at once, if a newer animation of it replaces it.
    private var runningAnimations: [ControllerID: (envelope: Envelope, end: UInt64)] = [:]

    /// The longest animation a host may declare, delay included.
    public static let animationLimitMilliseconds: UInt32 = 60_000

    /// How long an `await-text` waits before it is answered `failed`.
    public static let awaitTextLimit = 5.0

    /// The compositor's id on the hosts' links, and the control endpoint's.
    public static let id: ControllerID = .compositor
    public static let controlID: ControllerID = .control

    private init(rootID: ControllerID, size: Size, hosts: Link, control: Link, log: RoutingLog) {
        self.rootID = rootID
        tree = SurfaceTree(root: rootID)
        screen = Surface(size: size)
        self.hosts = hosts
        self.control = control
        self.log = log
    }

    public static func start(
        root: ControllerID, size: Size, hostsEndpoint: String, controlEndpoint: String, loop: IOLoop, log: RoutingLog,
        options: LinkOptions = LinkOptions()
    ) async throws(LinkError) -> Compositor {
        // What it hears, its compose and its timers are the main actor's, run as the loop's
        // own work (`IOLoop.onMainActor`, `after`).
        precondition(loop.servesMainActor, "Compositor.start: the loop \(loop.name) must serve the main actor")
        let box = CompositorBox()
        // Every host message waiting is read before any is applied, so that a burst of
        // frames makes one compose (`fromHost`).
        var hostOptions = options
        hostOptions.readsAhead = true
        let hosts = try await Link.bind(
            id: id, endpoint: hostsEndpoint, loop: loop, log: log, options: hostOptions,
            onMessage: { envelope, _ in
                box.hostMessagesQueued.add(1, ordering: .relaxed)
                // The compositor never waits inside a nested run, so this is simply the
                // main actor's next turn — on this same thread in the compositor process.
                loop.onMainActor {
                    let more = box.hostMessagesQueued.subtract(1, ordering: .relaxed).newValue > 0
                    box.compositor.run { $0.fromHost(envelope, moreQueued: more) }
                }
                // An animation is acknowledged when it is over (`animationsOver`): that
                // is how its host learns it may run its completions.
                return envelope.kind == .animation ? .deferred : .handled
            },
            onPeer: { event in
                loop.onMainActor { box.compositor.run { $0.peer(event) } }
            })
        // Any process of the user can reach the control endpoint: a client may not speak
        // as a controller, nor take a connected client's id from it (docs/PROTOCOL.md §1).
        var controlOptions = options
        // Clients have no keys: the prefix rule and a private run directory guard it.
        controlOptions.curve = nil
        controlOptions.routerHandover = false
        // A client that is done closes its connection: it left, nothing was lost.
        controlOptions.departuresAreNormal = true
        controlOptions.refusal = ControlClientPolicy.refusal(of:)
        let control = try await Link.bind(
            id: controlID, endpoint: controlEndpoint, loop: loop, log: log, options: controlOptions,
            onMessage: { envelope, _ in
                // Input from a client goes on to the root as soon as it is read.
                loop.onMainActor { box.compositor.run { $0.fromClient(envelope) } }
                return .deferred
            })
        let c = Compositor(rootID: root, size: size, hosts: hosts, control: control, log: log)
        box.compositor.attach(c)
        return c
    }

    public func stop() async {
        await hosts.close()
        await control.close()
    }

    /// What the root is sent: the terminal's environment at the screen's size, by the
    /// same rule a window applies in one process.
    public var traits: Traits { environment.onTerminal(columns: screen.size.width, rows: screen.size.height) }

    // MARK: Hosts

    /// Composes at once when no other host message is queued behind this one — a frame
    /// reaches the screen in one hop from the link's thread — and otherwise once those
    /// are applied too, so a burst of frames still makes one compose.
    private func fromHost(_ e: Envelope, moreQueued: Bool) {
        switch e.message {
        case .frame(let f):
            do {
                // A layer a host lifted out of its surface: only one it placed itself.
                if let layer = f.layer, tree.container(of: layer) != e.source {
                    throw SurfaceError("it names the layer \(layer), which \(e.source) has not placed")
                }
                try tree.apply(f, from: f.layer ?? e.source)
                if e.trace != 0 { composedTraces.append((e.trace, e.source)) }
            } catch {
                event("frame #\(f.number) from \(e.source) refused: \(error)", peer: e.source)
            }
        case .placement(let p):
            tree.place(p, by: e.source)
            resent[e.source]?.insert(p.surface)
        case .animation(let a):
            animate(a, declaredBy: e)
        default:
            break
        }
        // A host's batch (a frame and its placements) is composed once, after its last
        // message: composed in between, the screen would be drawn twice, the first time
        // with the frame but not yet its placements.
        if e.flags.contains(.moreInBatch) {
            if openBatches[e.source] == nil { openBatch(of: e.source) }
        } else {
            openBatches[e.source] = nil
        }
        if moreQueued || !openBatches.isEmpty { setNeedsCompose() } else { composeNow() }
    }

    /// A batch whose last message never comes (its host stopped in the middle of
    /// sending it) holds the screen back no longer than `batchLimit`.
    private func openBatch(of source: ControllerID) {
        nextBatch += 1
        let token = nextBatch
        openBatches[source] = token
        after(batchLimit) {
            guard self.openBatches[source] == token else { return }
            self.openBatches[source] = nil
            self.setNeedsCompose()
        }
    }

    /// Starts `a` now, or refuses it with a reply that says why and a log line: a
    /// surface the sender has not placed, or longer than `animationLimitMilliseconds`.
    private func animate(_ a: Animation, declaredBy e: Envelope) {
        let total = UInt64(a.durationMilliseconds) + UInt64(a.delayMilliseconds)
        var why: String?
        if tree.container(of: a.surface) != e.source {
            why = "animation of \(a.surface) from \(e.source), which has not placed it (a container animates only the surfaces it places)"
        } else if total > UInt64(Self.animationLimitMilliseconds) {
            why = "animation of \(a.surface) lasts \(total) ms with its delay, more than \(Self.animationLimitMilliseconds)"
        }
        if let why {
            rejected("animation", why, from: e.source)
            hosts.run { l in l.reply(to: e, Reply(status: .declined, payload: Array(why.utf8))) }
            return
        }
        let now = MonotonicClock.nanoseconds()
        tree.animate(a, by: e.source, now: now)
        if let replaced = runningAnimations.updateValue((e, now + a.totalNanoseconds), forKey: a.surface) {
            hosts.run { l in l.acknowledge(replaced.envelope) }
        }
    }

    /// Acknowledges the animations whose motion is over at `now` (see `runningAnimations`).
    private func animationsOver(at now: UInt64) {
        let over = runningAnimations.filter { $0.value.end <= now }
        guard !over.isEmpty else { return }
        for id in over.keys { runningAnimations[id] = nil }
        let envelopes = over.values.map(\.envelope)
        hosts.run { l in for e in envelopes { l.acknowledge(e) } }
    }

    private func peer(_ event: PeerEvent) {
        switch event {
        case .connected(let id):
            tree.markUnresponsive(id, false)
            askForEverything(from: id)
            if id == rootID && !rootIsUp {
                rootIsUp = true
                Task { await bringUpRoot() }
            }
        case .lost(let id):
            tree.markUnresponsive(id, true)
            // Its animations go on; nobody is left to hear they ended.
            runningAnimations = runningAnimations.filter { $0.value.envelope.source != id }
            openBatches[id] = nil
            if id == rootID { rootIsUp = false }
        }
        setNeedsCompose()
    }

    /// Asks a host that (re)connected for its whole surface and every placement it makes
    /// (`redraw`): this compositor may be a restarted one that has none of it, or the
    /// host a restarted one whose predecessor's placements are still here. Placements the
    /// host makes that it does not send again before its answer are dropped.
    private func askForEverything(from id: ControllerID) {
        resent[id] = []
        let loop = hosts.loop
        hosts.run { l in
            l.request(.request(Request(name: Request.redraw)), to: id) { result in
                // Queued as the host messages read before the answer are, so it is
                // handled after them: they are the placements it counts.
                loop.onMainActor { self.redrawn(id, ok: (try? result.get()) != nil) }
            }
        }
    }

    private func redrawn(_ id: ControllerID, ok: Bool) {
        guard let kept = resent.removeValue(forKey: id) else { return }
        // Unanswered (the host died again, or is an old build): keep what is there.
        guard ok else { return }
        if tree.dropPlacements(by: id, except: kept) { setNeedsCompose() }
    }

    /// What a window does for its root: traits, size, then appearance, each handled
    /// before the next is sent.
    private func bringUpRoot() async {
        let size = screen.size
        _ = try? await hosts.request(.traits(traits), to: rootID)
        _ = try? await hosts.request(.sizeTransition(SizeTransition(width: UInt32(size.width), height: UInt32(size.height))), to: rootID)
        _ = try? await hosts.request(.appearance(Appearance(.willAppear, animated: false)), to: rootID)
        _ = try? await hosts.request(.appearance(Appearance(.didAppear, animated: false)), to: rootID)
    }

    /// A terminal resize: the screen, then the root's traits and size transition. A size
    /// no screen may have (`Size.screenSides`) changes nothing; callers bound it first.
    public func resize(to size: Size) async {
        guard size != screen.size, size.isScreenSize else { return }
        screen = Surface(size: size)
        tree.invalidate()
        if rootIsUp {
            _ = try? await hosts.request(.traits(traits), to: rootID)
            _ = try? await hosts.request(.sizeTransition(SizeTransition(width: UInt32(size.width), height: UInt32(size.height))), to: rootID)
        }
        setNeedsCompose()
    }

    /// The tree leaves the screen before its processes stop (the supervisor asks, so
    /// that every controller's disappearance callbacks run as when a window closes).
    public func takeDown() async {
        guard rootIsUp else { return }
        _ = try? await hosts.request(.appearance(Appearance(.willDisappear, animated: false)), to: rootID)
        _ = try? await hosts.request(.appearance(Appearance(.didDisappear, animated: false)), to: rootID)
    }

    /// Input enters the tree at the root, which hit-tests and routes it down (no
    /// shortcut past the containers). The message goes to the root now, and `answered`
    /// gets the root's answer (nil: not up, or no answer) on the main actor. Messages
    /// sent one after another reach the root, and are handled, in that order.
    /// Runs `body`, whose `send`s reach the root in one write on its lane: what the
    /// terminal gave in one read (a click's press and release) arrives together, and the
    /// root routes it as one gesture (docs/LIFECYCLE.md, "Touches read together").
    public func sendingTogether(_ body: () -> Void) {
        hosts.now { $0.cork() }
        body()
        hosts.now { $0.uncork() }
    }

    public func send(_ message: Message, trace: UInt64 = 0, answered: @escaping @MainActor @Sendable (Envelope?) -> Void) {
        guard rootIsUp else { return answered(nil) }
        let root = rootID, loop = hosts.loop
        hosts.run { l in
            l.request(message, to: root, trace: trace) { result in
                let envelope = try? result.get()
                loop.onMainActor { answered(envelope) }
            }
        }
    }

    // MARK: Composition

    private func setNeedsCompose() {
        guard !composeScheduled else { return }
        composeScheduled = true
        // The loop's next turn, on this thread: no wake-up of it through the main queue.
        loop.onMainActor {
            // A compose since (a frame's, a request's) already drew what this one would;
            // an open batch composes when its last message comes.
            guard self.composeScheduled else { return }
            guard self.openBatches.isEmpty else {
                self.composeScheduled = false
                return
            }
            self.composeNow()
        }
    }

    /// Runs `body` after `delay`, on a timer of the compositor's loop, which serves its
    /// main actor (`start`): libdispatch's timers (`asyncAfter`) are armed by a thread
    /// of their own, which each one woke — at every batch of every frame, on the way to
    /// the terminal.
    private func after(_ delay: Duration, _ body: @escaping @MainActor () -> Void) {
        _ = loop.schedule(afterNanoseconds: delay.nanoseconds) { MainActor.assumeIsolated(body) }
    }

    private func composeNow() {
        composeScheduled = false
        let now = MonotonicClock.nanoseconds()
        tree.compose(into: &screen, now: now)
        // Taken first: with `screen` passed before it in one call, the screen is copied
        // before `takeDamage` changes it, and the change then copies its cells.
        let damage = onScreen == nil ? nil : screen.takeDamage()
        // Read before the terminal's write and the log lines below: they are not composing.
        let composedAt = MonotonicClock.nanoseconds()
        if let onScreen, let damage { onScreen(screen, damage) }
        // The last hop of a traced input: the frame it caused is on the screen.
        for (trace, source) in composedTraces {
            log.record(RoutingRecord(
                host: log.host, at: Self.id.rawValue, source: source.rawValue, target: Self.id.rawValue, kind: "frame",
                trace: trace, outcome: .event, via: "", detail: "composed"))
        }
        composedTraces.removeAll()
        if !textWaiters.isEmpty { answerTextWaiters(composedAt: composedAt) }
        if !runningAnimations.isEmpty { animationsOver(at: now) }
        if tree.isAnimating(now: now) {
            after(.milliseconds(16)) { self.setNeedsCompose() }
        }
    }

    // MARK: Control clients

    /// Asks the root request `name` and hands its reply to a client's `answer`.
    private func askRoot(_ name: String, answer: @escaping @Sendable (Reply?) -> Void) {
        Task {
            guard rootIsUp, let e = try? await hosts.request(.request(Request(name: name)), to: rootID),
                  case .reply(let reply) = e.message else {
                answer(Reply(status: .failed, payload: Array("the root controller is not connected".utf8)))
                return
            }
            answer(reply)
        }
    }

    private func fromClient(_ e: Envelope) {
        let control = self.control
        @Sendable func answer(_ reply: Reply?) {
            control.run { l in
                if let reply { l.reply(to: e, reply) } else { l.acknowledge(e) }
            }
        }
        switch e.message {
        case .touch, .key, .scroll:
            // To the root's link and its answer straight back, with no task in between
            // (on the compositor's main-thread loop, all on this thread).
            guard rootIsUp else { return answer(Reply(status: .failed)) }
            let root = rootID
            hosts.run { l in
                l.request(e.message, to: root, trace: e.trace) { result in
                    guard case .success(let rootAnswer) = result else { return answer(Reply(status: .failed)) }
                    if case .reply(let r) = rootAnswer.message { answer(r) } else { answer(nil) }
                }
            }
        case .sizeTransition(let s):
            let size = Size(width: Int(s.width), height: Int(s.height))
            // Any client can send any u32 pair; a screen beyond frames' UInt16 sizes
            // stopped the compositor (issue 19 finding 5), and one within them but huge
            // would take its memory. Declined, the screen stays as it was.
            guard size.isScreenSize else {
                let why = "size \(size) is outside \(Size.screenSides.lowerBound)…\(Size.screenSides.upperBound) columns and rows; the screen stays \(screen.size)"
                rejected("size", why, from: e.source)
                return answer(Reply(status: .declined, payload: Array(why.utf8)))
            }
            Task {
                await resize(to: size)
                answer(nil)
            }
        case .request(let r) where r.name == "screen":
            // Wait for what is in flight to be composed first: the answer is the screen
            // after everything sent before the request.
            DispatchQueue.main.async {
                MainActor.assumeIsolated {
                    self.composeNow()
                    answer(Reply(status: .ok, payload: Array(self.screen.text.utf8)))
                }
            }
        case .request(let r) where r.name == "disappear":
            Task {
                await takeDown()
                answer(Reply(status: .ok))
            }
        case .request(let r) where r.name == "cells":
            DispatchQueue.main.async {
                MainActor.assumeIsolated {
                    self.composeNow()
                    let json = (try? JSONEncoder().encode(self.screen.runs)) ?? Data("[]".utf8)
                    answer(Reply(status: .ok, payload: Array(json)))
                }
            }
        case .request(let r) where r.name == "tree":
            // The root describes its process and asks its children's processes in turn.
            askRoot("describe", answer: answer)
        case .request(let r) where r.name == "keys":
            // The root lists its commands from the focus up, asking the child whose tree
            // holds focus for its own first (`trellis keys`).
            askRoot("key-commands", answer: answer)
        case .request(let r) where r.name == "await-text":
            // Texts separated by NUL, which no screen holds; all must be shown at once.
            let texts = r.payload.split(separator: 0, omittingEmptySubsequences: true).map { String(decoding: $0, as: UTF8.self) }
            DispatchQueue.main.async {
                MainActor.assumeIsolated {
                    self.composeNow()
                    self.awaitTexts(texts, answer: answer)
                }
            }
        case .request(let r):
            answer(Reply(status: .declined, payload: Array("unknown control request '\(r.name)' (known: screen, cells, tree, keys, await-text, disappear)".utf8)))
        default:
            answer(Reply(status: .declined, payload: Array("the control endpoint takes touch, key, scroll, size and request".utf8)))
        }
    }

    /// Answers at once when the screen already shows every text, else from the first
    /// compose that does, or `failed` after `awaitTextLimit` seconds. The answer's first
    /// line is when that compose finished (CLOCK_MONOTONIC ns, the same clock in every
    /// process), or "-" when the texts were shown before the request came; the screen's
    /// text follows.
    private func awaitTexts(_ texts: [String], answer: @escaping @MainActor (Reply?) -> Void) {
        let shown = screen.text
        if texts.allSatisfy({ shown.contains($0) }) {
            answer(Reply(status: .ok, payload: Array("-\n\(shown)".utf8)))
            return
        }
        nextWaiter += 1
        let token = nextWaiter
        textWaiters.append(TextWaiter(token: token, texts: texts, answer: answer))
        after(.seconds(Self.awaitTextLimit)) {
            guard let i = self.textWaiters.firstIndex(where: { $0.token == token }) else { return }
            let w = self.textWaiters.remove(at: i)
            w.answer(Reply(status: .failed, payload: Array("the texts were not all shown within \(Self.awaitTextLimit) s".utf8)))
        }
    }

    private func answerTextWaiters(composedAt: UInt64) {
        let shown = screen.text
        var waiting: [TextWaiter] = []
        for w in textWaiters {
            if w.texts.allSatisfy({ shown.contains($0) }) {
                w.answer(Reply(status: .ok, payload: Array("\(composedAt)\n\(shown)".utf8)))
            } else {
                waiting.append(w)
            }
        }
        textWaiters = waiting
    }

    private func event(_ text: String, peer: ControllerID) {
        rejected("frame", text, from: peer)
    }

    private func rejected(_ kind: String, _ reason: String, from peer: ControllerID) {
        log.record(RoutingRecord(
            host: log.host, at: Self.id.rawValue, source: peer.rawValue, target: Self.id.rawValue, kind: kind,
            outcome: .rejected, via: "", reason: reason))
    }
}

/// A control client's `await-text`, until the screen shows its texts.
struct TextWaiter {
    let token: Int
    let texts: [String]
    let answer: @MainActor (Reply?) -> Void
}

/// Lets the links' handlers, made before the compositor exists, reach it: what arrives
/// first waits for it (`UntilAttached`).
@MainActor
final class CompositorBox: Sendable {
    let compositor = UntilAttached<Compositor>()
    /// Host messages the link's thread handed to the main queue and the main actor has
    /// not applied yet.
    nonisolated let hostMessagesQueued = Atomic<Int>(0)
    nonisolated init() {}
}
