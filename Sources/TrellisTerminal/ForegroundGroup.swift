#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The terminal's foreground process group: only its members may read the terminal
/// (others get EIO or are stopped by SIGTTIN). A process started by the supervisor is
/// in a process group of its own — Foundation's `Process` puts it there — so the
/// compositor must take the foreground to read keys and mouse, and give it back when it
/// leaves, or the shell that started the supervisor could not read its own terminal.
public enum ForegroundGroup {
    /// Makes this process's group the foreground group of `fd`'s terminal; returns the
    /// group that had it (nil if we had it already, or it cannot be taken).
    public static func take(_ fd: Int32) -> pid_t? {
        let previous = tcgetpgrp(fd)
        let ours = getpgrp()
        guard previous > 0, previous != ours else { return nil }
        return set(fd, ours) ? previous : nil
    }

    /// Gives the foreground to `group` (a background group must ignore SIGTTOU to).
    @discardableResult
    public static func set(_ fd: Int32, _ group: pid_t) -> Bool {
        let old = signal(SIGTTOU, SIG_IGN)
        defer { signal(SIGTTOU, old) }
        return tcsetpgrp(fd, group) == 0
    }
}
