import Foundation

/// A session's private run directory: its ipc sockets and its routing logs.
///
/// `$TRELLIS_RUN_ROOT/<session>` if set, else `$XDG_RUNTIME_DIR/trellis/<session>`,
/// else `/tmp/trellis-<uid>/<session>`. Every level Trellis creates is mode 0700,
/// and an existing one that another user owns or others can enter is refused.
public struct RunDirectory: Sendable, Equatable {
    public let session: String
    public let path: String

    public var logs: String { "\(path)/logs" }

    /// The ipc endpoint for a socket named `name` inside this directory.
    public func ipcEndpoint(_ name: String) throws -> String {
        let socket = "\(path)/\(name).sock"
        // sun_path is 108 bytes on Linux (104 on macOS) including the terminator.
        guard socket.utf8.count < 104 else { throw RunDirectoryError.pathTooLong(socket) }
        return "ipc://\(socket)"
    }

    public static var root: String {
        let env = ProcessInfo.processInfo.environment
        if let root = env["TRELLIS_RUN_ROOT"], !root.isEmpty { return root }
        if let xdg = env["XDG_RUNTIME_DIR"], !xdg.isEmpty { return "\(xdg)/trellis" }
        return "/tmp/trellis-\(getuid())"
    }

    /// Session names are file names: letters, digits, `.`, `_`, `-`.
    public static func isValidSession(_ name: String) -> Bool {
        !name.isEmpty && name.count <= 64 && !name.hasPrefix(".")
            && name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "._-".contains($0)) }
    }

    /// Creates (or reuses) the session's directory and its `logs/`.
    public static func create(session: String, root: String = RunDirectory.root) throws -> RunDirectory {
        guard isValidSession(session) else { throw RunDirectoryError.invalidSession(session) }
        try makePrivateDirectory(root)
        let dir = RunDirectory(session: session, path: "\(root)/\(session)")
        try makePrivateDirectory(dir.path)
        try makePrivateDirectory(dir.logs)
        return dir
    }

    /// An existing session, or the newest one when `session` is nil — only if it is
    /// private (`verifyPrivate`): every command that attaches finds its session here, and
    /// `down` signals the pids its `session.json` names.
    public static func find(session: String?, root: String = RunDirectory.root) throws -> RunDirectory {
        if let session {
            guard isValidSession(session) else { throw RunDirectoryError.invalidSession(session) }
            let path = "\(root)/\(session)"
            guard FileManager.default.fileExists(atPath: path) else { throw RunDirectoryError.noSuchSession(session, root) }
            let run = RunDirectory(session: session, path: path)
            try run.verifyPrivate()
            return run
        }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []
        let newest = names.filter(isValidSession).compactMap { name -> (String, Date)? in
            let attrs = try? FileManager.default.attributesOfItem(atPath: "\(root)/\(name)")
            guard attrs?[.type] as? FileAttributeType == .typeDirectory else { return nil }
            return (name, attrs?[.modificationDate] as? Date ?? .distantPast)
        }.max { $0.1 < $1.1 }
        guard let newest else { throw RunDirectoryError.noSessions(root) }
        let run = RunDirectory(session: newest.0, path: "\(root)/\(newest.0)")
        try run.verifyPrivate()
        return run
    }

    /// Refuses a directory another user owns or others can enter: whoever can write
    /// in it can write a `session.json` naming any pid, or put their sockets here.
    public func verifyPrivate() throws {
        var st = stat()
        guard stat(path, &st) == 0 else { throw RunDirectoryError.noSuchSession(session, (path as NSString).deletingLastPathComponent) }
        try Self.checkPrivate(path, st)
    }

    /// mkdir -p with mode 0700 for what it creates; refuses an existing directory
    /// owned by someone else or open to group/others.
    public static func makePrivateDirectory(_ path: String) throws {
        var st = stat()
        if stat(path, &st) == 0 {
            try checkPrivate(path, st)
            return
        }
        let parent = (path as NSString).deletingLastPathComponent
        if !parent.isEmpty && parent != path && parent != "/" {
            var pst = stat()
            if stat(parent, &pst) != 0 { try makePrivateDirectory(parent) }
        }
        guard mkdir(path, 0o700) == 0 || errno == EEXIST else {
            throw RunDirectoryError.cannotCreate(path, String(cString: strerror(errno)))
        }
        chmod(path, 0o700)
    }

    private static func checkPrivate(_ path: String, _ st: stat) throws {
        guard (st.st_mode & S_IFMT) == S_IFDIR else { throw RunDirectoryError.notADirectory(path) }
        guard st.st_uid == getuid() else { throw RunDirectoryError.notPrivate(path, "owned by uid \(st.st_uid)") }
        guard st.st_mode & 0o077 == 0 else {
            throw RunDirectoryError.notPrivate(path, "mode \(String(st.st_mode & 0o777, radix: 8)) lets others in")
        }
    }
}

public enum RunDirectoryError: Error, CustomStringConvertible, Equatable {
    case invalidSession(String)
    case noSuchSession(String, String)
    case noSessions(String)
    case notADirectory(String)
    case notPrivate(String, String)
    case cannotCreate(String, String)
    case pathTooLong(String)

    public var description: String {
        switch self {
        case .invalidSession(let s): "invalid session name \(s.debugDescription): use letters, digits, '.', '_' and '-' (at most 64)"
        case .noSuchSession(let s, let root): "no session \(s.debugDescription) in \(root)"
        case .noSessions(let root): "no sessions in \(root) (set TRELLIS_RUN_ROOT or pass --session)"
        case .notADirectory(let p): "\(p) exists and is not a directory"
        case .notPrivate(let p, let why): "refusing to use \(p): \(why); a run directory must be private (0700, yours)"
        case .cannotCreate(let p, let why): "cannot create \(p): \(why)"
        case .pathTooLong(let p): "ipc socket path \(p) is too long for a Unix socket; use a shorter TRELLIS_RUN_ROOT"
        }
    }
}
