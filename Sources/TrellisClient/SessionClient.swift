import Foundation
import TrellisCanvas
import TrellisLog
import TrellisSession
import TrellisTransport
import TrellisWire

/// A test client attached to a running session: it drives the tree exactly as a
/// terminal would — input enters at the compositor's control endpoint and the root
/// container routes it down — and reads what the compositor composed and what every
/// process logged. `trellis screen|tap|wait|…` and Swift tests both use it.
///
/// ```swift
/// let app = try await SessionClient.attach(session: "demo")
/// try await app.tap(text: "next")
/// try await app.wait(forText: "Detail", timeout: .seconds(5))
/// #expect(try app.callbacks(of: "Detail").first == "Detail.viewDidLoad")
/// ```
public actor SessionClient {
    public let run: RunDirectory
    private let loop: IOLoop
    private let log: RoutingLog
    private let link: Link
    private let clientID: ControllerID

    private init(run: RunDirectory, loop: IOLoop, log: RoutingLog, link: Link, id: ControllerID) {
        self.run = run
        self.loop = loop
        self.log = log
        self.link = link
        clientID = id
    }

    /// Attaches to `session` (the newest when nil); waits up to `timeout` for it to
    /// exist and for the compositor's control endpoint to answer. `id` (a fresh
    /// `client-PID-N` by default) must begin with `client-`: the endpoint refuses any
    /// other, and an id another client has is not taken from it (`ClientError.idInUse`).
    public static func attach(
        session: String? = nil, root: String = RunDirectory.root, timeout: Duration = .seconds(10),
        id chosenID: ControllerID? = nil
    ) async throws -> SessionClient {
        // A client started beside `trellis up` may look before the session exists.
        let deadline = ContinuousClock.now + timeout
        var found: RunDirectory?
        while found == nil {
            do {
                let newest = try RunDirectory.find(session: session, root: root)
                // Unnamed, the newest session is meant; one that has ended is not it while
                // a `trellis up` started a moment ago has yet to make its own (issue 21).
                if session == nil, Self.hasEnded(newest), ContinuousClock.now < deadline {
                    try await Task.sleep(for: .milliseconds(50))
                    continue
                }
                found = newest
            } catch {
                // Waiting cannot make someone else's directory ours.
                if case RunDirectoryError.notPrivate = error { throw ClientError.noSession("\(error)") }
                guard ContinuousClock.now < deadline else { throw ClientError.noSession("\(error)") }
                try await Task.sleep(for: .milliseconds(50))
            }
        }
        let run = found!
        let loop = IOLoop(name: "client")
        // Each client logs, so a tap from a test shows up in `trellis logs` as the first
        // hop of its path; all of them in one file, since every `trellis` call is a
        // client of its own and a file each would pile up (issue 21).
        let log = try RoutingLog(directory: run.logs, host: "client", file: Self.logFile)
        let id = chosenID ?? ControllerID("client-\(getpid())-\(UInt16.random(in: 0...UInt16.max))")!
        let link: Link
        var options = LinkOptions()
        options.watchesHandshake = true
        do {
            link = try await Link.connect(
                id: id, parent: .control, endpoint: try run.ipcEndpoint("control"), loop: loop, log: log,
                options: options)
        } catch {
            loop.shutdown()
            throw ClientError.unreachable(run.session, "\(error)")
        }
        func fail(_ error: ClientError) async -> ClientError {
            await link.close()
            log.close()
            loop.shutdown()
            return error
        }
        var handshaken: ContinuousClock.Instant?
        while true {
            switch await link.helloAnswer {
            case .accepted?: return SessionClient(run: run, loop: loop, log: log, link: link, id: id)
            case .refused(let why)?: throw await fail(.refused(id.rawValue, why.text))
            case nil: break
            }
            let now = ContinuousClock.now
            if handshaken == nil, let h = await link.handshake(), h.succeeded > 0 { handshaken = now }
            // The endpoint answers a hello on its I/O thread, at once: a compositor that
            // completed the handshake and stays silent this long keeps another client
            // under this id and will not read us (docs/PROTOCOL.md §1).
            if let handshaken, now - handshaken > Self.helloPatience { throw await fail(.idInUse(id.rawValue)) }
            guard now < deadline else {
                throw await fail(.unreachable(run.session, "the compositor's control endpoint did not answer within \(timeout)"))
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    /// Whether `run`'s supervisor has stopped the session or is gone; a session whose
    /// state cannot be read (not written yet, say) has not ended.
    static func hasEnded(_ run: RunDirectory) -> Bool {
        guard let state = try? SessionState.read(from: run) else { return false }
        return state.state == "stopped" || [.notRunning, .anotherProcess].contains(state.supervisorVerdict)
    }

    /// The log file every client of a session shares, in `<run dir>/logs/`.
    public static let logFile = "clients.jsonl"

    /// How long after a completed handshake an unanswered hello means the id is taken.
    static let helloPatience = Duration.seconds(2)

    /// Detaches; the session keeps running.
    public func close() async {
        await link.close()
        log.close()
        loop.shutdown()
    }

    // MARK: The screen

    /// The composed screen as text, one line per row, after everything sent before.
    public func screen() async throws -> String {
        let reply = try await request("screen")
        return String(decoding: reply.payload, as: UTF8.self)
    }

    /// The composed screen with its attributes: each row as runs of equally styled cells.
    public func cells() async throws -> [[StyledRun]] {
        let reply = try await request("cells")
        do { return try JSONDecoder().decode([[StyledRun]].self, from: Data(reply.payload)) } catch {
            throw ClientError.failed("cells", "the compositor's answer is not rows of cells: \(error)")
        }
    }

    /// Polls the screen until it shows `text`; throws `.timeout` with the last screen.
    @discardableResult
    public func wait(forText text: String, timeout: Duration = .seconds(10)) async throws -> String {
        try await wait(timeout: timeout, for: "the screen to show \(text.debugDescription)") { $0.contains(text) }
    }

    /// Polls the screen until it no longer shows `text`.
    @discardableResult
    public func wait(forTextGone text: String, timeout: Duration = .seconds(10)) async throws -> String {
        try await wait(timeout: timeout, for: "the screen to stop showing \(text.debugDescription)") { !$0.contains(text) }
    }

    private func wait(timeout: Duration, for what: String, _ done: @escaping (String) -> Bool) async throws -> String {
        // A compositor that is still starting (or restarting) may miss one request:
        // waiting rides over that, within the same deadline.
        try await poll(timeout, for: { what }) { [self] in
            guard let shown = try? await screen(), done(shown) else { return nil }
            return shown
        }
    }

    /// Tries `attempt` every `interval` until it gives a value, or throws `.timeout`
    /// after `timeout` with `what()` and the screen as it is then.
    private func poll<T>(
        _ timeout: Duration, every interval: Duration = .milliseconds(40), for what: () -> String,
        _ attempt: () async -> T?
    ) async throws -> T {
        let deadline = ContinuousClock.now + timeout
        while true {
            if let value = await attempt() { return value }
            guard ContinuousClock.now < deadline else {
                throw ClientError.timeout(what(), screen: (try? await screen()) ?? "")
            }
            try await Task.sleep(for: interval)
        }
    }

    /// Every controller of the tree, across processes: class, placement, appearance,
    /// traits and frame (`trellis tree`).
    public func tree() async throws -> ControllerDescription {
        let reply = try await request("tree")
        do { return try JSONDecoder().decode(ControllerDescription.self, from: Data(reply.payload)) } catch {
            throw ClientError.failed("tree", "the compositor's answer is not a tree: \(error)")
        }
    }

    /// One key command a key typed now would be offered to, as the root's host lists them
    /// (docs/PROTOCOL.md: `keys`): deepest responder first, one per key.
    public struct ActiveKeyCommand: Decodable, Sendable, Equatable {
        public var key: String
        public var title: String
        public var isEnabled: Bool
        /// The controller's id, or the identifier of the view that declared it.
        public var owner: String
    }

    /// The key commands active for the current focus, across processes (`trellis keys`).
    public func keyCommands() async throws -> [ActiveKeyCommand] {
        let reply = try await request("keys")
        do { return try JSONDecoder().decode([ActiveKeyCommand].self, from: Data(reply.payload)) } catch {
            throw ClientError.failed("keys", "the compositor's answer is not a list of key commands: \(error)")
        }
    }

    /// Polls the tree until controller `id` is in appearance state `state`
    /// (`appeared`, `disappeared`, …).
    @discardableResult
    public func wait(forController id: String, state: String, timeout: Duration = .seconds(10)) async throws -> ControllerDescription {
        var last: ControllerDescription?
        return try await poll(timeout, every: .milliseconds(60), for: {
            "\(id) to be \(state); the tree is:\n\(last?.text() ?? "(no root yet)")"
        }) { [self] in
            // Until the root is up there is no tree to ask: that is waiting, not failing.
            last = try? await tree()
            return last?.find(id).flatMap { $0.appearance == state ? $0 : nil }
        }
    }

    // MARK: Input

    /// A tap (began, ended) at a screen cell. Returns its trace id: `trellis trace`
    /// follows it through every hop to the frame it produced.
    @discardableResult
    ///
    /// A tap that reached the tree but that no view or controller handled throws
    /// `ClientError.unhandled`: the tree is fine, the tap changed nothing.
    public func tap(at point: Point) async throws -> UInt64 {
        let trace = Self.newTrace()
        try await touches("the tap at \(point.x),\(point.y)", trace: trace, [(.began, point), (.ended, point)])
        return trace
    }

    /// Sends the phases of one touch in order. An unhandled phase does not stop the
    /// rest — the tree must see the touch end — and `what` is unhandled only if every
    /// phase was: a view that acts on `touchesEnded` alone lets `began` go up the chain.
    private func touches(_ what: String, trace: UInt64, _ phases: [(TouchInput.Phase, Point)]) async throws {
        var handled = false
        for (phase, point) in phases {
            do {
                try await touch(phase, at: point, trace: trace)
                handled = true
            } catch ClientError.unhandled {}
        }
        if !handled { throw ClientError.unhandled(what, trace: trace) }
    }

    /// A fresh trace id, never 0 (0 means "not traced").
    static func newTrace() -> UInt64 { UInt64.random(in: 1...UInt64.max) }

    /// Taps the middle of the first place the screen shows `text`; returns where, and
    /// the tap's trace id.
    @discardableResult
    public func tap(text: String) async throws -> (point: Point, trace: UInt64) {
        let shown = try await screen()
        guard let at = ScreenText.locate(text, in: shown) else { throw ClientError.notOnScreen(text, screen: shown) }
        return (at, try await tap(at: at))
    }

    /// A drag: began at `from`, `steps` moves along the line, ended at `to`.
    @discardableResult
    public func drag(from: Point, to: Point, steps: Int = 8) async throws -> UInt64 {
        let trace = Self.newTrace()
        let n = max(1, steps)
        let moves = (1...n).map { i in
            (TouchInput.Phase.moved, Point(x: from.x + (to.x - from.x) * i / n, y: from.y + (to.y - from.y) * i / n))
        }
        try await touches(
            "the drag from \(from.x),\(from.y) to \(to.x),\(to.y)", trace: trace, [(.began, from)] + moves + [(.ended, to)])
        return trace
    }

    public func touch(_ phase: TouchInput.Phase, at point: Point, pointer: UInt32 = 0, trace: UInt64 = 0) async throws {
        let input = TouchInput(
            phase: phase, tapCount: 1, pointer: pointer, x: Int32(point.x), y: Int32(point.y),
            timestamp: MonotonicClock.nanoseconds())
        try await send(.touch(input), trace: trace == 0 ? Self.newTrace() : trace)
    }

    /// The mouse wheel turned `deltaY` notches down (negative: up; `deltaX` right) with
    /// the pointer at `point`, as the terminal would deliver it; returns its trace id.
    /// Nothing there scrolling that way throws `ClientError.unhandled`.
    @discardableResult
    public func scroll(at point: Point, deltaY: Int = 0, deltaX: Int = 0) async throws -> UInt64 {
        let trace = Self.newTrace()
        let input = ScrollInput(
            deltaX: Int32(deltaX), deltaY: Int32(deltaY), x: Int32(point.x), y: Int32(point.y), timestamp: MonotonicClock.nanoseconds())
        try await send(.scroll(input), trace: trace)
        return trace
    }

    /// A key press, as the terminal would deliver it; returns its trace id.
    @discardableResult
    public func key(_ key: KeyPress) async throws -> UInt64 {
        let trace = Self.newTrace()
        try await send(.key(key), trace: trace)
        return trace
    }

    /// Types `text` one character at a time, each a key as a terminal sends typing, to
    /// wherever focus is — a text field in any process.
    public func type(_ text: String) async throws {
        for character in text { try await key(KeyPress(text: String(character))) }
    }

    /// The terminal's new size: a size transition at the root, traits follow.
    public func resize(to size: Size) async throws {
        try await send(.sizeTransition(SizeTransition(width: UInt32(size.width), height: UInt32(size.height))))
    }

    /// Asks the compositor to take the tree off the screen (disappearance callbacks).
    public func disappear() async throws { _ = try await request("disappear") }

    // MARK: The log

    /// Every routing record of the session so far, all processes merged by time.
    public nonisolated func records() -> [RoutingRecord] {
        var reader = LogReader(directory: run.logs)
        return reader.readNew()
    }

    /// The ordered callback log (`Id.callback` lines, e.g. `Child.viewWillAppear(false)`)
    /// of the given controllers, or of all when `ids` is empty.
    public nonisolated func callbacks(of ids: Set<String> = []) -> [String] {
        records().filter { $0.kind == "callback" && (ids.isEmpty || ids.contains($0.at)) }.compactMap(\.detail)
    }

    /// Waits until the callback log has `line` (each process writes its log within
    /// 50 ms of an event, so a callback can be read shortly after the screen shows it);
    /// returns the callback log of `ids` then.
    @discardableResult
    public func wait(forCallback line: String, of ids: Set<String> = [], timeout: Duration = .seconds(10)) async throws -> [String] {
        var reader = LogReader(directory: run.logs)
        var seen: [RoutingRecord] = []
        return try await poll(timeout, for: { "the callback \(line.debugDescription) in the log" }) {
            // Read on from where the last poll stopped, not the whole log again.
            seen += reader.readNew().filter { $0.kind == "callback" }
            guard seen.contains(where: { $0.detail == line }) else { return nil }
            return seen.filter { ids.isEmpty || ids.contains($0.at) }.compactMap(\.detail)
        }
    }

    /// Waits until no message is in flight anywhere in the tree and nothing but the
    /// links' heartbeats has been logged for `quiet` (each process writes its log within
    /// 50 ms, so `quiet` must be longer than that for the log to be the whole truth).
    public func waitUntilIdle(quiet: Duration = .milliseconds(200), timeout: Duration = .seconds(10)) async throws {
        var reader = LogReader(directory: run.logs)
        var flight = InFlight()
        var lastChange = ContinuousClock.now
        var lastNoise: [RoutingRecord] = []
        let me = clientID.rawValue
        try await poll(timeout, every: .milliseconds(25), for: {
            let what = flight.pending.prefix(5).map { "\($0.kind) \($0.source) → \($0.target) #\($0.sequence)" }
            let latest = lastNoise.map { "\($0.host): \($0.kind) \($0.source) → \($0.target) \($0.outcome.rawValue) \($0.detail ?? $0.reason ?? "")" }
            return "the tree to be idle; in flight: "
                + (what.isEmpty ? "nothing, but the log keeps growing, latest: \(latest.joined(separator: "; "))" : what.joined(separator: ", "))
        }) { () -> Void? in
            let new = reader.readNew()
            flight.add(new)
            flight.advance(to: MonotonicClock.nanoseconds())
            // Links heartbeat forever, and this client's own link may say hello again when
            // a loaded test process answers late: only the tree's messages break the quiet.
            let noise = new.filter { r in
                !["heartbeat", "link", "hello"].contains(r.kind) && r.source != me && r.target != me
            }
            if !noise.isEmpty {
                lastChange = ContinuousClock.now
                lastNoise = Array(noise.suffix(3))
            }
            return flight.pending.isEmpty && ContinuousClock.now - lastChange >= quiet ? () : nil
        }
    }

    // MARK: Plumbing

    private func send(_ message: Message, trace: UInt64 = 0) async throws {
        let answer: Envelope
        do { answer = try await link.request(message, trace: trace) } catch { throw ClientError.failed("\(message.kind)", "\(error)") }
        if case .reply(let r) = answer.message, r.status != .ok {
            // Declined: the root's answer that nothing in the tree took the input (the
            // responder chain ended), not a failure of the session. A key's answer says
            // which path it took (docs/PROCESSES.md).
            if r.status == .declined {
                let why = String(decoding: r.payload, as: UTF8.self)
                throw ClientError.unhandled(why.isEmpty ? "the \(message.kind)" : "the \(message.kind) (\(why))", trace: trace)
            }
            throw ClientError.failed("\(message.kind)", "\(r.status): \(String(decoding: r.payload, as: UTF8.self))")
        }
    }

    private func request(_ name: String) async throws -> Reply {
        let answer: Envelope
        do { answer = try await link.request(.request(Request(name: name))) } catch {
            throw ClientError.failed(name, "\(error)")
        }
        guard case .reply(let r) = answer.message else { throw ClientError.failed(name, "no reply") }
        guard r.status == .ok else { throw ClientError.failed(name, "\(r.status): \(String(decoding: r.payload, as: UTF8.self))") }
        return r
    }
}

/// What can go wrong for a client; each says what to do about it.
public enum ClientError: Error, CustomStringConvertible {
    case noSession(String)
    case unreachable(String, String)
    case timeout(String, screen: String)
    case notOnScreen(String, screen: String)
    case failed(String, String)
    /// The control endpoint refused the client's id: the id, and why.
    case refused(String, String)
    /// Another client is attached under this id; it keeps it.
    case idInUse(String)
    /// The input reached the tree, and nothing there handled it: no view where it
    /// landed takes it, and no controller up the responder chain did. What, and its trace.
    case unhandled(String, trace: UInt64)

    public var description: String {
        switch self {
        case .noSession(let why): "no session to attach to: \(why)"
        case .unreachable(let s, let why): "session \(s) does not answer: \(why) (is it up? `trellis ps --session \(s)`)"
        case .timeout(let what, let screen): "timed out waiting for \(what); the screen shows:\n\(screen)"
        case .notOnScreen(let text, let screen): "\(text.debugDescription) is not on the screen; it shows:\n\(screen)"
        case .failed(let what, let why): "\(what) failed: \(why)"
        case .refused(let id, let why): "the session refused client id \(id): \(why)"
        case .idInUse(let id): "client id \(id) is in use: another client is attached under it, and keeps it"
        case .unhandled(let what, let trace):
            "nothing handled \(what): no view there takes it and no controller up the responder chain did (trace \(TraceID.hex(trace)))"
        }
    }
}
