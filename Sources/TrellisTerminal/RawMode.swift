#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Raw mode on a terminal file descriptor: bytes arrive one at a time as typed, without
/// echo, line editing or signal keys (^C arrives as 0x03), and output goes out untouched.
public enum RawMode {
    /// The terminal could not be read or set; `errno` is the C error.
    public struct Failure: Error, CustomStringConvertible, Sendable {
        public let call: String
        public let errno: Int32
        public var description: String { "\(call) failed: \(String(cString: strerror(errno)))" }
    }

    /// Puts `fd` in raw mode and returns the attributes it had, for `restore`.
    public static func enter(fd: Int32) throws(Failure) -> termios {
        var saved = termios()
        guard tcgetattr(fd, &saved) == 0 else { throw Failure(call: "tcgetattr", errno: errno) }
        var raw = saved
        cfmakeraw(&raw)
        // cfmakeraw leaves reads blocking for one byte; keep that, a reader polls first.
        guard tcsetattr(fd, TCSAFLUSH, &raw) == 0 else { throw Failure(call: "tcsetattr", errno: errno) }
        return saved
    }

    /// Gives `fd` back the attributes `enter` returned. Idempotent (setting the same
    /// attributes again changes nothing) and async-signal-safe: it calls only tcsetattr,
    /// which POSIX lists as safe, and allocates nothing. TCSANOW, because draining output
    /// could block a signal handler behind a terminal that stopped reading.
    public static func restore(_ saved: termios, fd: Int32) {
        var attributes = saved
        // EINTR only: any other failure has nothing left to try from a handler.
        while tcsetattr(fd, TCSANOW, &attributes) != 0 && errno == EINTR {}
    }
}
