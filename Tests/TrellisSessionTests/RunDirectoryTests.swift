import Foundation
import Testing
import TrellisSession

/// The run directory holds a session's sockets, logs, state and pulses: whoever can
/// enter it could speak on its sockets or name pids in its `session.json`, so it is
/// private or refused (issue 19 finding 7; docs/PROCESSES.md).
@Suite struct RunDirectoryTests {
    /// A private temporary root for run directories, removed afterwards.
    final class TemporaryRoot {
        let path = NSTemporaryDirectory() + "trellis-runtest-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        deinit { try? FileManager.default.removeItem(atPath: path) }
    }

    @Test("a run directory is created 0700, and one open to others is refused")
    func privateRunDirectory() throws {
        let root = TemporaryRoot()
        let run = try RunDirectory.create(session: "priv", root: root.path)
        var st = stat()
        #expect(stat(run.path, &st) == 0)
        #expect(st.st_mode & 0o777 == 0o700)
        chmod(run.path, 0o755)
        #expect(throws: RunDirectoryError.self) { try RunDirectory.create(session: "priv", root: root.path) }
        #expect(throws: RunDirectoryError.invalidSession("../escape")) { try RunDirectory.create(session: "../escape", root: root.path) }
        let long = try RunDirectory.create(session: String(repeating: "s", count: 64), root: root.path)
        #expect(throws: RunDirectoryError.self) { try long.ipcEndpoint(String(repeating: "n", count: 40)) }
    }
}
