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
    }

    /// A routing log in a private directory of its own; `close` it and remove `dir`.
    static func log() throws -> (log: RoutingLog, dir: URL) {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-queue-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        // The routing log refuses a directory others can read.
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        return (try RoutingLog(directory: dir.path, host: "compositor"), dir)
    }

    func queue(_ r: Recorder, log: RoutingLog) -> TerminalInputQueue {
        TerminalInputQueue(
            inject: { message in
                r.sent.append(message)
                try? await Task.sleep(for: .milliseconds(5))
                return r.answer(message)
            }, log: log, onInterrupt: { r.interrupts += 1 })
    }

    func waitUntil(_ condition: () -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(5)
        while !condition(), ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(5)) }
    }

    static func touch(_ phase: TouchInput.Phase, _ x: Int32) -> InputEvent {
        .touch(TouchInput(phase: phase, modifiers: [], tapCount: 1, pointer: 0, x: x, y: 0, timestamp: 0))
    }

    @Test func aDragIsDeliveredInOrderWithWaitingMovesCollapsed() async throws {
        let r = Recorder()
        let (log, dir) = try Self.log()
        defer {
            log.close()
            try? FileManager.default.removeItem(at: dir)
        }
        let q = queue(r, log: log)
        q.enqueue([Self.touch(.began, 1)] + (2...6).map { Self.touch(.moved, Int32($0)) } + [Self.touch(.ended, 6)])
        try await waitUntil { r.sent.count == 3 && q.count == 0 }
        let seen = r.sent.compactMap { m -> String? in
            guard case .touch(let t) = m else { return nil }
            return "\(t.phase)@\(t.x)"
        }
        #expect(seen == ["began@1", "moved@6", "ended@6"])
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
