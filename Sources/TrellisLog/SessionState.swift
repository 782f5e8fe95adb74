import Foundation

/// `<run dir>/session.json`: who runs a session — the supervisor and its processes —
/// written by the supervisor at every change, read by `trellis ps`, `down` and clients.
public struct SessionState: Codable, Sendable, Equatable {
    /// One supervised process.
    public struct Member: Codable, Sendable, Equatable {
        /// The controller id it hosts, or `compositor`.
        public var id: String
        /// `compositor`, `root` or `host`.
        public var role: String
        /// The controller class (empty for the compositor).
        public var className: String
        /// 0 while it is not running.
        public var pid: Int32
        public var restarts: Int

        public init(id: String, role: String, className: String, pid: Int32, restarts: Int) {
            self.id = id
            self.role = role
            self.className = className
            self.pid = pid
            self.restarts = restarts
        }
    }

    public var supervisor: Int32
    public var scene: String
    /// `starting`, `running`, `stopping`, `stopped`.
    public var state: String
    /// Why the tree stopped, when the supervisor stopped it on its own.
    public var reason: String?
    public var members: [Member]

    public init(supervisor: Int32, scene: String, state: String, reason: String? = nil, members: [Member]) {
        self.supervisor = supervisor
        self.scene = scene
        self.state = state
        self.reason = reason
        self.members = members
    }

    public static func path(in run: RunDirectory) -> String { "\(run.path)/session.json" }

    /// Reads a session's state; a missing or damaged file is an error that says which.
    public static func read(from run: RunDirectory) throws -> SessionState {
        let path = path(in: run)
        guard let data = FileManager.default.contents(atPath: path) else {
            throw SessionStateError.missing(path)
        }
        do { return try JSONDecoder().decode(SessionState.self, from: data) } catch {
            throw SessionStateError.damaged(path, "\(error)")
        }
    }

    /// Writes atomically (a reader never sees half a file), mode 0600.
    public func write(to run: RunDirectory) throws {
        let path = Self.path(in: run)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let data = try encoder.encode(self)
        guard FileManager.default.createFile(atPath: path + ".tmp", contents: data, attributes: [.posixPermissions: 0o600]) else {
            throw SessionStateError.unwritable(path)
        }
        guard rename(path + ".tmp", path) == 0 else { throw SessionStateError.unwritable(path) }
    }

    /// Whether the supervisor process is still alive.
    public var isSupervisorAlive: Bool { supervisor > 0 && Self.isRunning(supervisor) }

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

public enum SessionStateError: Error, CustomStringConvertible {
    case missing(String)
    case damaged(String, String)
    case unwritable(String)

    public var description: String {
        switch self {
        case .missing(let p): "\(p) does not exist: no supervisor has run this session (start one with `trellis up SCENE`)"
        case .damaged(let p, let why): "\(p) is not a session state file: \(why)"
        case .unwritable(let p): "cannot write \(p)"
        }
    }
}
