import Foundation
import Testing

/// Issue 19's chaos workload, short: `trellis bench chaos` for about 20 s on the demo,
/// its children killed every 200 ms and one stopped, with the same zero targets as the
/// full bench — nothing lost, nothing handled out of order, every killed child back.
/// The latency targets are the full bench's business (a release build, docs/BENCHMARKS.md).
///
/// Nested in `MultiProcessTests`, whose `.serialized` keeps whole sessions one at a time.
extension MultiProcessTests {
    @Suite(.timeLimit(.minutes(3))) struct ChaosBenchTests {
        @Test func killedAndStoppedChildrenLoseNoTapAndComeBack() throws {
            let p = Process()
            p.executableURL = try BuiltProducts.binary("trellis")
            p.currentDirectoryURL = URL(fileURLWithPath: BuiltProducts.package)
            p.arguments = [
                "bench", "chaos", "--quiet-seconds", "3", "--seconds", "12", "--after-seconds", "2",
                "--stop-seconds", "4", "--rate", "100", "--seed", "19",
            ]
            let out = Pipe()
            p.standardOutput = out
            p.standardError = FileHandle.standardError
            try p.run()
            let output = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            p.waitUntilExit()
            #expect(p.terminationStatus == 0, "\(output)")
            let last = try #require(output.split(separator: "\n").last { $0.hasPrefix("bench=chaos ") }, "\(output)")
            var figures: [String: String] = [:]
            for pair in last.split(separator: " ") {
                let kv = pair.split(separator: "=", maxSplits: 1)
                if kv.count == 2 { figures[String(kv[0])] = String(kv[1]) }
            }
            #expect(Int(figures["kills"] ?? "") ?? 0 > 0, "\(output)")
            #expect(figures["lost"] == "0", "\(output)")
            #expect(figures["out_of_order"] == "0", "\(output)")
            #expect(figures["never_back"] == "0", "\(output)")
        }
    }
}
