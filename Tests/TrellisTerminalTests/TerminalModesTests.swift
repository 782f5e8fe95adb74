import Testing
import TrellisTerminal

@Suite struct TerminalModesTests {
    @Test func enterAndLeaveInReverseOrder() {
        let modes = TerminalModes()
        #expect(String(decoding: modes.enterBytes, as: UTF8.self)
            == "\u{1B}[?1049h\u{1B}[?25l\u{1B}[?1000h\u{1B}[?1002h\u{1B}[?1006h\u{1B}[?2004h\u{1B}[?u\u{1B}[c")
        #expect(String(decoding: modes.leaveBytes, as: UTF8.self)
            == "\u{1B}[?2026l\u{1B}[m\u{1B}[<u\u{1B}[?2004l\u{1B}[?1006l\u{1B}[?1002l\u{1B}[?1000l\u{1B}[?25h\u{1B}[?1049l")
    }

    /// Issue 22: entering asks for the kitty keyboard protocol (CSI ? u, then CSI c so a
    /// terminal that does not know it is known by its second answer); leaving pops what
    /// the answer pushed while the alternate screen — whose stack it was — still shows.
    @Test func theKeyboardQueryGoesOutLastAndItsPopBeforeTheAlternateScreenIsLeft() {
        let enter = String(decoding: TerminalModes().enterBytes, as: UTF8.self)
        #expect(enter.hasSuffix("\u{1B}[?2004h\u{1B}[?u\u{1B}[c"))
        let leave = String(decoding: TerminalModes().leaveBytes, as: UTF8.self)
        let parts = leave.split(separator: "\u{1B}")
        let pop = parts.firstIndex(of: "[<u"), alternate = parts.firstIndex(of: "[?1049l")
        #expect(pop != nil && alternate != nil && pop! < alternate!, "\(parts)")
        // Without the alternate screen the stack would be the shell's: neither is written.
        let inline = TerminalModes(alternateScreen: false)
        #expect(!String(decoding: inline.enterBytes, as: UTF8.self).contains("\u{1B}[?u"))
        #expect(!String(decoding: inline.leaveBytes, as: UTF8.self).contains("\u{1B}[<u"))
        let off = TerminalModes(keyboardProtocol: false)
        #expect(!String(decoding: off.enterBytes, as: UTF8.self).contains("\u{1B}[?u"))
        #expect(!String(decoding: off.leaveBytes, as: UTF8.self).contains("\u{1B}[<u"))
    }

    /// Issue 22: the flags answer pushes ours once; the attributes alone settle on legacy
    /// bytes and push nothing; whatever comes after the first answer changes nothing.
    @Test func onlyATerminalThatAnswersTheFlagsQueryGetsThemPushed() {
        var kitty = KeyboardProtocol()
        #expect(kitty.state == .asking)
        #expect(kitty.take(.keyboardFlags(0)) == Array("\u{1B}[>7u".utf8))
        #expect(kitty.state == .enhanced)
        #expect(kitty.take(.deviceAttributes) == nil)
        #expect(kitty.take(.keyboardFlags(7)) == nil)
        #expect(kitty.state == .enhanced)

        var legacy = KeyboardProtocol()
        #expect(legacy.take(.deviceAttributes) == nil)
        #expect(legacy.state == .legacy)
        #expect(legacy.take(.keyboardFlags(0)) == nil, "a flags answer after the attributes is too late to trust")
        #expect(legacy.state == .legacy)
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
