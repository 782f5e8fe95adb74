#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Testing
import TrellisCanvas
import TrellisTerminal

/// SIGWINCH → size transition reads the size the kernel holds for the terminal.
@Suite("Terminal size")
struct TerminalSizeTests {
    @Test func aPseudoTerminalReportsTheSizeItWasGiven() throws {
        // posix_openpt and friends are not exported to Swift; these are their ioctls
        // (Linux: TIOCSPTLCK unlocks the slave, TIOCGPTN names it).
        let master = open("/dev/ptmx", O_RDWR | O_NOCTTY)
        try #require(master >= 0)
        defer { close(master) }
        var unlock: Int32 = 0
        var number: UInt32 = 0
        #expect(ioctl(master, 0x4004_5431, &unlock) == 0 && ioctl(master, 0x8004_5430, &number) == 0)
        let slave = open("/dev/pts/\(number)", O_RDWR | O_NOCTTY)
        try #require(slave >= 0)
        defer { close(slave) }
        var window = winsize(ws_row: 12, ws_col: 40, ws_xpixel: 0, ws_ypixel: 0)
        #expect(ioctl(master, UInt(TIOCSWINSZ), &window) == 0)
        #expect(TerminalSize.query(fd: slave) == Size(width: 40, height: 12))
    }

    @Test func somethingThatIsNotATerminalHasNoSize() {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        defer { close(fds[0]); close(fds[1]) }
        #expect(TerminalSize.query(fd: fds[1]) == nil)
    }
}
