import Dispatch
import Foundation
import TrellisLog
import TrellisSession
import TrellisTerminal
import TrellisTransport
import TrellisWire

/// Starts a scene's processes, restarts them by policy, and stops them cleanly.
///
/// Hosts start first, deepest first (a parent's first messages then find its children
/// connected), the compositor last: it takes the terminal only once everything it will
/// show is running, and until then `progress` can speak to the person who started us.
/// A process that exits is restarted under the scene's strategy — one-for-one (that
/// process) or one-for-all (every host) — unless that makes more than `intensity`
/// restarts within `period` seconds: then the supervisor stops the whole tree and says
/// why, as an Erlang/OTP supervisor does. Stopping runs the tree's disappearance
/// callbacks first, then stops processes in reverse order of start — the compositor
/// first, which restores the terminal. Every decision is a routing-log line (host and
/// kind `supervisor`, outcome `event`); the members are in `<run dir>/session.json`.
@MainActor
public final class Supervisor {
    public let scene: Scene
    public let run: RunDirectory
    public let headless: Bool
    private let binaries: SceneBinaries
    private let log: RoutingLog

    private struct Launch {
        var id: String
        var role: String
        var className: String
        var binary: URL
        var arguments: [String]
    }

    private var plan: [Launch] = []
    /// One CURVE key pair per process id for the session's life: a restarted process
    /// gets its own again, and its parent, which admitted its public key, knows it.
    private var keys: [String: CurveKeyPair] = [:]
    private var processes: [String: Process] = [:]
    private var restartCounts: [String: Int] = [:]
    private var restartTimes: [Double] = []
    /// Pids we are stopping on purpose: their exit is not a failure.
    private var stoppingPids: Set<Int32> = []
    private var state = "starting"
    private var stopReason: String?
    private var stopped = false
    private var stopWaiters: [CheckedContinuation<String?, Never>] = []
    private var hangWatch: HangWatch
    /// The terminal as it was before the compositor took it; nil headless.
    private var terminal: TerminalKeeper?
    private var hangTimer: (any DispatchSourceTimer)?
    /// Beside its pid in session.json, so that `trellis down` never signals a process
    /// that got this pid after the supervisor exited.
    private let supervisorStart = ProcessStart.time(of: getpid())

    /// Progress for people: one line per step.
    public var progress: @MainActor (String) -> Void = { _ in }

    /// `binaries` were found, and the scene's classes checked against the app, before
    /// `run` was made: a scene that is refused leaves nothing behind (issue 21).
    public init(scene: Scene, run: RunDirectory, binaries: SceneBinaries, headless: Bool) throws {
        self.scene = scene
        self.run = run
        self.binaries = binaries
        self.headless = headless
        log = try RoutingLog(directory: run.logs, host: "supervisor")
        hangWatch = HangWatch(limit: scene.hang)
        terminal = headless ? nil : TerminalKeeper()
        plan = try makePlan()
        for l in plan { keys[l.id] = try CurveKeyPair.generate() }
        // An actor-placed controller speaks to the compositor as itself, on a link of its own.
        for c in scene.controllers where c.placement == .actor { keys[c.id.rawValue] = try CurveKeyPair.generate() }
        // A process that exits before it has read its keys must not take the supervisor
        // with it: the write then fails with EPIPE instead.
        signal(SIGPIPE, SIG_IGN)
    }

    // MARK: The plan

    private var runRoot: String { (run.path as NSString).deletingLastPathComponent }

    private func makePlan() throws -> [Launch] {
        let depth: (Scene.Controller) -> Int = { c in
            var d = 0, p = c.parent
            while let id = p { d += 1; p = self.scene.controllers.first { $0.id == id }?.parent }
            return d
        }
        var launches: [Launch] = []
        for c in scene.processes.sorted(by: { depth($0) > depth($1) }) {
            launches.append(Launch(
                id: c.id.rawValue, role: c.parent == nil ? "root" : "host", className: c.className, binary: binaries.app,
                arguments: try hostArguments(c)))
        }
        var args = ["--session", run.session, "--run-root", runRoot, "--root", scene.root.id.rawValue,
                    "--size", "\(scene.size.width)x\(scene.size.height)", "--supervised", "--keys-on-stdin"]
        if headless { args.append("--headless") }
        launches.append(Launch(id: "compositor", role: "compositor", className: "", binary: binaries.compositor, arguments: args))
        return launches
    }

    /// A host runs `c` and the actor- and inline-placed controllers under it; it gets
    /// their data, the embed segues of all of them, proxies for their process-placed
    /// children, and which classes to host as actors — its own controllers', and each
    /// actor's tree's (`--actor-remote-child`, `--actor-actor-child`: issue 20).
    ///
    /// A process-placed child connects to the parent end of the loop that runs its parent
    /// (`Scene.parentEnd`), as that end's controller's child: its parent's process's, or
    /// — under a controller an actor's loop runs — that actor's own, which its host binds
    /// on the actor's loop (issue 20). There the child's stand-in is made and what it
    /// sends is handed to its real parent (`RemoteChildren`).
    private func hostArguments(_ c: Scene.Controller) throws -> [String] {
        let parent = scene.parentEnd(of: c)?.rawValue ?? "compositor"
        // Throws when the socket path would not fit a Unix socket address.
        let endpoint = try run.ipcEndpoint(parent)
        var args = ["--host", c.id.rawValue, "--class", c.className, "--parent", parent,
                    "--endpoint", endpoint, "--session", run.session, "--run-root", runRoot, "--supervised",
                    "--keys-on-stdin"]
        let local = scene.controllers.filter { scene.processOwner(of: $0).id == c.id }
        // The classes of process- and actor-placed children, by the loop whose tree makes
        // them: this host's own (`c.id`), or one of its actors'.
        var remote: [ControllerID: Set<String>] = [:], actors: [ControllerID: Set<String>] = [:]
        for member in local {
            for (k, v) in member.data.sorted(by: { $0.key < $1.key }) { args += ["--data", "\(member.id):\(k)=\(v)"] }
            let loop = scene.loopOwner(of: member).id
            for child in scene.children(of: member.id) {
                if child.placement == .process { remote[loop, default: []].insert(child.className) }
                if child.placement == .actor { actors[loop, default: []].insert(child.className) }
                if let view = child.embed { args += ["--embed", "\(member.id):\(child.id):\(child.className):\(view)"] }
                // A process-placed child's data travels with its own host's arguments.
            }
        }
        for name in (remote[c.id] ?? []).sorted() { args += ["--remote-child", name] }
        for name in (actors[c.id] ?? []).sorted() { args += ["--actor-child", name] }
        for (actor, names) in remote.sorted(by: { $0.key < $1.key }) where actor != c.id {
            // Its parent end is a socket: one whose path would not fit fails here, before anything starts.
            _ = try run.ipcEndpoint(actor.rawValue)
            for name in names.sorted() { args += ["--actor-remote-child", "\(actor):\(name)"] }
        }
        for (actor, names) in actors.sorted(by: { $0.key < $1.key }) where actor != c.id {
            for name in names.sorted() { args += ["--actor-actor-child", "\(actor):\(name)"] }
        }
        return args
    }

    /// What process `id` is handed on its standard input (docs/PROTOCOL.md §1): its
    /// pair, its parent end's and the compositor's public keys, its children's, and for
    /// each actor it hosts, its pair and the children that connect to its parent end.
    private func processKeys(for id: String) -> ProcessKeys {
        let own = keys[id]!
        let hosts = scene.processes
        let actors = scene.controllers.filter { $0.placement == .actor }
        if id == "compositor" {
            // Every host connects here: the root as its child, the others — and each actor
            // child, on a link of its own — with frames.
            return ProcessKeys(
                own: own, parent: nil, compositor: nil,
                children: Dictionary(uniqueKeysWithValues: (hosts + actors).map { (keys[$0.id.rawValue]!.publicKey, $0.id) }))
        }
        // Who connects to the parent end of `end`'s loop: the processes it runs the parents of.
        let connecting: (ControllerID) -> [String: ControllerID] = { end in
            Dictionary(uniqueKeysWithValues: hosts.filter { self.scene.parentEnd(of: $0) == end }.map { (self.keys[$0.id.rawValue]!.publicKey, $0.id) })
        }
        let me = hosts.first { $0.id.rawValue == id }
        let parentEnd = me.flatMap { scene.parentEnd(of: $0) }?.rawValue ?? "compositor"
        let hosted = actors.filter { scene.processOwner(of: $0).id.rawValue == id }
        let ends = hosted.map { ($0.id, connecting($0.id)) }.filter { !$0.1.isEmpty }
        return ProcessKeys(
            own: own, parent: keys[parentEnd]?.publicKey, compositor: keys["compositor"]?.publicKey,
            children: me.map { connecting($0.id) } ?? [:],
            actors: Dictionary(uniqueKeysWithValues: hosted.map { ($0.id, keys[$0.id.rawValue]!) }),
            actorChildren: Dictionary(uniqueKeysWithValues: ends))
    }

    // MARK: Starting

    /// Starts every process of the plan, in order.
    public func start() throws {
        decide("starting \(plan.count) processes for \(scene.file) in \(run.path), app \(binaries.app.path)")
        for l in plan { try launch(l) }
        state = "running"
        writeState()
        watchForHangs()
    }

    /// Every pulse interval: kills a process whose main thread stopped beating (SIGSTOP,
    /// a spin, a deadlock) for longer than the scene's `restart.hang`; its exit then
    /// restarts it under the policy, as a crash would. The pid is one of our own
    /// children, not yet reaped (`isRunning`), so it cannot name another process.
    private func watchForHangs() {
        let timer = DispatchSource.makeTimerSource(queue: .main)
        timer.schedule(deadline: .now() + .milliseconds(200), repeating: .milliseconds(200))
        timer.setEventHandler { [weak self] in MainActor.assumeIsolated { self?.checkPulses() } }
        timer.resume()
        hangTimer = timer
    }

    private func checkPulses() {
        guard state == "running" else { return }
        let running = plan.compactMap { l -> (id: String, pid: Int32)? in
            guard let p = processes[l.id], p.isRunning else { return nil }
            return (l.id, p.processIdentifier)
        }
        let run = self.run
        for hung in hangWatch.check(running: running, now: MonotonicClock.nanoseconds(), lastBeat: { Pulse.lastBeat(in: run, name: $0) }) {
            guard let p = processes[hung.id], p.isRunning, p.processIdentifier == hung.pid else { continue }
            decide("\(hung.id) (pid \(hung.pid)) is hung: its main thread has not run for \(hung.silentNanoseconds / 1_000_000) ms (limit \(Int(scene.hang * 1000)) ms); killing it")
            kill(hung.pid, SIGKILL)
        }
    }

    /// Waits until the tree is up (`BringUp`: every host has said hello to its parent's
    /// process and to the compositor, and the root's first frame reached the compositor)
    /// or `timeout` passes; then `notUp` says what is missing.
    public func waitUntilUp(timeout: Duration = .seconds(15)) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        var reader = LogReader(directory: run.logs)
        var bringUp = BringUp(scene: scene)
        while ContinuousClock.now < deadline, !stopped {
            bringUp.read(reader.readNew())
            if bringUp.isUp {
                decide("the tree is up: \(plan.count) processes")
                return true
            }
            try? await Task.sleep(for: .milliseconds(50))
        }
        notUp = bringUp.missing { id in processes[id.rawValue]?.isRunning == true }
        decide("not up within \(timeout): \(notUp.joined(separator: "; "))")
        return false
    }

    /// After `waitUntilUp` gave up: what was missing, one sentence each.
    public private(set) var notUp: [String] = []

    private func launch(_ l: Launch) throws {
        Pulse.clear(in: run, name: l.id)
        let p = Process()
        p.executableURL = l.binary
        p.arguments = l.arguments
        // Hosts must not write over the compositor's screen; what they print is kept.
        if l.role != "compositor" || headless {
            let outputs = "\(run.path)/output"
            try RunDirectory.makePrivateDirectory(outputs)
            let path = "\(outputs)/\(l.id).log"
            _ = FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o600])
            if let h = FileHandle(forWritingAtPath: path) {
                h.seekToEndOfFile()
                p.standardOutput = h
                p.standardError = h
            }
        }
        // The keys travel on a pipe only this process reads (docs/PROTOCOL.md §1).
        let keyPipe = Pipe()
        p.standardInput = keyPipe
        p.terminationHandler = { [weak self] proc in
            let pid = proc.processIdentifier, status = proc.terminationStatus
            let signaled = proc.terminationReason == .uncaughtSignal
            DispatchQueue.main.async { MainActor.assumeIsolated { self?.exited(l.id, pid: pid, status: status, signaled: signaled) } }
        }
        do { try p.run() } catch {
            decide("could not start \(l.role) \(l.id): \(error)")
            throw error
        }
        processes[l.id] = p
        sendKeys(processKeys(for: l.id), to: keyPipe, of: l.id)
        decide("started \(l.role) \(l.id)\(l.className.isEmpty ? "" : " (\(l.className))") pid \(p.processIdentifier)")
    }

    /// Writes `keys` and closes the pipe: the end of input says they are all there. A
    /// process that exited first fails here (EPIPE) and is restarted as any that exits.
    private func sendKeys(_ keys: ProcessKeys, to pipe: Pipe, of id: String) {
        let fd = pipe.fileHandleForWriting.fileDescriptor
        let bytes = Array(keys.encoded.utf8)
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            if n > 0 { offset += n } else if n < 0 && errno == EINTR { continue } else {
                decide("could not hand \(id) its keys: \(String(cString: strerror(errno)))")
                break
            }
        }
        try? pipe.fileHandleForWriting.close()
    }

    // MARK: Restarting

    private func exited(_ id: String, pid: Int32, status: Int32, signaled: Bool) {
        // A compositor that died without giving the terminal back (a crash, SIGKILL)
        // leaves it to a dead process group: take it back for the shell.
        if id == "compositor" && !headless && isatty(STDIN_FILENO) == 1 { _ = ForegroundGroup.take(STDIN_FILENO) }
        if id == "compositor" { terminal?.giveBack() }
        if stoppingPids.remove(pid) != nil || stopped || state == "stopping" { return }
        let how = signaled ? "was killed by signal \(status)" : "exited with status \(status)"
        decide("\(id) (pid \(pid)) \(how)")
        let now = Double(MonotonicClock.nanoseconds()) / 1e9
        restartTimes = restartTimes.filter { now - $0 < scene.period } + [now]
        if restartTimes.count > scene.intensity {
            Task { await stop(because: "more than \(scene.intensity) restarts within \(scene.period) s; the last: \(id) \(how)") }
            return
        }
        // One-for-one restarts the process and those below it in the tree: a child's
        // containment and appearance came from the dead process's controllers, and its
        // restarted parent builds its tree afresh (Erlang's rest-for-one, by the tree).
        let below = ControllerID(id).map { scene.processDescendants(of: $0).map(\.rawValue) } ?? []
        let victims = id == "compositor" ? [id]
            : scene.strategy == .oneForOne ? [id] + below
            : plan.map(\.id).filter { $0 != "compositor" }
        // One-for-all: the others stop first (deliberately, so their exits are not failures).
        for v in victims where v != id { stopProcess(v, deliberately: true) }
        for v in plan.map(\.id) where victims.contains(v) {
            guard let l = plan.first(where: { $0.id == v }) else { continue }
            restartCounts[v, default: 0] += 1
            let why = v != id && below.contains(v) ? "below \(id)" : scene.strategy.rawValue
            decide("restarting \(v) (\(why), restart \(restartCounts[v]!) of at most \(scene.intensity) in \(scene.period) s)")
            do { try launch(l) } catch {
                Task { await stop(because: "could not restart \(v): \(error)") }
                return
            }
        }
        writeState()
    }

    // MARK: Stopping

    /// Stops the tree: disappearance callbacks through the compositor, then every
    /// process in reverse order of start. Returns once nothing is left running.
    public func stop(because reason: String? = nil) async {
        guard state != "stopping", !stopped else { return }
        state = "stopping"
        hangTimer?.cancel()
        hangTimer = nil
        stopReason = reason
        decide("stopping the tree" + (reason.map { ": \($0)" } ?? ""))
        writeState()
        if processes["compositor"]?.isRunning == true, let why = await TreeDisappearance.request(run: run, log: log) {
            decide("the tree did not disappear cleanly: \(why)")
        }
        for l in plan.reversed() { stopProcess(l.id, deliberately: true) }
        terminal?.giveBack()
        stopped = true
        state = "stopped"
        decide("stopped" + (reason.map { ": \($0)" } ?? ""))
        writeState()
        log.flush()
        for w in stopWaiters { w.resume(returning: reason) }
        stopWaiters = []
    }

    /// Returns when the tree has stopped: nil if asked to, else why it stopped itself.
    public func stoppedReason() async -> String? {
        if stopped { return stopReason }
        return await withCheckedContinuation { stopWaiters.append($0) }
    }

    /// SIGTERM, then SIGKILL after 3 s.
    private func stopProcess(_ id: String, deliberately: Bool) {
        guard let p = processes[id], p.isRunning else { return }
        if deliberately { stoppingPids.insert(p.processIdentifier) }
        p.terminate()
        let deadline = Date().addingTimeInterval(3)
        while p.isRunning && Date() < deadline { usleep(5_000) }
        if p.isRunning {
            kill(p.processIdentifier, SIGKILL)
            decide("\(id) did not stop within 3 s: killed")
        }
        p.waitUntilExit()
    }

    // MARK: State and log

    public var members: [SessionState.Member] {
        plan.map { l in
            let p = processes[l.id]
            let pid = p?.isRunning == true ? p!.processIdentifier : 0
            return SessionState.Member(
                id: l.id, role: l.role, className: l.className, pid: pid, start: ProcessStart.time(of: pid),
                restarts: restartCounts[l.id] ?? 0)
        }
    }

    private func writeState() {
        let s = SessionState(
            supervisor: getpid(), supervisorStart: supervisorStart, scene: scene.file, state: state, reason: stopReason,
            members: members)
        do { try s.write(to: run) } catch { progress("warning: \(error)") }
    }

    private func decide(_ text: String) {
        progress(text)
        log.record(RoutingRecord(
            host: "supervisor", at: "supervisor", source: "supervisor", target: "-", kind: "supervisor",
            outcome: .event, via: "", detail: text))
        log.flush()
    }
}
