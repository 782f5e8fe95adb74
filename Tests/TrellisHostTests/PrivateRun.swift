import Foundation
import TrellisLog

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
