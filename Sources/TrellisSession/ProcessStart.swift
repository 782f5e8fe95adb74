import Foundation

/// A process told apart from whatever later gets its pid: the pid with the time the
/// process started. `trellis down` signals, and `trellis ps` shows, only a pid that is
/// still the process the supervisor recorded — a pid alone, once its process has exited,
/// may name anyone's (issue 19 finding 7).
public enum ProcessStart {
    /// What a recorded pid is now.
    public enum Verdict: Sendable, Equatable {
        /// Still the recorded process.
        case same
        /// No process of ours has the pid, or it has exited and waits to be reaped.
        case notRunning
        /// Alive, but started at another time: the pid was reused.
        case anotherProcess
        /// Alive, but no start time was recorded (a `session.json` written before start
        /// times were), so nothing says it is the same process.
        case unrecorded
    }

    /// When `pid` started, in the kernel's terms: on Linux `starttime` of
    /// /proc/PID/stat (clock ticks since boot), on Darwin the microseconds since the
    /// epoch of `p_starttime`. Nil when there is no such process (or it is not ours to see).
    public static func time(of pid: Int32) -> UInt64? {
        guard pid > 0 else { return nil }
        #if os(Linux)
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else { return nil }
        return startTime(fromStat: stat)
        #elseif canImport(Darwin)
        var info = kinfo_proc()
        var size = MemoryLayout<kinfo_proc>.stride
        var mib: [Int32] = [CTL_KERN, KERN_PROC, KERN_PROC_PID, pid]
        guard sysctl(&mib, 4, &info, &size, nil, 0) == 0, size > 0 else { return nil }
        let t = info.kp_proc.p_un.__p_starttime
        return UInt64(t.tv_sec) * 1_000_000 + UInt64(t.tv_usec)
        #else
        return nil
        #endif
    }

    /// Field 22 of a /proc/PID/stat line. Fields are counted after the last `)`: the
    /// command name before it may hold spaces and parentheses of its own.
    static func startTime(fromStat stat: String) -> UInt64? {
        guard let close = stat.lastIndex(of: ")") else { return nil }
        // Field 3 (the state) is the first after the name; 22 is the twentieth.
        let fields = stat[stat.index(after: close)...].split(separator: " ", omittingEmptySubsequences: true)
        guard fields.count >= 20 else { return nil }
        return UInt64(fields[19])
    }

    /// Whether `pid` is still the process that started at `startTime`.
    public static func verify(pid: Int32, startTime: UInt64?) -> Verdict {
        guard pid > 0, isRunning(pid) else { return .notRunning }
        guard let startTime else { return .unrecorded }
        guard let now = time(of: pid) else { return .notRunning }
        return now == startTime ? .same : .anotherProcess
    }

    /// `kill(pid, 0)` also succeeds for a process that has exited but whose parent
    /// has not reaped it yet: a program that started `trellis up` and waits for
    /// `trellis down` to return before reaping it (Python's `subprocess`, for one)
    /// had `down` wait its whole timeout for a supervisor long gone. On Linux
    /// /proc says whether it is such a zombie.
    static func isRunning(_ pid: Int32) -> Bool {
        guard kill(pid, 0) == 0 else { return false }
        #if os(Linux)
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return true }
        // "pid (comm) S …": the state follows the command name, which may hold spaces.
        let state = stat[stat.index(after: close)...].first { $0 != " " }
        return state != "Z" && state != "X"
        #else
        return true
        #endif
    }
}
