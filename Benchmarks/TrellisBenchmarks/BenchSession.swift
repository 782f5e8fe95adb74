import Foundation
import TrellisLog
import TrellisSession
import TrellisTransport
import TrellisWire

/// A session of real processes for a benchmark: the headless compositor and app hosts,
/// started from the executables next to this `trellis` binary in a private run directory,
/// and a control client on the compositor's control endpoint.
///
/// Every process it started is stopped by `stop()` — SIGTERM, then SIGKILL for any still
/// running after a bound — on success and on failure alike; the run directory is removed
/// unless the run failed (its logs then help) or TRELLIS_KEEP_RUN is set.
final class BenchSession {
    let run: RunDirectory
    let loop: IOLoop
    let log: RoutingLog
    private(set) var processes: [(name: String, process: Process)] = []
    private(set) var client: Link?

    init(_ name: String) throws {
        run = try RunDirectory.create(session: "bench-\(name)-\(getpid())")
        loop = IOLoop(name: "bench-client")
        log = try RoutingLog(directory: run.logs, host: "bench-client")
    }

    /// An executable built beside this one (`.build/release/trellis-app` next to
    /// `.build/release/trellis`), so a benchmark measures the build it belongs to.
    static func sibling(_ name: String) throws -> URL {
        guard let me = Bundle.main.executableURL?.resolvingSymlinksInPath() else {
            throw BenchError("cannot tell where this executable is, to find \(name) beside it")
        }
        let url = me.deletingLastPathComponent().appendingPathComponent(name)
        guard FileManager.default.isExecutableFile(atPath: url.path) else {
            throw BenchError("\(name) is not beside \(me.path): build it first "
                + "(swift build -c release --product \(name), or swift build -c release for every product)")
        }
        return url
    }

    func endpoint(_ name: String) throws -> String { try run.ipcEndpoint(name) }

    /// Starts `executable` (a sibling) with `arguments` and this session's flags; its
    /// standard error goes to `logs/<label>.stderr`.
    @discardableResult
    func launch(_ executable: String, _ arguments: [String], label: String) throws -> Process {
        let p = Process()
        p.executableURL = try Self.sibling(executable)
        p.arguments = arguments + ["--session", run.session, "--run-root", runRoot]
        p.standardInput = FileHandle.nullDevice
        p.standardOutput = FileHandle.nullDevice
        let errPath = "\(run.logs)/\(label).stderr"
        _ = FileManager.default.createFile(atPath: errPath, contents: nil)
        p.standardError = FileHandle(forWritingAtPath: errPath)
        try p.run()
        BenchChildren.started(p.processIdentifier)
        processes.append((label, p))
        return p
    }

    /// The headless compositor (80×24) and three hosts, each its own process: Root (of
    /// class `root`) → Middle (`middle`) → Leaf (`leaf`), each the next one's parent,
    /// as `latency` and `keys` run them. Children first: each connects to its parent's
    /// endpoint as soon as it exists.
    func launchChain(root: String, middle: String, leaf: String) throws {
        try launch("trellis-compositor", ["--root", "Root", "--headless", "--size", "80x24"], label: "compositor")
        try launch("trellis-app", ["--host", "Leaf", "--class", leaf, "--parent", "Middle",
                                   "--endpoint", try endpoint("Middle")], label: "Leaf")
        try launch("trellis-app", ["--host", "Middle", "--class", middle, "--parent", "Root",
                                   "--endpoint", try endpoint("Root"), "--remote-child", leaf], label: "Middle")
        try launch("trellis-app", ["--host", "Root", "--class", root, "--parent", "compositor",
                                   "--endpoint", try endpoint("compositor"), "--remote-child", middle], label: "Root")
    }

    var runRoot: String { URL(fileURLWithPath: run.path).deletingLastPathComponent().path }

    /// Connects the control client, waiting up to `timeout` for the compositor.
    func connect(timeout: Duration = .seconds(10)) async throws {
        let c = try await Link.connect(id: ControllerID("client-bench-\(getpid())")!, parent: "control", endpoint: try endpoint("control"), loop: loop, log: log)
        client = c
        let deadline = ContinuousClock.now + timeout
        while await !c.connectedPeers.contains("control") {
            guard ContinuousClock.now < deadline else { throw BenchError("the compositor's control endpoint did not answer within \(timeout)") }
            try await Task.sleep(for: .milliseconds(5))
        }
    }

    /// `request "await-text"` on the control endpoint: returns when the compositor
    /// finished the compose that first showed all `texts` (nil if they were shown before
    /// the request arrived), and the screen.
    func awaitTexts(_ texts: [String], timeout: Duration = .seconds(6)) async throws -> (composedAt: UInt64?, screen: String) {
        guard let client else { throw BenchError("not connected") }
        return try await Self.awaitTexts(texts, on: client, timeout: timeout)
    }

    /// `awaitTexts` on a given control client, for a wait that runs beside other work.
    static func awaitTexts(_ texts: [String], on client: Link, timeout: Duration = .seconds(6)) async throws -> (composedAt: UInt64?, screen: String) {
        let payload = Array(texts.joined(separator: "\u{0}").utf8)
        let answer = try await client.request(.request(Request(name: "await-text", payload: payload)), timeout: timeout)
        guard case .reply(let r) = answer.message else { throw BenchError("await-text: no reply") }
        let text = String(decoding: r.payload, as: UTF8.self)
        guard r.status == .ok else { throw BenchError("await-text \(texts.prefix(3)): \(r.status): \(text)") }
        let firstLine = text.prefix { $0 != "\n" }
        return (UInt64(firstLine), String(text.dropFirst(firstLine.count + 1)))
    }

    /// Waits until the screen shows every text, however long startup takes (`await-text`
    /// answers `failed` after its own limit, so it is asked again until `timeout`).
    func waitForTexts(_ texts: [String], timeout: Duration) async throws -> (composedAt: UInt64?, screen: String) {
        let deadline = ContinuousClock.now + timeout
        while true {
            do {
                return try await awaitTexts(texts)
            } catch {
                guard ContinuousClock.now < deadline else {
                    throw BenchError("the screen did not show \(texts.count) expected text(s) within \(timeout): \(error)")
                }
            }
        }
    }

    /// Touches the screen at (x, y) through the control endpoint; returns when the root
    /// has answered, with the CLOCK_MONOTONIC time read on the client link's own thread
    /// just before the send — where a raw baseline reads its own, just before its
    /// `zmq_send` — so the hop from the calling task to that thread, which the client
    /// alone has, is not in a measurement.
    /// Each touch carries a trace id, as `trellis tap` does, so that `trellis trace` (or a
    /// script over the kept run directory, TRELLIS_KEEP_RUN=1) shows where its time went.
    @discardableResult
    func touch(_ phase: TouchInput.Phase, x: Int32, y: Int32) async throws -> UInt64 {
        try await input(.touch(TouchInput(phase: phase, tapCount: 1, pointer: 0, x: x, y: y, timestamp: 0))).sentAt
    }

    /// A key, as the terminal would deliver it, through the control endpoint; timed as
    /// `touch` is. A key nothing handled is an error: the benchmark's key must land.
    @discardableResult
    func key(_ press: KeyPress) async throws -> UInt64 {
        let (sentAt, answer) = try await input(.key(press))
        if case .reply(let r) = answer.message, r.status != .ok {
            throw BenchError("key \(press): \(r.status): \(String(decoding: r.payload, as: UTF8.self))")
        }
        return sentAt
    }

    /// Sends input to the control endpoint with a trace id of its own; returns when the
    /// root has answered, with the time read on the client link's thread just before the send.
    private func input(_ message: Message) async throws -> (sentAt: UInt64, answer: Envelope) {
        guard let client else { throw BenchError("not connected") }
        let trace = UInt64.random(in: 1...UInt64.max)
        let (sentAt, answer) = await withCheckedContinuation { (c: CheckedContinuation<(UInt64, Result<Envelope, LinkError>), Never>) in
            client.run { link in
                let sentAt = MonotonicClock.nanoseconds()
                link.request(message, trace: trace) { c.resume(returning: (sentAt, $0)) }
            }
        }
        return (sentAt, try answer.get())
    }

    /// Process ids of what this session started (for /proc readings).
    var pids: [(name: String, pid: Int32)] { processes.map { ($0.name, $0.process.processIdentifier) } }

    /// Stops everything: the client, then every process (SIGTERM, and SIGKILL after
    /// `grace`). Keeps the run directory when `keep` or TRELLIS_KEEP_RUN is set.
    func stop(keep: Bool, grace: Duration = .seconds(2)) async {
        if let client { await client.close() }
        for (_, p) in processes where p.isRunning { p.terminate() }
        let deadline = ContinuousClock.now + grace
        while processes.contains(where: { $0.process.isRunning }), ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(10))
        }
        for (_, p) in processes where p.isRunning { kill(p.processIdentifier, SIGKILL) }
        for (_, p) in processes {
            BenchChildren.reaping(p.processIdentifier)
            p.waitUntilExit()
        }
        log.close()
        loop.shutdown()
        if keep || ProcessInfo.processInfo.environment["TRELLIS_KEEP_RUN"] != nil {
            print("run directory kept: \(run.path)")
        } else {
            try? FileManager.default.removeItem(atPath: run.path)
        }
    }
}
