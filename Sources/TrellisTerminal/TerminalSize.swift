#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TrellisCanvas

/// The size of the terminal window, in cells, as the kernel knows it (TIOCGWINSZ).
///
/// Read at start and again on every SIGWINCH: the kernel updates it before the signal is
/// sent, so the value read in the handler is the new one.
public enum TerminalSize {
    /// The size of the terminal on `fd`, or nil when `fd` is not a terminal or reports a
    /// zero dimension (a pty nobody sized yet), which no screen can be composed into.
    /// Any program may set a pty's size to 65535×65535 (TIOCSWINSZ): the screen is clamped
    /// to `Size.screenSides`, composed into the terminal's top-left corner.
    public static func query(fd: Int32) -> Size? {
        var window = winsize()
        guard ioctl(fd, UInt(TIOCGWINSZ), &window) == 0, window.ws_col > 0, window.ws_row > 0 else { return nil }
        return clamped(Size(width: Int(window.ws_col), height: Int(window.ws_row)))
    }

    static func clamped(_ size: Size) -> Size {
        Size(width: min(size.width, Size.screenSides.upperBound), height: min(size.height, Size.screenSides.upperBound))
    }
}
