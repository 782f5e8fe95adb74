#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TrellisLog
import TrellisTerminal
import TrellisTransport

/// The terminal's input side: reads the terminal on its I/O loop thread (a poll source,
/// never a blocked thread of the cooperative pool), decodes with `TerminalInputParser`
/// and hands the events on in the order they arrived.
///
/// The parser reads no clock; this reader gives it the time of each read and arms a loop
/// timer for the parser's `deadline`, so a lone Esc becomes the Esc key 50 ms after it
/// arrived even when no further byte comes.
final class TerminalInputReader: @unchecked Sendable {
    // @unchecked: after `init`, every field is touched only on `loop`'s thread: `start`
    // goes through `loop.execute`, and everything else runs as a loop source or timer.

    private let fd: Int32
    private let loop: IOLoop
    private var parser: TerminalInputParser
    private var source: Int?
    private var timer: UInt64?
    private let deliver: @Sendable ([InputEvent]) -> Void
    private let closed: @Sendable (String) -> Void
    /// What one read(2) takes, made once: a click is one read, and a fresh 4 KiB zeroed
    /// each time was a tenth of what decoding it cost (issue 20).
    private let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: 4096)

    /// `fd` must be non-blocking. `deliver` and `closed` run on the loop thread.
    init(
        fd: Int32, loop: IOLoop, parser: TerminalInputParser = TerminalInputParser(),
        deliver: @escaping @Sendable ([InputEvent]) -> Void, closed: @escaping @Sendable (String) -> Void
    ) {
        self.fd = fd
        self.loop = loop
        self.parser = parser
        self.deliver = deliver
        self.closed = closed
    }

    deinit { buffer.deallocate() }

    func start() {
        loop.execute { [self] in
            source = loop.addSource(fd: fd, onReadable: { [self] in readAvailable() })
        }
    }

    /// On the loop: stops reading (at exit, before the terminal is restored).
    func stop() {
        loop.preconditionOnLoop()
        if let source { loop.removeSource(source) }
        source = nil
        if let timer { loop.cancelTimer(timer) }
        timer = nil
    }

    private func readAvailable() {
        var events: [InputEvent] = []
        while source != nil {
            let n = read(fd, buffer.baseAddress, buffer.count)
            if n > 0 {
                // A click's press and release, without growing the array for each.
                events.reserveCapacity(4)
                parser.feed(UnsafeBufferPointer(rebasing: buffer[..<n]), now: MonotonicClock.nanoseconds(), into: &events)
                if n < buffer.count { break }
                continue
            }
            if n < 0 && errno == EINTR { continue }
            if n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) { break }
            let reason = n == 0 ? "end of input" : "read failed: \(String(cString: strerror(errno)))"
            events += parser.flush(now: .max)
            stop()
            if !events.isEmpty { deliver(events) }
            closed(reason)
            return
        }
        armDeadline()
        if !events.isEmpty { deliver(events) }
    }

    /// Keeps one timer at the parser's deadline, if it has one.
    private func armDeadline() {
        if let timer { loop.cancelTimer(timer) }
        timer = nil
        guard source != nil, let deadline = parser.deadline else { return }
        let now = MonotonicClock.nanoseconds()
        timer = loop.schedule(afterNanoseconds: deadline > now ? deadline - now : 0) { [self] in
            timer = nil
            let events = parser.flush(now: MonotonicClock.nanoseconds())
            armDeadline()
            if !events.isEmpty { deliver(events) }
        }
    }
}
