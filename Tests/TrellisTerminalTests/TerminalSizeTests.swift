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
    /// What `TerminalSize.query` reads from a pseudo-terminal sized `columns`×`rows`.
    func query(columns: UInt16, rows: UInt16) throws -> Size? {
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
        var window = winsize(ws_row: rows, ws_col: columns, ws_xpixel: 0, ws_ypixel: 0)
        #expect(ioctl(master, UInt(TIOCSWINSZ), &window) == 0)
        return TerminalSize.query(fd: slave)
    }

    @Test func aPseudoTerminalReportsTheSizeItWasGiven() throws {
        #expect(try query(columns: 40, rows: 12) == Size(width: 40, height: 12))
    }

    /// Issue 19 finding 5: any program may size a pty 65535 wide, and a screen that wide
    /// stopped the compositor; the screen is clamped to `Size.screenSides`.
    @Test func aHugeTerminalIsClampedToTheLargestScreen() throws {
        #expect(try query(columns: 65535, rows: 3) == Size(width: 1000, height: 3))
        #expect(try query(columns: 7, rows: UInt16.max) == Size(width: 7, height: 1000))
    }

    @Test func somethingThatIsNotATerminalHasNoSize() {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        defer { close(fds[0]); close(fds[1]) }
        #expect(TerminalSize.query(fd: fds[1]) == nil)
    }
}
