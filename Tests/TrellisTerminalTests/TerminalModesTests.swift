import Testing
import TrellisTerminal

@Suite struct TerminalModesTests {
    @Test func enterAndLeaveInReverseOrder() {
        let modes = TerminalModes()
        #expect(String(decoding: modes.enterBytes, as: UTF8.self)
            == "\u{1B}[?1049h\u{1B}[?25l\u{1B}[?1000h\u{1B}[?1002h\u{1B}[?1006h\u{1B}[?2004h")
        #expect(String(decoding: modes.leaveBytes, as: UTF8.self)
            == "\u{1B}[?2026l\u{1B}[m\u{1B}[?2004l\u{1B}[?1006l\u{1B}[?1002l\u{1B}[?1000l\u{1B}[?25h\u{1B}[?1049l")
    }

    @Test func focusEventsAreOptional() {
        let modes = TerminalModes(alternateScreen: false, hideCursor: false, mouse: false, bracketedPaste: false, focusEvents: true)
        #expect(String(decoding: modes.enterBytes, as: UTF8.self) == "\u{1B}[?1004h")
        #expect(String(decoding: modes.leaveBytes, as: UTF8.self) == "\u{1B}[?2026l\u{1B}[m\u{1B}[?1004l")
    }

    @Test func restoringTwiceWritesOnce() throws {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        defer { close(fds[0]) }
        let restorer = TerminalRestorer(fd: fds[1], modes: TerminalModes(), saved: nil)
        restorer.restore()
        restorer.restore()
        #expect(restorer.isRestored)
        close(fds[1])
        var buffer = [UInt8](repeating: 0, count: 256)
        let n = read(fds[0], &buffer, buffer.count)
        #expect(Array(buffer.prefix(max(0, n))) == TerminalModes().leaveBytes)
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
