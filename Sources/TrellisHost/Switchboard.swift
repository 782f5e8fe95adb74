import DequeModule
import Synchronization
import TrellisControllers
import TrellisLog
import TrellisTransport
import TrellisWire

/// How a controller calls a controller in another process, and how this process's
/// controllers are called from others: the one mechanism, one per loop whose hosts it
/// serves (`Switchboard.of`), on that loop's thread — a host's main-thread loop, a
/// main-queue loop in a test, an actor child's loop of its own. A link reaches the
/// switchboard of its own loop, never a process-wide one: what its loop's hosts wait
/// for and hold is that loop's alone, and a call waits by running that loop only.
///
/// **A call** (`call`) sends one message over a link and waits — bounded — until the
/// peer has handled it (its ack or reply), so that a call on a proxy behaves like a
/// call on an in-process child and the global callback order is the same in every
/// placement (docs/LIFECYCLE.md). The wait ends the moment the peer is known gone (the
/// link fails the request on a new hello, a lost heartbeat or a closed connection) and
/// at once for a peer already known lost. While it waits, exactly one thing of the
/// process's own runs: the messages of the peer being called, in order — the peer
/// calling back, as one process allows (S1-3, S2-4). Nothing else: no other peer's
/// message, no queued job or Task, no timer of the application (the loop's nested
/// `run(until:)` fires only the links' liveness timers), and no link is re-entered
/// (what a link reads is only held here, never handled inside the link's frame).
///
/// **Held messages.** What the links read for this process is held here, in the order
/// it was read, and handed to its line's handler one at a time, each answered when
/// handled — at the loop's top level, or during a call when it comes from the peer
/// called. A line whose handler is not attached yet (its host still being made) keeps
/// its messages until it is. Input (touch, key) whose turn comes more than
/// `inputBound` after it was read is answered `stale` and logged, not run.
///
/// **Trace.** The trace id of the message being handled is `trace`: what the handling
/// sends — calls, requests up, the frame it causes — carries it (`trellis trace`).
///
/// Not `Sendable`: it is its loop's thread's, reached only through the loop
/// (`IOLoop.local`, which checks the thread).
public final class Switchboard {
    /// The loop whose hosts this switchboard serves, and whose nested wait a call runs.
    /// Unowned: the loop keeps its switchboard (`IOLoop.local`), so outlives it.
    public unowned let loop: IOLoop

    /// The switchboard of `loop`'s hosts, made on first use. On the loop's thread.
    public static func of(_ loop: IOLoop) -> Switchboard {
        loop.local { Switchboard(loop: loop) }
    }

    /// Input (a touch, a key) whose turn comes later than this after its link read it
    /// is not run: it is answered `stale` and logged. A person who clicked a second ago
    /// and saw nothing has moved on; running the click now would act on a screen they no
    /// longer look at (issue 19: taps run 13–40 s late). Well under the sender's 2 s
    /// request bound, so the answer still reaches it and says what happened.
    public static let inputBound: Duration = .seconds(1)

    /// How often a call whose peer has not connected yet (its process still starting)
    /// looks again, until its deadline.
    static let connectPoll: UInt64 = 5_000_000
    /// How long past its deadline a sent call waits for the link to report the timeout.
    static let backstop: UInt64 = 100_000_000

    /// The trace id of the message being handled (0: none).
    public private(set) var trace: UInt64 = 0

    /// True while a call waits: what runs now runs in the middle of the caller's work.
    public var isWaiting: Bool { !calls.isEmpty }

    private enum Item {
        case message(Envelope, over: Link, arrived: UInt64)
        case peer(PeerEvent)
    }

    private struct Held {
        let line: Line
        let item: Item
    }

    /// Who a call on the stack waits for, and who makes it.
    private struct Call {
        let line: Line
        let peer: ControllerID
        let caller: ControllerID
    }

    private var held = Deque<Held>()
    /// While touches read together are handled: each one's trace, found again when it is
    /// forwarded (its position moved, the rest of it the same).
    private var touchTraces: [TouchKey: UInt64] = [:]

    private struct TouchKey: Hashable {
        let pointer: UInt32, phase: UInt8, timestamp: UInt64
        init(_ t: TouchInput) { pointer = t.pointer; phase = t.phase.rawValue; timestamp = t.timestamp }
    }
    private var calls: [Call] = []
    private var drainQueued = false
    private var draining = false

    private init(loop: IOLoop) {
        self.loop = loop
    }

    // MARK: Lines

    /// One link's connection to the switchboard: give the link `onMessage` and `onPeer`
    /// when it is made, and `attach` the handler once what handles its messages exists.
    ///
    /// `Sendable`, as the link's callbacks must be, because what it keeps is its loop's:
    /// `state` is checked to be touched on that thread alone (`LoopBound`).
    public final class Line: Sendable {
        public typealias Handler = (Envelope) -> Reply?
        /// Touches read together, in order: one answer each, for these and for those
        /// `more` hands over — the touches that arrived behind them while they were
        /// handled, which the handler takes before it sends what they changed
        /// (`attach(_:touches:peers:)`).
        public typealias TouchesHandler = (_ touches: [Envelope], _ more: () -> [Envelope]) -> [Reply?]

        let log: RoutingLog
        /// The loop of the link this line belongs to, whose switchboard holds its messages.
        let loop: IOLoop

        fileprivate struct State {
            var handler: Handler?
            var touchesHandler: TouchesHandler?
            var peerHandler: ((PeerEvent) -> Void)?
            /// Peers known to have stopped answering: a call to one fails at once.
            var lost: Set<ControllerID> = []
        }
        private let state: LoopBound<State>

        fileprivate var handler: Handler? { state.value.handler }
        fileprivate var touchesHandler: TouchesHandler? { state.value.touchesHandler }
        fileprivate var peerHandler: ((PeerEvent) -> Void)? { state.value.peerHandler }

        public init(log: RoutingLog, loop: IOLoop) {
            self.log = log
            self.loop = loop
            state = LoopBound(State(), loop: loop)
        }

        /// For the link: holds what it reads, and says it will answer itself.
        public var onMessage: @Sendable (Envelope, isolated Link) -> Disposition {
            { [self] envelope, link in
                let over: Link = link
                let arrived = link.loop.passTime
                precondition(link.loop === loop, "Switchboard: \(link.id)'s line belongs to another loop")
                Switchboard.of(loop).hold(Held(line: self, item: .message(envelope, over: over, arrived: arrived)))
                return .deferred
            }
        }

        /// For the link: a peer connected or was lost. Known at once (a call to a lost
        /// peer fails without waiting); the handler hears of it in turn with the messages.
        public var onPeer: @Sendable (PeerEvent) -> Void {
            { [self] event in
                switch event {
                case .lost(let id): state.value.lost.insert(id)
                case .connected(let id): state.value.lost.remove(id)
                }
                Switchboard.of(loop).hold(Held(line: self, item: .peer(event)))
            }
        }

        /// Hands this line's messages, held and to come, to `handler`, and its peer
        /// events to `peers`. With `touches`, a touch that has more touches from the same
        /// sender held right behind it — next in turn, nothing else between — is handed
        /// over with them, so that they can be forwarded together (a click's press and
        /// release read in one piece: docs/TRANSPORT.md, "Touches read together").
        public func attach(
            _ handler: @escaping Handler, touches: TouchesHandler? = nil, peers: ((PeerEvent) -> Void)? = nil
        ) {
            precondition(self.handler == nil, "Switchboard: a line attached twice")
            state.value.handler = handler
            state.value.touchesHandler = touches
            state.value.peerHandler = peers
            Switchboard.of(loop).drain()
        }

        /// Whether `peer` is known to have stopped answering.
        public func isLost(_ peer: ControllerID) -> Bool { state.value.lost.contains(peer) }
    }

    // MARK: Calling

    /// Sends `message` over `link` to `peer` (nil: a child end's parent) and waits until
    /// it has been handled: returns its reply, nil for an ack, or a `failed` reply that
    /// says why not (no answer within `timeout`, the peer gone, the send refused).
    public func call(
        _ message: Message, over link: Link, line: Line, to peer: ControllerID?, timeout: Duration
    ) -> Reply? {
        call([message], over: link, line: line, to: peer, timeout: timeout)[0]
    }

    /// `call` for several messages to one peer: all are sent at once, in order, and the
    /// call waits until the peer has handled every one — the peer handles them in the
    /// order sent, as it would one call after another, but the sender does not wait a
    /// round trip between them. One answer per message, as `call` gives.
    public func call(
        _ messages: [Message], over link: Link, line: Line, to peer: ControllerID?, timeout: Duration
    ) -> [Reply?] {
        precondition(loop.isCurrent, "Switchboard: a call waits by running its link's loop, on that loop's thread")
        precondition(link.loop === loop && line.loop === loop, "Switchboard: \(link.id) is another loop's")
        let callee: ControllerID
        switch (peer, link.role) {
        case (let peer?, _): callee = peer
        case (nil, .child(let parent)): callee = parent
        case (nil, .parent): preconditionFailure("Switchboard: a call on a parent end must name the child")
        }
        if line.isLost(callee) {
            return messages.map { _ in Reply(status: .failed, payload: Array("\(callee) is not responding".utf8)) }
        }
        let answers = messages.map { _ in Answer() }
        let traces = messages.map { traceOf($0) }
        let deadline = MonotonicClock.nanoseconds() &+ timeout.nanoseconds
        var sent = false
        calls.append(Call(line: line, peer: callee, caller: link.id))
        defer {
            calls.removeLast()
            // What was held meanwhile, from others, is handled next, in order.
            if !held.isEmpty { queueDrain() }
        }
        while !answers.allSatisfy(\.isSet) {
            if !sent, peer == nil || link.now({ $0.isConnected(callee) }) {
                let left = Duration.nanoseconds(Int64(clamping: deadline &- min(deadline, MonotonicClock.nanoseconds())))
                link.now { l in
                    // In one write on a lane: the peer reads them together (a gesture's
                    // phases, routed as one).
                    l.cork()
                    for (k, message) in messages.enumerated() {
                        l.request(message, to: peer, trace: traces[k], timeout: left) { answers[k].set($0) }
                    }
                    l.uncork()
                }
                sent = true
                continue
            }
            if let next = nextHeld() {
                deliver(next)
                continue
            }
            let now = MonotonicClock.nanoseconds()
            // The link times out a sent request at the deadline and says so; the end
            // here is only a backstop. Unsent, the call looks for its peer again soon.
            let end = sent ? deadline &+ Self.backstop : deadline
            guard now < end else { break }
            _ = loop.run(
                until: { answers.allSatisfy(\.isSet) || self.indexOfNextHeld() != nil || (!sent && link.now { $0.isConnected(callee) }) },
                deadline: sent ? end : min(end, now &+ Self.connectPoll))
        }
        return answers.map { answer in
            guard let result = answer.result else {
                return Reply(status: .failed, payload: Array((sent ? "no answer from \(callee)" : "\(callee) did not connect in time").utf8))
            }
            switch result {
            case .success(let envelope):
                if case .reply(let reply) = envelope.message { return reply }
                return nil
            case .failure(let error):
                return Reply(status: .failed, payload: Array("\(error)".utf8))
            }
        }
    }

    /// The trace a message sent now carries: the trace of the touch it forwards when it
    /// forwards one of a batch being handled (each keeps its own, `trellis trace`), else
    /// the trace of the message being handled.
    private func traceOf(_ message: Message) -> UInt64 {
        guard case .touch(let t) = message, let traced = touchTraces[TouchKey(t)] else { return trace }
        return traced
    }

    // MARK: Held messages

    private func hold(_ item: Held) {
        held.append(item)
        // During a call the wait looks for its peer's messages itself; the rest is
        // handled when no call is waiting.
        queueDrain()
    }

    private func queueDrain() {
        guard !drainQueued else { return }
        drainQueued = true
        let loop = self.loop
        loop.execute { Switchboard.of(loop).drain() }
    }

    /// Handles held messages, oldest first, while no call waits.
    func drain() {
        drainQueued = false
        guard !draining, calls.isEmpty else { return }
        draining = true
        defer { draining = false }
        while let next = nextHeld() { deliver(next) }
    }

    /// The next held item that may be handled now: during a call, the next message from
    /// the peer called on its line — or, when the peer is hosted in this process (an
    /// actor-placed child and its parent), the next from the caller to it, on the peer's
    /// line: the call itself, after what the caller sent it before; otherwise the oldest
    /// whose line is attached.
    private func nextHeld() -> Held? {
        guard let index = indexOfNextHeld() else { return nil }
        return held.remove(at: index)
    }

    private func indexOfNextHeld() -> Int? {
        if let call = calls.last {
            return held.firstIndex { h in
                guard case .message(let e, _, _) = h.item else { return false }
                if h.line === call.line { return e.source == call.peer }
                return e.source == call.caller && e.target == call.peer && h.line.handler != nil
            }
        }
        return held.firstIndex { $0.line.handler != nil }
    }

    private func deliver(_ h: Held) {
        switch h.item {
        case .peer(let event):
            h.line.peerHandler?(event)
        case .message(let envelope, let link, let arrived):
            guard let handler = h.line.handler else { return }
            if envelope.kind == .touch, let touches = h.line.touchesHandler, !isStale(arrived) {
                return answer(touches: envelope, over: link, line: h.line, touches)
            }
            answer(envelope, over: link, arrived: arrived, log: h.line.log, handler)
        }
    }

    /// The touches from `first`'s sender held next on its line, taken out — each the next
    /// in turn, so taking them now reorders nothing — none of them stale; `last` is the
    /// latest touch in hand before these.
    /// Unless the touches in hand end their gesture, what has arrived in the link's socket
    /// is read too: the loop's own read stopped once the first touch was held, and the
    /// rest of a click may be there, unread. With the release in hand the gesture is
    /// whole, and the next has its own turn. (The demo's root, woken by a tab switch's
    /// click: 25 µs from its switchboard's delivery to its host's handler before, 23 after,
    /// median of 166 clicks, uprobes on both; issue 20.)
    private func touchesHeldBehind(_ first: Envelope, last: Envelope, on line: Line, over link: Link) -> [Envelope] {
        var batch = takeHeldTouches(from: first.source, on: line, over: link)
        guard !Self.endsGesture(batch.last ?? last) else { return batch }
        // A sender in this process hands each touch over on its own: a click's release
        // may be queued for this loop, not yet held, when its press's turn comes.
        loop.runArrivedTransportWork()
        let sender = first.source
        link.now { $0.readArrived(from: sender) }
        batch += takeHeldTouches(from: first.source, on: line, over: link)
        return batch
    }

    private func takeHeldTouches(from source: ControllerID, on line: Line, over link: Link) -> [Envelope] {
        var batch: [Envelope] = []
        while let i = indexOfNextHeld(), case .message(let next, let nextLink, let nextArrived) = held[i].item,
              held[i].line === line, nextLink === link, next.kind == .touch, next.source == source,
              !isStale(nextArrived) {
            held.remove(at: i)
            batch.append(next)
        }
        return batch
    }

    private static func endsGesture(_ envelope: Envelope) -> Bool {
        guard case .touch(let t) = envelope.message else { return false }
        return t.phase == .ended || t.phase == .cancelled
    }

    private func isStale(_ arrived: UInt64) -> Bool {
        MonotonicClock.nanoseconds() &- arrived > Self.inputBound.nanoseconds
    }

    /// A touch, and those read with it or arriving while it is handled: handled as one by
    /// the line's touches handler, each answered in turn, each forwarded with its own trace.
    private func answer(touches first: Envelope, over link: Link, line: Line, _ handle: Line.TouchesHandler) {
        let outer = trace, outerTraces = touchTraces
        func traced(_ batch: [Envelope]) -> [Envelope] {
            for e in batch { if case .touch(let t) = e.message, e.trace != 0 { touchTraces[TouchKey(t)] = e.trace } }
            return batch
        }
        // What the handling causes (a frame, a tab's appearance calls) carries the trace of
        // the batch's last touch — a click's release, which `trellis trace last` follows.
        var all = traced([first] + touchesHeldBehind(first, last: first, on: line, over: link))
        trace = all[all.count - 1].trace != 0 ? all[all.count - 1].trace : outer
        let replies = handle(all) {
            let more = traced(touchesHeldBehind(first, last: all[all.count - 1], on: line, over: link))
            all += more
            if let last = more.last, last.trace != 0 { trace = last.trace }
            return more
        }
        trace = outer
        touchTraces = outerTraces
        link.now { l in
            // One write on a lane for the batch's answers (a click's two): its sender wakes
            // once, and this host, whose frame has just gone out, is done sooner.
            l.cork()
            defer { l.uncork() }
            for (k, e) in all.enumerated() {
                l.reply(to: e, (k < replies.count ? replies[k] : nil) ?? Reply(status: .ok))
            }
        }
    }

    private func answer(_ envelope: Envelope, over link: Link, arrived: UInt64, log: RoutingLog, _ handle: Line.Handler) {
        let isInput = envelope.kind.isInput
        if isInput && isStale(arrived) {
            let waited = MonotonicClock.nanoseconds() &- arrived
            let why = "stale: waited \(waited / 1_000_000) ms for its turn (bound \(Self.inputBound.nanoseconds / 1_000_000) ms), not run"
            log.record(RoutingRecord(
                host: log.host, at: envelope.target.rawValue, source: envelope.source.rawValue, target: envelope.target.rawValue,
                kind: envelope.kind.name, sequence: envelope.sequence, trace: envelope.trace, outcome: .dropped, reason: why))
            link.now { $0.reply(to: envelope, Reply(status: .stale, payload: Array(why.utf8))) }
            return
        }
        let outer = trace
        if envelope.trace != 0 { trace = envelope.trace }
        let reply = handle(envelope)
        trace = outer
        let wantsReply = envelope.kind == .request || isInput
        link.now { l in
            if wantsReply {
                l.reply(to: envelope, reply ?? Reply(status: .ok))
            } else if let reply, reply.status == .failed, envelope.flags.contains(.ackRequested) {
                // The sender waits to learn it was handled; it was not (a size no surface
                // may have, a kind the target does not take): say so, not ack it.
                let why = String(decoding: reply.payload, as: UTF8.self)
                _ = try? l.send(
                    .error(WireError(.handlerFailed, why.isEmpty ? "\(envelope.kind.name) not handled" : why)),
                    to: envelope.source, trace: envelope.trace, correlation: envelope.sequence)
            } else {
                l.acknowledge(envelope)
            }
        }
    }
}

/// One call's answer, set by the link on the loop's thread — which is the waiting
/// caller's, so the lock is never contended; it is there because the link's callback is
/// `@Sendable` and may not know that.
private final class Answer: Sendable {
    private let value = Mutex<Result<Envelope, LinkError>?>(nil)
    func set(_ result: Result<Envelope, LinkError>) { value.withLock { $0 = result } }
    var isSet: Bool { value.withLock { $0 != nil } }
    var result: Result<Envelope, LinkError>? { value.withLock { $0 } }
}
