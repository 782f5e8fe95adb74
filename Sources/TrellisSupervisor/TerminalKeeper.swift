#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TrellisTerminal

/// The terminal as the person had it when the supervisor started, kept so that it can
/// be given back when the compositor could not: one killed outright leaves it raw, in the
/// alternate screen, reporting the mouse; and the compositor restarted after it would
/// take that raw state for the one to restore on the way out (issue 19, finding 4).
struct TerminalKeeper {
    private let input: Int32
    private let output: Int32
    private let saved: termios

    /// Nil when standard input is not a terminal (headless, or run from a script).
    init?(input: Int32 = STDIN_FILENO, output: Int32 = STDOUT_FILENO) {
        var attributes = termios()
        guard isatty(input) == 1, tcgetattr(input, &attributes) == 0 else { return nil }
        self.input = input
        self.output = isatty(output) == 1 ? output : input
        saved = attributes
    }

    /// If the terminal is not as it was, leaves the compositor's modes (popping the kitty
    /// keyboard flags it may have pushed: harmless when it had not) and restores its
    /// attributes; otherwise leaves it alone (leaving the alternate screen when not in it
    /// would move the cursor).
    func giveBack() {
        var now = termios()
        guard tcgetattr(input, &now) == 0 else { return }
        let same = now.c_iflag == saved.c_iflag && now.c_oflag == saved.c_oflag && now.c_cflag == saved.c_cflag
            && now.c_lflag == saved.c_lflag
        guard !same else { return }
        let leave = TerminalModes().leaveBytes
        _ = leave.withUnsafeBytes { write(output, $0.baseAddress, $0.count) }
        RawMode.restore(saved, fd: input)
    }
}
