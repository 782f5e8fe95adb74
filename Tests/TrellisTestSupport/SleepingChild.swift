import Foundation

/// `sleep 30` as a child of the test: a live process whose pid a test may write into a
/// `session.json` and let `trellis down` signal, because it is the test's own.
public struct SleepingChild {
    public let pid: pid_t

    public init() throws {
        guard let path = ["/bin/sleep", "/usr/bin/sleep"].first(where: { FileManager.default.isExecutableFile(atPath: $0) })
        else { throw SleepingChildError("no sleep binary in /bin or /usr/bin") }
        var pid: pid_t = 0
        let argv: [UnsafeMutablePointer<CChar>?] = [strdup(path), strdup("30"), nil]
        defer { for a in argv { free(a) } }
        // Test runners block signals on their threads and spawning passes that mask on:
        // `trellis down`'s SIGTERM must end this child as it ends a supervisor.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t(), all = sigset_t()
        sigemptyset(&none)
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let spawned = posix_spawn(&pid, path, nil, &attributes, argv, environ)
        guard spawned == 0 else { throw SleepingChildError("posix_spawn \(path): \(String(cString: strerror(spawned)))") }
        self.pid = pid
    }

    /// Reaps it, if it has exited: the wait status, else nil.
    public func reapIfExited() -> Int32? {
        var status: Int32 = 0
        return waitpid(pid, &status, WNOHANG) == pid ? status : nil
    }

    /// Kills and reaps it if it is still an unreaped child — whose pid nobody else can
    /// have yet; once reaped, the pid may be anyone's and is left alone.
    public func end() {
        var status: Int32 = 0
        guard waitpid(pid, &status, WNOHANG) == 0 else { return }
        kill(pid, SIGKILL)
        waitpid(pid, &status, 0)
    }
}

public struct SleepingChildError: Error, CustomStringConvertible {
    public let description: String
    init(_ text: String) { description = text }
}
