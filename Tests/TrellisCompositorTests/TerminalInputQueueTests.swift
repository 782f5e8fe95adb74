import Foundation
import Testing
@testable import TrellisCompositor
import TrellisLog
import TrellisTerminal
import TrellisWire

/// Terminal input reaches the root through `Compositor.inject` — the control endpoint's
/// path — in order, one answered message at a time (issue 4; docs/TERMINAL.md "Input").
@MainActor
@Suite("Terminal input: the queue to the root", .serialized)
struct TerminalInputQueueTests {
    final class Recorder {
        var sent: [Message] = []
        var interrupts = 0
        var answer: @MainActor (Message) -> Envelope? = { _ in nil }
        var holdAnswers = false
        var held: [@MainActor () -> Void] = []
    }

    /// A routing log in a private directory of its own; `close` it and remove `dir`.
    static func log() throws -> (log: RoutingLog, dir: URL) {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-queue-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        // The routing log refuses a directory others can read.
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        return (try RoutingLog(directory: dir.path, host: "compositor"), dir)
    }

    /// The root answers each message 5 ms after it was sent, unless `r.holdAnswers`:
    /// then only when the test releases them. The answer is what `r.answer` said when the
    /// message was sent: a test that changes it next must not change an answer still on
    /// its way (a loaded parallel run can hold that 5 ms back for seconds).
    func queue(_ r: Recorder, log: RoutingLog) -> TerminalInputQueue {
        TerminalInputQueue(
            send: { message, answered in
                r.sent.append(message)
                if r.holdAnswers { return r.held.append { answered(r.answer(message)) } }
                let reply = r.answer(message)
                Task { @MainActor in
                    try? await Task.sleep(for: .milliseconds(5))
                    answered(reply)
                }
            }, log: log, onInterrupt: { r.interrupts += 1 })
    }

    /// A bound, not a timing claim: main-actor tests of the whole suite share one main
    /// thread when run in parallel, so a loaded run may take seconds to get here.
    func waitUntil(_ condition: () -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(30)
        while !condition(), ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(5)) }
    }

    static func touch(_ phase: TouchInput.Phase, _ x: Int32) -> InputEvent {
        .touch(TouchInput(phase: phase, modifiers: [], tapCount: 1, pointer: 0, x: x, y: 0, timestamp: 0))
    }

    func phases(_ r: Recorder) -> [String] {
        r.sent.compactMap { m -> String? in
            guard case .touch(let t) = m else { return nil }
            return "\(t.phase)@\(t.x)"
        }
    }

    @Test func aDragIsDeliveredInOrderWithMovesCollapsedBehindAnUnansweredOne() async throws {
        let r = Recorder()
        let (log, dir) = try Self.log()
        defer {
            log.close()
            try? FileManager.default.removeItem(at: dir)
        }
        let q = queue(r, log: log)
        q.enqueue([Self.touch(.began, 1)] + (2...6).map { Self.touch(.moved, Int32($0)) } + [Self.touch(.ended, 6)])
        // The first move goes out; the rest wait behind it as the latest, which goes out
        // before the release.
        #expect(phases(r) == ["began@1", "moved@2", "moved@6", "ended@6"])
        #expect(q.count == 0)
        // The next drag, read before the first move was answered: its moves collapse too.
        q.enqueue([Self.touch(.began, 1), Self.touch(.moved, 2), Self.touch(.moved, 3), Self.touch(.moved, 4)])
        #expect(q.count == 1)
        try await waitUntil { r.sent.count == 6 }
        #expect(phases(r).suffix(2) == ["began@1", "moved@4"])
    }

    /// Issue 19 ("input is pipelined, not stop-and-wait"): a click read in one piece went
    /// to the root as a press, a wait for its answer, then the release.
    @Test func aClickGoesOutWholeWithoutWaitingForTheRootsFirstAnswer() async throws {
        let r = Recorder()
        r.holdAnswers = true
        let (log, dir) = try Self.log()
        defer {
            log.close()
            try? FileManager.default.removeItem(at: dir)
        }
        let q = queue(r, log: log)
        q.enqueue([Self.touch(.began, 3), Self.touch(.ended, 3)])
        #expect(phases(r) == ["began@3", "ended@3"])
        #expect(r.held.count == 2)
        for answer in r.held { answer() }
    }

    @Test func keysKeepTheirOrderAcrossBatches() async throws {
        let r = Recorder()
        let (log, dir) = try Self.log()
        defer {
            log.close()
            try? FileManager.default.removeItem(at: dir)
        }
        let q = queue(r, log: log)
        var parser = TerminalInputParser()
        q.enqueue(parser.feed(Array("ab".utf8), now: 0))
        q.enqueue(parser.feed(Array("\u{1B}[A".utf8), now: 0))
        try await waitUntil { r.sent.count == 3 }
        #expect(r.sent == [.key(KeyPress(text: "a")), .key(KeyPress(text: "b")), .key(KeyPress(special: .up))])
    }

    @Test func anUnhandledCtrlCAsksToQuitAndAHandledOneDoesNot() async throws {
        let r = Recorder()
        let (log, dir) = try Self.log()
        defer {
            log.close()
            try? FileManager.default.removeItem(at: dir)
        }
        let q = queue(r, log: log)
        r.answer = { _ in Envelope(sequence: 1, source: "Root", target: "compositor", message: .ack) }
        q.enqueue([.key(KeyPress(modifiers: .control, text: "c"))])
        try await waitUntil { r.sent.count == 1 && q.count == 0 }
        try await Task.sleep(for: .milliseconds(20))
        #expect(r.interrupts == 0)
        r.answer = { _ in Envelope(sequence: 2, source: "Root", target: "compositor", message: .reply(Reply(status: .declined))) }
        q.enqueue([.key(KeyPress(modifiers: .control, text: "c"))])
        try await waitUntil { r.interrupts == 1 }
        #expect(r.interrupts == 1)
    }

    /// Issue 22: with the kitty keyboard protocol a Ctrl+C is let go as well as pressed;
    /// the release, which nothing handles, is no request to quit — every message is
    /// answered before the press is sent, so a wrong interrupt would have shown.
    @Test func anUnhandledCtrlCReleaseDoesNotAskToQuit() async throws {
        let r = Recorder()
        let (log, dir) = try Self.log()
        defer {
            log.close()
            try? FileManager.default.removeItem(at: dir)
        }
        let q = queue(r, log: log)
        r.answer = { _ in Envelope(sequence: 2, source: "Root", target: "compositor", message: .reply(Reply(status: .declined))) }
        q.enqueue([.key(KeyPress(modifiers: .control, text: "c", phase: .ended))])
        q.enqueue([.key(KeyPress(modifiers: .control, text: "c", phase: .repeated))])
        q.enqueue([.key(KeyPress(modifiers: .control, text: "c"))])
        try await waitUntil { r.interrupts == 1 }
        try await Task.sleep(for: .milliseconds(20))
        #expect(r.sent.count == 3)
        #expect(r.interrupts == 1, "only the press asks to quit")
    }

    @Test func garbageIsLoggedAndInputGoesOn() async throws {
        let r = Recorder()
        let (log, dir) = try Self.log()
        defer {
            log.close()
            try? FileManager.default.removeItem(at: dir)
        }
        let q = queue(r, log: log)
        var parser = TerminalInputParser()
        q.enqueue(parser.feed(Array("\u{1B}[<999;1;1Mz".utf8), now: 0))
        try await waitUntil { r.sent.count == 1 }
        #expect(r.sent == [.key(KeyPress(text: "z"))])
    }
}
