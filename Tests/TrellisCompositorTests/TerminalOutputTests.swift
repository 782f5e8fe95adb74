#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Synchronization
import Testing
@testable import TrellisCompositor
import TrellisCanvas
import TrellisTerminal
import TrellisTransport
import TrellisWire

/// Latest frame wins: a terminal that stops reading gets no backlog, only the newest
/// screen once it reads again (issue 4; docs/TERMINAL.md "Output").
@Suite("Terminal output: latest frame wins", .serialized)
struct TerminalOutputTests {
    /// Fills `screen` with one letter, so each differs from the last in every cell, and
    /// shows it with its damage, as the compositor does.
    static func show(_ index: Int, on screen: inout Surface, _ output: TerminalOutput) {
        let letter = String(Character(Unicode.Scalar(UInt8(65 + index % 26))))
        for y in 0..<screen.size.height {
            screen.put(String(repeating: letter, count: screen.size.width), at: Point(x: 0, y: y), style: .plain)
        }
        output.show(screen, damage: screen.takeDamage())
    }

    /// Reads what is in the pipe until it stays empty for `quiet`.
    static func readAll(_ fd: Int32, quiet: Duration = .milliseconds(300)) -> [UInt8] {
        var out: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        var idleSince = ContinuousClock.now
        while ContinuousClock.now - idleSince < quiet {
            let n = read(fd, &buffer, buffer.count)
            if n > 0 {
                out += buffer[..<n]
                idleSince = ContinuousClock.now
            } else {
                usleep(5_000)
            }
        }
        return out
    }

    /// Returns once `loop` has run everything queued on it before this call: a screen
    /// shown before it has been written by then unless something held it back.
    static func settle(_ loop: IOLoop) {
        let done = DispatchSemaphore(value: 0)
        loop.execute { done.signal() }
        done.wait()
    }

    /// Reads what is in the pipe now, without waiting.
    static func readNow(_ fd: Int32) -> [UInt8] {
        var out: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = read(fd, &buffer, buffer.count)
            guard n > 0 else { return out }
            out += buffer[..<n]
        }
    }

    static func frames(in bytes: [UInt8]) -> [ArraySlice<UInt8>] {
        let begin = Array("\u{1B}[?2026h".utf8)
        var starts: [Int] = []
        var i = 0
        while i + begin.count <= bytes.count {
            if bytes[i..<(i + begin.count)].elementsEqual(begin) { starts.append(i) }
            i += 1
        }
        return starts.enumerated().map { n, start in bytes[start..<(n + 1 < starts.count ? starts[n + 1] : bytes.count)] }
    }

    @Test(.timeLimit(.minutes(1)))
    func aTerminalThatStopsReadingGetsOnlyTheNewestScreenWhenItReadsAgain() throws {
        let size = Size(width: 80, height: 24)
        // A small pipe stands for a terminal whose buffer fills after a few frames.
        let terminal = try PipeTerminal(size: size, buffer: 4096)
        let (fds, loop, output) = (terminal.fds, terminal.loop, terminal.output)

        let shown = 60
        var screen = Surface(size: size)
        for i in 0..<shown {
            Self.show(i, on: &screen, output)
            usleep(2_000)
        }
        // Nobody read: the writer blocked, and the screens since then replaced each other.
        usleep(100_000)
        #expect(output.writesBlocked.load(ordering: .relaxed) >= 1)
        #expect(output.framesCoalesced.load(ordering: .relaxed) > 0)

        let bytes = Self.readAll(fds[0])
        let frames = Self.frames(in: bytes)
        let written = output.framesWritten.load(ordering: .relaxed)
        #expect(written == frames.count)
        #expect(written < shown / 2, "\(written) frames written for \(shown) screens")
        // The last frame shows the last screen.
        let last = String(decoding: frames.last ?? [], as: UTF8.self)
        let lastLetter = Character(Unicode.Scalar(UInt8(65 + (shown - 1) % 26)))
        #expect(last.contains(String(repeating: lastLetter, count: 40)))
        #expect(last.hasSuffix("\u{1B}[?2026l"))

        // Through again: the next screen goes out at once; the slow spell holds nothing back.
        Self.show(shown, on: &screen, output)
        Self.settle(loop)
        let after = Self.frames(in: Self.readNow(fds[0]))
        #expect(after.count == 1)
        #expect(String(decoding: after.last ?? [], as: UTF8.self).contains(String(repeating: "I", count: 40)))
    }

    /// Issue 20: an idle terminal is never made to wait. Each screen is written by the
    /// time the loop has run the show — no timer between a tab switch's frames (until
    /// 2026-11-25 the second waited 8 ms behind the first).
    @Test(.timeLimit(.minutes(1)))
    func anIdleTerminalGetsEachScreenAtOnce() throws {
        let size = Size(width: 20, height: 4)
        let terminal = try PipeTerminal(size: size)
        let (fds, loop, output) = (terminal.fds, terminal.loop, terminal.output)
        var screen = Surface(size: size)
        for i in 0..<3 {
            Self.show(i, on: &screen, output)
            Self.settle(loop)
            let frames = Self.frames(in: Self.readNow(fds[0]))
            #expect(frames.count == 1, "screen \(i)")
            let letter = Character(Unicode.Scalar(UInt8(65 + i)))
            #expect(String(decoding: frames.last ?? [], as: UTF8.self).contains(String(repeating: letter, count: 20)))
        }
        #expect(output.framesWritten.load(ordering: .relaxed) == 3)
        #expect(output.framesCoalesced.load(ordering: .relaxed) == 0)
        #expect(output.writesBlocked.load(ordering: .relaxed) == 0)
    }

    /// Issue 20 (e2e): a screen composed on the output's own loop — the compositor's
    /// main actor is its — is written before `show` returns, in the pass that composed it,
    /// not at the loop's next turn behind the compose's bookkeeping.
    @Test(.timeLimit(.minutes(1)))
    func aScreenShownOnTheLoopIsWrittenBeforeShowReturns() throws {
        let size = Size(width: 20, height: 4)
        let terminal = try PipeTerminal(size: size)
        let (fds, loop, output) = (terminal.fds, terminal.loop, terminal.output)
        let written = Mutex<[UInt8]?>(nil)
        let done = DispatchSemaphore(value: 0)
        loop.execute {
            var screen = Surface(size: size)
            Self.show(0, on: &screen, output)
            written.withLock { $0 = Self.readNow(fds[0]) }
            done.signal()
        }
        done.wait()
        let bytes = try #require(written.withLock { $0 })
        #expect(Self.frames(in: bytes).count == 1, "written in the pass that showed it")
        #expect(String(decoding: bytes, as: UTF8.self).contains(String(repeating: "A", count: 20)))
    }

    @Test(.timeLimit(.minutes(1)))
    func aTerminalThatKeepsUpGetsEveryChangeAsOnlyTheChangedCells() throws {
        let size = Size(width: 20, height: 4)
        let terminal = try PipeTerminal(size: size)
        let (fds, output) = (terminal.fds, terminal.output)
        var s = Surface(size: size)
        s.put("hello", at: .zero, style: .plain)
        output.show(s, damage: s.takeDamage())
        _ = Self.readAll(fds[0], quiet: .milliseconds(100))
        s.put("J", at: Point(x: 0, y: 0), style: .plain)
        output.show(s, damage: s.takeDamage())
        let second = String(decoding: Self.readAll(fds[0], quiet: .milliseconds(100)), as: UTF8.self)
        // One cell changed: back to column 0 (CR is the cheapest move), the letter,
        // inside the synchronized update.
        #expect(second == "\u{1B}[?2026h\rJ\u{1B}[?2026l")
        #expect(output.writesBlocked.load(ordering: .relaxed) == 0)
    }

    /// Issue 20, one change-tracking path: screens that replace one another before the
    /// loop writes them go out as one frame holding every cell any of them changed — the
    /// writer compares nothing, so a change in a screen never written is not lost.
    @Test(.timeLimit(.minutes(1)))
    func coalescedScreensGoOutWithTheirDamageMerged() throws {
        var s = Surface(size: Size(width: 20, height: 4))
        let terminal = try PipeTerminal(size: s.size)
        let output = terminal.output
        Self.show(7, on: &s, output)
        _ = Self.readAll(terminal.fds[0], quiet: .milliseconds(100))
        // The loop held up, so both screens wait for it: the second replaces the first.
        let held = DispatchSemaphore(value: 0)
        terminal.loop.execute { held.wait() }
        s.put("J", at: Point(x: 0, y: 0), style: .plain)
        output.show(s, damage: s.takeDamage())
        s.put("W", at: Point(x: 2, y: 3), style: .plain)
        output.show(s, damage: s.takeDamage())
        held.signal()
        Self.settle(terminal.loop)
        let frames = Self.frames(in: Self.readNow(terminal.fds[0]))
        #expect(frames.count == 1)
        #expect(String(decoding: frames.last ?? [], as: UTF8.self) == "\u{1B}[?2026h\u{1B}[HJ\u{1B}[4;3HW\u{1B}[?2026l")
        #expect(output.framesCoalesced.load(ordering: .relaxed) == 1)
    }
}

/// A terminal stood for by a pipe (both ends non-blocking, `fds` = [read, write]) and
/// the output writing to it on a loop of its own; all closed when it goes.
final class PipeTerminal {
    let fds: [Int32]
    let loop = IOLoop(name: "test-terminal")
    let output: TerminalOutput

    init(size: Size, buffer: Int32? = nil) throws {
        var fds: [Int32] = [0, 0]
        try #require(pipe(&fds) == 0)
        if let buffer { _ = fcntl(fds[1], 1031, buffer) }  // F_SETPIPE_SZ (Linux), not exported to Swift
        for fd in fds { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }
        self.fds = fds
        output = TerminalOutput(fd: fds[1], loop: loop, size: size, depth: .ansi16)
    }

    deinit {
        loop.shutdown()
        close(fds[0])
        close(fds[1])
    }
}
