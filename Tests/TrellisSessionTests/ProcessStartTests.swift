import Foundation
import Testing
import TrellisTestSupport
@testable import TrellisSession

/// Issue 19 finding 7: `trellis down` signalled whatever pid `session.json` named — a
/// dead supervisor's reused pid, a file in a directory others could write. A pid is now
/// believed only with its start time, and only from a private run directory.
@Suite struct ProcessStartTests {
    #if os(Linux)
    /// The command name is free text: `(a) b)` must not shift the fields after it.
    @Test func theStartTimeIsReadAfterTheLastParenthesis() {
        let fields = (3...52).map { $0 == 22 ? "4242" : "\($0)" }
        let stat = "77 (a) b) (c d) " + (["S"] + fields.dropFirst()).joined(separator: " ") + "\n"
        #expect(ProcessStart.startTime(fromStat: stat) == 4242)
        #expect(ProcessStart.startTime(fromStat: "77 (no fields) S 1 2") == nil)
        #expect(ProcessStart.startTime(fromStat: "garbage") == nil)
    }
    #endif

    @Test func aPidIsTheSameProcessOnlyWithItsOwnStartTime() throws {
        let child = try SleepingChild()
        defer { child.end() }
        let pid = child.pid
        let start = try #require(ProcessStart.time(of: pid))
        #expect(ProcessStart.time(of: pid) == start, "a process's start time does not change")
        #expect(ProcessStart.verify(pid: pid, startTime: start) == .same)
        #expect(ProcessStart.verify(pid: pid, startTime: start + 1) == .anotherProcess)
        #expect(ProcessStart.verify(pid: pid, startTime: nil) == .unrecorded)
        #expect(ProcessStart.verify(pid: 0, startTime: start) == .notRunning)
        child.end()
        #expect(ProcessStart.verify(pid: pid, startTime: start) == .notRunning)
    }

    /// A file written before start times were still reads; its pids are `unrecorded`.
    @Test func aSessionFileWithoutStartTimesReadsAndTrustsNoPid() throws {
        let root = "/tmp/trellis-identity-\(getpid())-\(UInt16.random(in: 0...UInt16.max))"
        defer { try? FileManager.default.removeItem(atPath: root) }
        let run = try RunDirectory.create(session: "old", root: root)
        let old = """
            {"members":[{"className":"DemoTabs","id":"Root","pid":\(getpid()),"restarts":0,"role":"root"}],
             "scene":"demo.yaml","state":"running","supervisor":\(getpid())}
            """
        try Data(old.utf8).write(to: URL(fileURLWithPath: SessionState.path(in: run)))
        let state = try SessionState.read(from: run)
        #expect(state.supervisorStart == nil && state.members[0].start == nil)
        #expect(state.supervisorVerdict == .unrecorded)
        #expect(state.members[0].verdict == .unrecorded)
        #expect(!state.isSupervisorAlive)
    }

    @Test func aRunDirectoryOthersCanEnterIsNotFound() throws {
        let root = "/tmp/trellis-identity-\(getpid())-\(UInt16.random(in: 0...UInt16.max))"
        defer { try? FileManager.default.removeItem(atPath: root) }
        let run = try RunDirectory.create(session: "open", root: root)
        #expect(try RunDirectory.find(session: "open", root: root) == run)
        chmod(run.path, 0o755)
        for session in ["open", nil] as [String?] {
            #expect(throws: RunDirectoryError.notPrivate(run.path, "mode 755 lets others in")) {
                try RunDirectory.find(session: session, root: root)
            }
        }
        #expect("\(RunDirectoryError.notPrivate(run.path, "mode 755 lets others in"))"
            == "refusing to use \(run.path): mode 755 lets others in; a run directory must be private (0700, yours)")
    }

    /// Root can give the file away; anyone else cannot, and has nothing to test here.
    @Test(.enabled(if: getuid() == 0)) func aSessionFileOfAnotherUserIsRefused() throws {
        let root = "/tmp/trellis-identity-\(getpid())-\(UInt16.random(in: 0...UInt16.max))"
        defer { try? FileManager.default.removeItem(atPath: root) }
        let run = try RunDirectory.create(session: "foreign", root: root)
        try SessionState(supervisor: 1, supervisorStart: 1, scene: "s.yaml", state: "running", members: []).write(to: run)
        #expect(chown(SessionState.path(in: run), 65534, 65534) == 0)
        #expect {
            _ = try SessionState.read(from: run)
        } throws: { error in
            "\(error)" == "refusing to read \(SessionState.path(in: run)): owned by uid 65534; only a session file of yours names pids to act on"
        }
    }
}
