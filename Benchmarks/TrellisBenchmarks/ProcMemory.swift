import Foundation

/// What another process holds in memory, as the kernel counts it (Linux /proc).
///
/// RSS counts every page a process maps, shared or not, so summing it over processes of
/// one binary counts the shared code and libraries once per process. PSS divides each
/// shared page among the processes that map it, so the sum over a set of processes is
/// what the set really costs the machine.
public enum ProcMemory {
    /// A kB figure of /proc/PID/status (VmRSS, VmHWM); nil where it cannot be read.
    public static func status(_ key: String, pid: Int32) -> Int? {
        kilobytes(key, in: "/proc/\(pid)/status")
    }

    /// Proportional set size in kB, from /proc/PID/smaps_rollup; nil where it cannot be read.
    public static func pss(pid: Int32) -> Int? {
        kilobytes("Pss", in: "/proc/\(pid)/smaps_rollup")
    }

    /// The value of the line `key: N kB` of a /proc file.
    static func kilobytes(_ key: String, in path: String) -> Int? {
        // /proc files report size 0, so they are read to the end rather than by size.
        guard let file = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? file.close() }
        return parse(key, String(decoding: file.readDataToEndOfFile(), as: UTF8.self))
    }

    static func parse(_ key: String, _ text: String) -> Int? {
        for line in text.split(separator: "\n") where line.hasPrefix(key + ":") {
            return Int(line.dropFirst(key.count + 1).split(whereSeparator: \.isWhitespace).first ?? "")
        }
        return nil
    }
}
