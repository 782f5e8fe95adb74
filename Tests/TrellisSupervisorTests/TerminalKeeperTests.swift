#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Testing
@testable import TrellisSupervisor
import TrellisTerminal

/// The supervisor gives the terminal back when a compositor killed outright could not
/// (issue 19, finding 4) — and that includes the kitty keyboard flags it may have pushed
/// (issue 22; docs/TERMINAL.md "Restoring the terminal"): popped while the alternate
/// screen still shows, which is harmless when none were pushed.
@Suite struct TerminalKeeperTests {
    /// A pseudo-terminal: the master end (what the terminal shows) and the slave end.
    static func pty() throws -> (master: Int32, slave: Int32) {
        // posix_openpt and friends are not exported to Swift; these are their ioctls
        // (Linux: TIOCSPTLCK unlocks the slave, TIOCGPTN names it).
        let master = open("/dev/ptmx", O_RDWR | O_NOCTTY | O_NONBLOCK)
        try #require(master >= 0)
        var unlock: Int32 = 0
        var number: UInt32 = 0
        try #require(ioctl(master, 0x4004_5431, &unlock) == 0 && ioctl(master, 0x8004_5430, &number) == 0)
        let slave = open("/dev/pts/\(number)", O_RDWR | O_NOCTTY)
        try #require(slave >= 0)
        return (master, slave)
    }

    static func shown(_ master: Int32) -> String {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let n = read(master, &buffer, buffer.count)
        return String(decoding: buffer.prefix(max(0, n)), as: UTF8.self)
    }

    @Test func aTerminalLeftRawGetsTheModesLeftAndTheKeyboardFlagsPopped() throws {
        let (master, slave) = try Self.pty()
        defer { close(master); close(slave) }
        let keeper = try #require(TerminalKeeper(input: slave, output: slave))
        // What a compositor killed outright leaves: raw mode (and whatever it wrote).
        _ = try RawMode.enter(fd: slave)
        keeper.giveBack()
        let parts = Self.shown(master).split(separator: "\u{1B}")
        let pop = parts.firstIndex(of: "[<u"), alternate = parts.firstIndex(of: "[?1049l")
        #expect(pop != nil && alternate != nil && pop! < alternate!, "\(parts)")
        var now = termios()
        #expect(tcgetattr(slave, &now) == 0 && now.c_lflag & tcflag_t(ICANON) != 0, "cooked mode is back")
    }

    @Test func aTerminalAsItWasIsLeftAlone() throws {
        let (master, slave) = try Self.pty()
        defer { close(master); close(slave) }
        let keeper = try #require(TerminalKeeper(input: slave, output: slave))
        keeper.giveBack()
        #expect(Self.shown(master).isEmpty)
    }
}
