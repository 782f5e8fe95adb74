import Foundation
import TrellisLog
import TrellisSession
import TrellisTransport
import TrellisWire

/// The demo under its supervisor, as `trellis up --headless` runs it, in a private run
/// root of its own, for `trellis bench chaos`: the supervisor is this binary's `up` in a
/// child process, so the restarts measured are the ones a person's session gets.
///
/// Signals go only to pids that are provably this session's: recorded in its
/// `session.json` with a start time that still matches, and with this run root on their
/// command line. Pids wrap on a busy machine, and a kill every 200 ms for a minute is
/// many chances to hit someone else's process.
final class ChaosSession {
    let root: String
    let session = "chaos"
    let scenePath: String
    private let up = Process()
    private(set) var run: RunDirectory?

    /// Writes `scene` with its restart intensity raised so the kills do not exhaust it:
    /// more than `intensity` restarts in `period` seconds would stop the tree, which is
    /// what a real scene should do, and not what is measured here.
    init(scene source: String, intensity: Int, period: Int) throws {
        root = "\(RunDirectory.root)/chaos-\(getpid())"
        try RunDirectory.makePrivateDirectory(root)
        scenePath = "\(root)/chaos-demo.yaml"
        try Self.variant(of: source, intensity: intensity, period: period)
            .write(toFile: scenePath, atomically: true, encoding: .utf8)
    }

    /// `source` with its `restart:` block's intensity and period replaced.
    static func variant(of source: String, intensity: Int, period: Int) throws -> String {
        var lines = source.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var replaced = 0
        for i in lines.indices {
            let trimmed = lines[i].drop { $0 == " " }
            let indent = lines[i].prefix(lines[i].count - trimmed.count)
            if trimmed.hasPrefix("intensity:") { lines[i] = "\(indent)intensity: \(intensity)"; replaced += 1 }
            if trimmed.hasPrefix("period:") { lines[i] = "\(indent)period: \(period)"; replaced += 1 }
        }
        guard replaced == 2 else { throw BenchError("the scene has no restart intensity and period to raise") }
        return lines.joined(separator: "\n")
    }

    /// Starts `trellis up` on the variant; its standard error goes to `<root>/up.err`.
    func start() throws {
        up.executableURL = try BenchSession.sibling("trellis")
        up.arguments = ["up", scenePath, "--headless", "--session", session, "--run-root", root]
        up.standardInput = FileHandle.nullDevice
        up.standardOutput = FileHandle.nullDevice
        _ = FileManager.default.createFile(atPath: "\(root)/up.err", contents: nil)
        up.standardError = FileHandle(forWritingAtPath: "\(root)/up.err")
        try up.run()
    }

    /// Waits for the supervisor's run directory and its control socket.
    func waitForRunDirectory(timeout: Duration) async throws -> RunDirectory {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if let r = try? RunDirectory.find(session: session, root: root),
                FileManager.default.fileExists(atPath: "\(r.path)/control.sock") {
                run = r
                return r
            }
            guard up.isRunning else { throw BenchError("trellis up exited: \(upErrors())") }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw BenchError("the session did not start within \(timeout): \(upErrors())")
    }

    func upErrors() -> String { (try? String(contentsOfFile: "\(root)/up.err", encoding: .utf8)) ?? "" }

    var isUp: Bool { up.isRunning }

    /// The members whose pid is verified this session's, by id.
    func verifiedMembers() -> [String: SessionState.Member] {
        guard let run, let state = try? SessionState.read(from: run) else { return [:] }
        var out: [String: SessionState.Member] = [:]
        for m in state.members where m.verdict == .same && Self.commandLine(of: m.pid).contains(root) { out[m.id] = m }
        return out
    }

    /// Restarts so far, per member (from `session.json`, as `trellis ps` shows them).
    func restarts() -> Int {
        guard let run, let state = try? SessionState.read(from: run) else { return 0 }
        return state.members.reduce(0) { $0 + $1.restarts }
    }

    static func commandLine(of pid: Int32) -> String {
        guard pid > 0, let data = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") else { return "" }
        return String(decoding: data.map { $0 == 0 ? 0x20 : $0 }, as: UTF8.self)
    }

    /// Sends `signal` to `pid` if it is still the verified process of member `id`.
    func signal(_ signal: Int32, id: String, pid: Int32) -> Bool {
        guard let m = verifiedMembers()[id], m.pid == pid else { return false }
        return kill(pid, signal) == 0
    }

    /// Stops the tree as `trellis down` would (SIGTERM to the supervisor, which stops
    /// every process in order), then SIGKILLs any verified member still left.
    func stop(keep: Bool) async {
        let members = Array(verifiedMembers().values)
        if up.isRunning { up.terminate() }
        let deadline = ContinuousClock.now + .seconds(15)
        while up.isRunning, ContinuousClock.now < deadline { try? await Task.sleep(for: .milliseconds(20)) }
        if up.isRunning { kill(up.processIdentifier, SIGKILL) }
        up.waitUntilExit()
        for m in members where m.verdict == .same && Self.commandLine(of: m.pid).contains(root) {
            kill(m.pid, SIGCONT)
            kill(m.pid, SIGKILL)
        }
        if keep || ProcessInfo.processInfo.environment["TRELLIS_KEEP_RUN"] != nil {
            print("run root kept (the session, its scene and up.err): \(root)")
        } else {
            try? FileManager.default.removeItem(atPath: root)
        }
    }
}
