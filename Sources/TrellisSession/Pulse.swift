import Foundation

/// A supervised process's proof that its main thread runs: `<run dir>/pulse/<name>`
/// holds the CLOCK_MONOTONIC time of the last beat, which that thread writes every
/// `interval`. The supervisor reads it to tell a hung process (stopped, spinning,
/// deadlocked) from a busy one, which only a beat from the main thread itself can:
/// the process is alive to the kernel either way, and its I/O threads may still run.
/// Eight bytes in place (`pwrite`): a beat costs one system call and no allocation.
public enum Pulse {
    /// How often a supervised process beats: ten times within the shortest sensible
    /// `restart.hang` (2 s, the default), and with its links' heartbeats, in the same
    /// wake-up (`LinkOptions.heartbeatInterval`).
    public static let interval: Duration = .milliseconds(200)

    public static func path(in run: RunDirectory, name: String) -> String { "\(run.path)/pulse/\(name)" }

    /// The time of `name`'s last beat, or nil if it has not beaten since the file was
    /// cleared (it is still starting).
    public static func lastBeat(in run: RunDirectory, name: String) -> UInt64? {
        let fd = open(path(in: run, name: name), O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var stamp: UInt64 = 0
        guard pread(fd, &stamp, 8, 0) == 8, stamp > 0 else { return nil }
        return stamp
    }

    /// Forgets `name`'s beats: a process started under that name is judged from its
    /// own first beat, not its predecessor's last.
    public static func clear(in run: RunDirectory, name: String) {
        unlink(path(in: run, name: name))
    }

    /// The beating end, in the supervised process.
    public final class Writer: Sendable {
        private let fd: Int32

        /// Opens (creating, mode 0600) `name`'s pulse file in `run`.
        public init(run: RunDirectory, name: String) throws {
            try RunDirectory.makePrivateDirectory("\(run.path)/pulse")
            let path = Pulse.path(in: run, name: name)
            fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0o600)
            guard fd >= 0 else { throw RunDirectoryError.cannotCreate(path, String(cString: strerror(errno))) }
        }

        /// Records that the calling thread ran at `now`, CLOCK_MONOTONIC nanoseconds
        /// (`MonotonicClock`, the clock the supervisor reads beats against).
        public func beat(at now: UInt64) {
            var now = now
            _ = pwrite(fd, &now, 8, 0)
        }

        deinit { close(fd) }
    }
}
