import Foundation

/// `<run dir>/session.json`: who runs a session — the supervisor and its processes —
/// written by the supervisor at every change, read by `trellis ps`, `down` and clients.
///
/// Each pid has its process's start time beside it (`ProcessStart`): a reader acts
/// on a pid only while it is still that process. A file without them (written before
/// they were) still reads; its pids are then `unrecorded` and not acted on.
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
        /// When `pid` started (`ProcessStart.time(of:)`); nil if not recorded.
        public var start: UInt64?
        public var restarts: Int

        public init(id: String, role: String, className: String, pid: Int32, start: UInt64? = nil, restarts: Int) {
            self.id = id
            self.role = role
            self.className = className
            self.pid = pid
            self.start = start
            self.restarts = restarts
        }

        /// Whether `pid` is still this member's process.
        public var verdict: ProcessStart.Verdict { ProcessStart.verify(pid: pid, startTime: start) }
    }

    public var supervisor: Int32
    /// When the supervisor started (`ProcessStart.time(of:)`); nil if not recorded.
    public var supervisorStart: UInt64?
    public var scene: String
    /// `starting`, `running`, `stopping`, `stopped`.
    public var state: String
    /// Why the tree stopped, when the supervisor stopped it on its own.
    public var reason: String?
    public var members: [Member]

    public init(
        supervisor: Int32, supervisorStart: UInt64? = nil, scene: String, state: String, reason: String? = nil,
        members: [Member]
    ) {
        self.supervisor = supervisor
        self.supervisorStart = supervisorStart
        self.scene = scene
        self.state = state
        self.reason = reason
        self.members = members
    }

    public static func path(in run: RunDirectory) -> String { "\(run.path)/session.json" }

    /// Reads a session's state; a missing, damaged or foreign file is an error that says
    /// which. Only a regular file of this user's is believed: its pids get signalled.
    public static func read(from run: RunDirectory) throws -> SessionState {
        let path = path(in: run)
        var st = stat()
        guard lstat(path, &st) == 0 else { throw SessionStateError.missing(path) }
        guard (st.st_mode & S_IFMT) == S_IFREG else { throw SessionStateError.notYours(path, "not a regular file") }
        guard st.st_uid == getuid() else { throw SessionStateError.notYours(path, "owned by uid \(st.st_uid)") }
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

    /// Whether `supervisor` is still the process that wrote this state.
    public var supervisorVerdict: ProcessStart.Verdict {
        ProcessStart.verify(pid: supervisor, startTime: supervisorStart)
    }

    /// Whether the supervisor that wrote this state still runs (verified, not its pid alone).
    public var isSupervisorAlive: Bool { supervisorVerdict == .same }
}

public enum SessionStateError: Error, CustomStringConvertible {
    case missing(String)
    case damaged(String, String)
    case unwritable(String)
    case notYours(String, String)

    public var description: String {
        switch self {
        case .missing(let p): "\(p) does not exist: no supervisor has run this session (start one with `trellis up SCENE`)"
        case .damaged(let p, let why): "\(p) is not a session state file: \(why)"
        case .unwritable(let p): "cannot write \(p)"
        case .notYours(let p, let why): "refusing to read \(p): \(why); only a session file of yours names pids to act on"
        }
    }
}
