import Foundation
import TrellisLog
import TrellisSession
import TrellisTransport

/// A private run directory and routing log for a test that runs hosts in its own
/// process, removed when the test lets go of it.
final class PrivateRun {
    let run: RunDirectory
    let log: RoutingLog

    init(_ name: String) throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-\(name)-\(getpid())").path
        try RunDirectory.makePrivateDirectory(root)
        run = try RunDirectory.create(session: "\(name)-\(UInt32.random(in: 0...UInt32.max))", root: root)
        log = try RoutingLog(directory: run.logs, host: "test")
    }

    deinit {
        log.close()
        try? FileManager.default.removeItem(atPath: run.path)
    }
}

extension LinkOptions {
    /// For a link with a host on a main-queue loop in this test process at one end: the
    /// host's heartbeats and answers wait their turn behind every other test's
    /// main-actor work, so silence is judged after 10 s, not 600 ms, and requests wait
    /// 10 s, not 2. These tests are not about liveness or bounds (LinkTests and the
    /// multi-process tests are).
    static var sharingTheTestsMainActor: LinkOptions {
        var options = LinkOptions()
        options.heartbeatTimeout = .seconds(10)
        options.requestTimeout = .seconds(10)
        return options
    }
}
