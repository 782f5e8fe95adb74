import Foundation
import Testing
@testable import TrellisSession

/// `session.json` is what `trellis ps`, `down` and clients read: a round trip keeps
/// every field, and a damaged or missing file is an error that names the file.
@Suite struct SessionStateTests {
    func runDirectory() throws -> RunDirectory {
        let root = "/tmp/trellis-state-\(getpid())-\(UInt16.random(in: 0...UInt16.max))"
        return try RunDirectory.create(session: "s", root: root)
    }

    #if os(Linux)
    /// `trellis down` waited its whole 20 s when the supervisor's parent (pytest's
    /// `subprocess`) had not reaped it yet: an exited process is not alive.
    @Test func aSupervisorThatExitedButIsNotReapedIsNotAlive() throws {
        var pid: pid_t = 0
        let argv: [UnsafeMutablePointer<CChar>?] = [strdup("/bin/true"), nil]
        defer { for a in argv { free(a) } }
        #expect(posix_spawn(&pid, "/bin/true", nil, nil, argv, environ) == 0)
        var state = SessionState(
            supervisor: pid, supervisorStart: ProcessStart.time(of: pid), scene: "s.yaml", state: "running", members: [])
        let deadline = ContinuousClock.now + .seconds(5)
        while state.isSupervisorAlive && ContinuousClock.now < deadline { usleep(10_000) }
        #expect(!state.isSupervisorAlive, "an exited, unreaped process counted as alive")
        #expect(kill(pid, 0) == 0, "the process must still be a zombie for this test to mean anything")
        var status: Int32 = 0
        #expect(waitpid(pid, &status, 0) == pid)
        #expect(!state.isSupervisorAlive)
        state.supervisor = getpid()
        state.supervisorStart = ProcessStart.time(of: getpid())
        #expect(state.isSupervisorAlive)
    }
    #endif

    @Test func aWrittenStateReadsBackWhole() throws {
        let run = try runDirectory()
        defer { try? FileManager.default.removeItem(atPath: (run.path as NSString).deletingLastPathComponent) }
        let state = SessionState(
            supervisor: 42, scene: "demo.yaml", state: "stopped", reason: "more than 0 restarts",
            members: [.init(id: "Root", role: "root", className: "DemoTabs", pid: 7, start: 123_456, restarts: 2)])
        try state.write(to: run)
        #expect(try SessionState.read(from: run) == state)
        let mode = try FileManager.default.attributesOfItem(atPath: SessionState.path(in: run))[.posixPermissions] as? Int
        #expect(mode == 0o600)
    }

    @Test(arguments: ["", "{", "null", "[1,2]", "{\"supervisor\": \"x\"}", "\u{FF}\u{FE}garbage"])
    func aDamagedStateIsAnErrorNamingTheFile(_ text: String) throws {
        let run = try runDirectory()
        defer { try? FileManager.default.removeItem(atPath: (run.path as NSString).deletingLastPathComponent) }
        try Data(text.utf8).write(to: URL(fileURLWithPath: SessionState.path(in: run)))
        #expect {
            _ = try SessionState.read(from: run)
        } throws: { error in
            "\(error)".contains("session.json is not a session state file")
        }
    }

    @Test func aMissingStateSaysNoSupervisorRanIt() throws {
        let run = try runDirectory()
        defer { try? FileManager.default.removeItem(atPath: (run.path as NSString).deletingLastPathComponent) }
        #expect {
            _ = try SessionState.read(from: run)
        } throws: { error in
            "\(error)".contains("no supervisor has run this session")
        }
    }
}
