import Foundation
import Testing
import TrellisLog

/// `trellis logs` on a run directory written here (issue 21): routine heartbeat lines
/// are left out unless `--all` or `-k heartbeat` asks for them, a peer lost for want of
/// them still shows, and `-x` leaves any kind out.
@Suite struct LogsCommandTests {
    func record(_ sequence: UInt64, _ kind: String, _ outcome: RoutingRecord.Outcome) -> RoutingRecord {
        RoutingRecord(
            mono: 1_000 + sequence, wall: 1_795_000_000_000_000_000 + sequence, host: "Root", pid: 7, at: "Root", source: "Child",
            target: "Root", kind: kind, sequence: sequence, trace: 0, bytes: 0, outcome: outcome, via: "ipc")
    }

    /// The sequence numbers `trellis logs --json ARGS` prints for a log of every kind.
    func shown(_ arguments: String...) throws -> [UInt64] {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("logs-command-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("logs"), withIntermediateDirectories: true)
        var bytes: [UInt8] = []
        for r in [record(1, "heartbeat", .sent), record(2, "touch", .delivered), record(3, "heartbeat", .lost), record(4, "link", .event)] {
            r.appendJSON(to: &bytes)
        }
        try Data(bytes).write(to: dir.appendingPathComponent("logs/Root-7.jsonl"))
        let p = Process()
        p.executableURL = try BuiltProducts.binary("trellis")
        p.arguments = ["logs", "--run-dir", dir.path, "--json"] + arguments
        let out = Pipe()
        p.standardOutput = out
        try p.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        return try text.split(separator: "\n").map { try JSONDecoder().decode(RoutingRecord.self, from: Data($0.utf8)).sequence }
    }

    @Test func heartbeatsAreQuietUnlessAskedForButALossShows() throws {
        #expect(try shown() == [2, 3, 4])
        #expect(try shown("--all") == [1, 2, 3, 4])
        #expect(try shown("-k", "heartbeat") == [1, 3])
    }

    @Test func anyKindCanBeLeftOut() throws {
        #expect(try shown("-x", "link", "--exclude-kind", "touch") == [3])
    }
}
