import Foundation
import Testing
import TrellisControllers
@testable import TrellisHost
import TrellisLog
import TrellisSeeds
import TrellisTransport
import TrellisWire

/// Issue 19, finding 1: a root that fell behind ran taps 13–40 s after they were sent.
/// Input whose turn comes more than `Inbox.inputBound` after it was read is answered
/// `stale` and logged, not run; input on time is run (docs/PROCESSES.md, "Input on time").
@MainActor
@Suite(.timeLimit(.minutes(1))) struct StaleInputTests {
    @Test func aTouchThatWaitedPastTheBoundIsAnsweredStaleNotRun() async throws {
        let test = try PrivateRun("stale")
        let run = test.run, log = test.log
        defer { withExtendedLifetime(test) {} }
        let loop = IOLoop(name: "links")
        defer { loop.shutdown() }
        let endpoint = try run.ipcEndpoint("parent")
        let parent = try await Link.bind(id: "Parent", endpoint: endpoint, loop: loop, log: log)
        let host = try await ChildHost.start(controller: ParityChild(id: "Child"), parent: "Parent", endpoint: endpoint, loop: loop, log: log)
        let deadline = ContinuousClock.now + .seconds(5)
        while await !parent.isConnected("Child"), ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(5)) }
        _ = try await parent.request(.sizeTransition(SizeTransition(width: 20, height: 4)), to: "Child")

        let touch = Message.touch(TouchInput(phase: .began, modifiers: [], tapCount: 1, pointer: 0, x: 2, y: 2, timestamp: 0))
        let late = Task.detached { try await parent.request(touch, to: "Child", timeout: .seconds(5)) }
        // The main actor, which handles it, is busy until the touch has waited past the bound.
        var reader = LogReader(directory: run.logs)
        let busyUntil = ContinuousClock.now + .seconds(5)
        var seen: [RoutingRecord] = []
        while !seen.contains(where: { $0.kind == "touch" && $0.outcome == .delivered && $0.at == "Child" }), ContinuousClock.now < busyUntil {
            log.flush()
            seen += reader.readNew()
            usleep(2_000)
        }
        usleep(UInt32(Inbox.inputBound.nanoseconds / 1000) + 200_000)
        let answer = try await late.value
        guard case .reply(let reply) = answer.message else {
            Issue.record("not a reply: \(answer.message)")
            return
        }
        #expect(reply.status == .stale)
        #expect(String(decoding: reply.payload, as: UTF8.self).hasPrefix("stale: waited"))
        log.flush()
        seen += reader.readNew()
        #expect(seen.contains { $0.kind == "touch" && $0.outcome == .dropped && $0.reason?.hasPrefix("stale") == true })

        // On time, the same touch is run.
        let onTime = try await parent.request(touch, to: "Child")
        guard case .reply(let fresh) = onTime.message else {
            Issue.record("not a reply: \(onTime.message)")
            return
        }
        #expect(fresh.status != .stale)
        await host.link.close()
        await parent.close()
    }
}
