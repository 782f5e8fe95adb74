import Foundation
import SeededRandom
import TrellisCanvas
import TrellisClient
import TrellisLog
import TrellisSeeds
import TrellisSession
import TrellisTransport
import TrellisWire

/// One run of `trellis bench chaos`, phase by phase, on a started `ChaosSession`.
struct ChaosRun {
    let options: ChaosBench
    let session: ChaosSession
    var random: SplitMix64
    let children = DemoTabs.tabs.map(\.name)

    func seconds(_ s: Double) -> Duration { .milliseconds(Int64(s * 1000)) }

    mutating func measure() async throws -> ChaosResult {
        try session.start()
        let run = try await session.waitForRunDirectory(timeout: .seconds(30))
        let loop = IOLoop(name: "chaos-client")
        let log = try RoutingLog(directory: run.logs, host: "chaos-client")
        let link: Link
        do {
            link = try await Link.connect(id: "client-chaos", parent: "control", endpoint: try run.ipcEndpoint("control"), loop: loop, log: log)
        } catch {
            log.close()
            loop.shutdown()
            throw error
        }
        let result: Result<ChaosResult, any Error>
        do { result = .success(try await phases(on: link, run: run)) } catch { result = .failure(error) }
        await link.close()
        log.close()
        loop.shutdown()
        return try result.get()
    }

    mutating func phases(on link: Link, run: RunDirectory) async throws -> ChaosResult {
        let deadline = ContinuousClock.now + .seconds(30)
        while await !link.connectedPeers.contains("control") {
            guard ContinuousClock.now < deadline else { throw BenchError("the compositor's control endpoint did not answer within 30 s") }
            try await Task.sleep(for: .milliseconds(20))
        }
        let targets = try await locateTargets(link)
        let restartsBefore = session.restarts()

        let tapper = ChaosTapper(link: link, targets: targets, rate: options.rate, perTab: options.perTab)
        tapper.phase = .quiet
        tapper.start()
        let kills: [ChaosLog.Kill], skipped: Int, stopped: ChaosResult.Stopped
        do {
            try await Task.sleep(for: seconds(options.quietSeconds))
            tapper.phase = .kills
            (kills, skipped) = try await killPhase()
            tapper.phase = .after
            try await Task.sleep(for: seconds(options.afterSeconds))
            stopped = try await stopPhase(tapper)
        } catch {
            await tapper.stopSending()
            throw error
        }
        await tapper.stopSending()

        // Every answer, or the bound for calling the rest lost.
        let drainEnd = ContinuousClock.now + ChaosBench.lostBound
        while tapper.progress().answered < tapper.progress().sent, ContinuousClock.now < drainEnd {
            try await Task.sleep(for: .milliseconds(50))
        }
        let taps = tapper.taps()
        let restarts = session.restarts() - restartsBefore
        // Every process writes its log within 50 ms of an event.
        try await Task.sleep(for: .milliseconds(300))
        return ChaosResult(
            taps: taps, kills: kills, skippedKills: skipped, restarts: restarts, stopped: stopped,
            log: ChaosLog(directory: run.logs), options: options)
    }

    /// The tabs from the first screen; each tab's content point from the screen that
    /// tab shows. Ends back on the first tab.
    func locateTargets(_ link: Link) async throws -> ChaosTargets {
        let titles = DemoTabs.tabs.map(\.title)
        let first = try await waitForTexts([titles[0], "tap me"], on: link, timeout: .seconds(40))
        let tabs = try ChaosTargets.tabs(titles, on: first)
        var content: [Point] = []
        for (i, child) in children.enumerated() {
            try await tap(tabs[i], on: link)
            let steady = ChaosTargets.steadyButtons[child] ?? []
            let screen = steady.isEmpty ? try await screenText(link) : try await waitForTexts(steady, on: link, timeout: .seconds(20))
            content.append(steady.lazy.compactMap { ScreenText.locate($0, in: screen) }.first
                ?? ChaosTargets.contentMiddle(of: screen, tabRow: tabs[i].y))
        }
        try await tap(tabs[0], on: link)
        return ChaosTargets(tabs: tabs, content: content, children: children)
    }

    /// Every `--kill-every-ms`, SIGKILL to a random child host whose pid is verified this
    /// session's; one still restarting (no verified pid) is skipped, not waited for.
    mutating func killPhase() async throws -> (kills: [ChaosLog.Kill], skipped: Int) {
        var kills: [ChaosLog.Kill] = [], skipped = 0
        let clock = ContinuousClock()
        let start = clock.now
        let end = start + seconds(options.seconds)
        var next = start
        while true {
            next += .milliseconds(options.killEveryMs)
            guard next <= end else { break }
            try await Task.sleep(until: next, clock: clock)
            let id = children[random.below(children.count)]
            guard let member = session.verifiedMembers()[id] else { skipped += 1; continue }
            let at = MonotonicClock.nanoseconds()
            if session.signal(SIGKILL, id: id, pid: member.pid) {
                kills.append(ChaosLog.Kill(id: id, pid: member.pid, at: at))
            } else {
                skipped += 1
            }
        }
        try await Task.sleep(until: end, clock: clock)
        guard session.isUp else { throw BenchError("the supervisor stopped during the kills: \(session.upErrors())") }
        return (kills, skipped)
    }

    /// One random child stopped while only the other tabs are tapped. The tapper moves off
    /// its tab first and those taps settle, since selecting or leaving a stopped child's
    /// tab makes the root wait on it, which is not what this phase measures.
    mutating func stopPhase(_ tapper: ChaosTapper) async throws -> ChaosResult.Stopped {
        let index = random.below(children.count)
        let id = children[index]
        tapper.avoid(index)
        tapper.phase = .settle
        try await Task.sleep(for: .milliseconds(300))
        let settleEnd = ContinuousClock.now + .seconds(5)
        while tapper.progress(.settle).answered < tapper.progress(.settle).sent, ContinuousClock.now < settleEnd {
            try await Task.sleep(for: .milliseconds(20))
        }
        var result = ChaosResult.Stopped(id: id)
        guard options.stopSeconds > 0, let member = session.verifiedMembers()[id] else { return result }
        tapper.phase = .stopped
        result.pid = member.pid
        result.stoppedAt = MonotonicClock.nanoseconds()
        guard session.signal(SIGSTOP, id: id, pid: member.pid) else { return result }
        try await Task.sleep(for: seconds(options.stopSeconds))
        // The supervisor may have killed it as hung and started another: only the same
        // process is continued.
        result.continued = session.signal(SIGCONT, id: id, pid: member.pid)
        result.pidAfter = session.verifiedMembers()[id]?.pid ?? 0
        return result
    }

    // MARK: Requests at setup, one at a time

    func tap(_ p: Point, on link: Link) async throws {
        for phase in [TouchInput.Phase.began, .ended] {
            let touch = Message.touch(TouchInput(phase: phase, tapCount: 1, pointer: 0, x: Int32(p.x), y: Int32(p.y), timestamp: 0))
            _ = try await link.request(touch, trace: TraceID.make())
        }
    }

    func screenText(_ link: Link) async throws -> String {
        let answer = try await link.request(.request(Request(name: "screen")))
        guard case .reply(let r) = answer.message, r.status == .ok else { throw BenchError("screen: no answer") }
        return String(decoding: r.payload, as: UTF8.self)
    }

    func waitForTexts(_ texts: [String], on link: Link, timeout: Duration) async throws -> String {
        let deadline = ContinuousClock.now + timeout
        while true {
            do { return try await BenchSession.awaitTexts(texts, on: link).screen } catch {
                guard ContinuousClock.now < deadline, session.isUp else {
                    throw BenchError("the screen did not show \(texts) within \(timeout): \(error); \(session.upErrors())")
                }
            }
        }
    }
}
