#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Synchronization
import Testing
@testable import TrellisCompositor
import TrellisTerminal
import TrellisTransport
import TrellisWire

/// The reader settles a lone Esc by its 50 ms deadline on a loop timer, with no further
/// byte to wake it, and reports the end of input (issue 4: keys, lone Esc within 50 ms).
@Suite("Terminal input: the reader", .serialized)
struct TerminalInputReaderTests {
    final class Collected: Sendable {
        let events = Mutex<[InputEvent]>([])
        let closed = Mutex<String?>(nil)
    }

    func waitUntil(_ condition: () -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(5)
        while !condition(), ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(5)) }
    }

    @Test(.timeLimit(.minutes(1)))
    func aLoneEscIsTheEscKeyAfterItsDeadlineAndEndOfInputIsReported() async throws {
        var fds: [Int32] = [0, 0]
        try #require(pipe(&fds) == 0)
        defer { close(fds[0]) }
        _ = fcntl(fds[0], F_SETFL, fcntl(fds[0], F_GETFL) | O_NONBLOCK)
        let loop = IOLoop(name: "test-reader")
        defer { loop.shutdown() }
        let got = Collected()
        let reader = TerminalInputReader(
            fd: fds[0], loop: loop,
            deliver: { events in got.events.withLock { $0 += events } },
            closed: { reason in got.closed.withLock { $0 = reason } })
        reader.start()

        let start = ContinuousClock.now
        let bytes: [UInt8] = [0x61, 0x1B]  // "a", then a lone Esc
        #expect(write(fds[1], bytes, bytes.count) == 2)
        try await waitUntil { got.events.withLock { $0.count } == 2 }
        let elapsed = ContinuousClock.now - start
        let keys = got.events.withLock { $0 }.compactMap { event -> KeyPress? in
            if case .key(let key) = event { return key }
            return nil
        }
        #expect(keys.map(\.text) == ["a", ""])
        #expect(keys.last?.special == .escape)
        #expect(elapsed >= .milliseconds(50), "Esc settled after \(elapsed), before its 50 ms")

        close(fds[1])
        try await waitUntil { got.closed.withLock { $0 } != nil }
        #expect(got.closed.withLock { $0 } == "end of input")
    }
}
