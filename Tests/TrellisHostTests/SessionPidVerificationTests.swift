import Foundation
import Testing
import TrellisLog
import TrellisSession
import TrellisTestSupport

/// `trellis down` and `ps` act only on pids they verify (issue 19 finding 7): a pid in
/// `session.json` is signalled or shown only while it is still the process recorded (its
/// start time), and only from a run directory that is private. The "supervisor" here is a
/// `sleep` this test starts, so that whatever `down` does, it does to a process of ours.
@Suite struct SessionPidVerificationTests {
    /// A run directory for `s` whose session.json names `pid` as supervisor and as the
    /// root's process, with `start` as their start time.
    func record(_ s: CLISession, pid: pid_t, start: UInt64?) throws -> RunDirectory {
        let run = try RunDirectory.create(session: s.session, root: s.root)
        try SessionState(
            supervisor: pid, supervisorStart: start, scene: "parity.yaml", state: "running",
            members: [.init(id: "Container", role: "root", className: "ParityContainer", pid: pid, start: start, restarts: 0)]
        ).write(to: run)
        return run
    }

    /// `trellis ps`'s PID column for the root's row.
    func psPid(_ s: CLISession) throws -> String {
        let ps = try s.cli("ps")
        #expect(ps.status == 0, "\(ps.errors)")
        let row = ps.output.split(separator: "\n").first { $0.hasPrefix("Container ") }
        return row.map { String($0.split(separator: " ", omittingEmptySubsequences: true)[3]) } ?? "no row in \(ps.output)"
    }

    @Test func aReusedPidIsNeitherSignalledNorShown() throws {
        let s = try CLISession()
        defer { s.cleanUp() }
        let child = try SleepingChild()
        defer { child.end() }
        let sleep = child.pid
        let start = try #require(ProcessStart.time(of: sleep))

        _ = try record(s, pid: sleep, start: start + 1)
        #expect(try psPid(s) == "-")
        #expect(try s.cli("ps").output.contains("gone (supervisor not running), supervisor pid -"))
        let down = try s.cli("down")
        #expect(down.status == 0, "\(down.errors)")
        #expect(down.output.contains("supervisor (pid \(sleep)) is not running: pid \(sleep) is now another process; nothing signalled"), "\(down.output)")
        #expect(ProcessStart.verify(pid: sleep, startTime: start) == .same, "down signalled a pid it had not verified")

        // With no start time (a file from before them) nothing is signalled either, and
        // `down` fails: it cannot tell whether the session runs.
        _ = try record(s, pid: sleep, start: nil)
        #expect(try psPid(s) == "-")
        let old = try s.cli("down")
        #expect(old.status != 0)
        #expect(old.errors.contains("records no start time for its supervisor (pid \(sleep))"), "\(old.errors)")
        #expect(old.errors.contains("nothing signalled"), "\(old.errors)")
        #expect(ProcessStart.verify(pid: sleep, startTime: start) == .same, "down signalled a pid without a start time")
    }

    @Test func theRecordedProcessIsShownAndSignalled() throws {
        let s = try CLISession()
        defer { s.cleanUp() }
        let child = try SleepingChild()
        defer { child.end() }
        let sleep = child.pid
        let start = try #require(ProcessStart.time(of: sleep))

        _ = try record(s, pid: sleep, start: start)
        #expect(try psPid(s) == "\(sleep)")
        let down = try s.cli("down")
        #expect(down.status == 0, "\(down.errors)")
        #expect(down.output.contains("stopped"), "\(down.output)")
        let status = try #require(child.reapIfExited(), "down returned before the verified supervisor exited")
        #expect(status & 0x7f == SIGTERM, "the verified supervisor got SIGTERM")
    }

    @Test func aRunDirectoryOthersCanEnterIsRefused() throws {
        let s = try CLISession()
        defer { s.cleanUp() }
        let child = try SleepingChild()
        defer { child.end() }
        let sleep = child.pid
        let start = try #require(ProcessStart.time(of: sleep))

        // Even naming the right process: whoever else can write here could have.
        let run = try record(s, pid: sleep, start: start)
        #expect(chmod(run.path, 0o755) == 0)
        for command in ["down", "ps"] {
            let r = try s.cli(command)
            #expect(r.status != 0)
            #expect(r.errors.contains("refusing to use \(run.path): mode 755 lets others in; a run directory must be private (0700, yours)"), "\(command): \(r.errors)")
        }
        #expect(ProcessStart.verify(pid: sleep, startTime: start) == .same, "down signalled from a directory others can enter")
        chmod(run.path, 0o700)
    }
}
