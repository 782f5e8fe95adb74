import ArgumentParser
import Foundation
import TrellisLog

/// `trellis trace ID`: one input's path through every hop, to the frame it produced.
struct TraceCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "trace",
        abstract: "Follow one input (its trace id, as `tap`/`key`/`drag` print it) through every hop to the frame it produced.")

    @OptionGroup var options: SessionOptions
    @Argument(help: "The trace id (hex).") var id: String
    @Flag(help: "The matching log lines as JSON.") var json = false

    func validate() throws {
        guard let t = UInt64(id, radix: 16), t != 0 else { throw ValidationError("'\(id)' is not a trace id (hex, not 0)") }
    }

    func run() throws {
        let trace = UInt64(id, radix: 16)!
        var reader = LogReader(directory: try options.runDirectory().logs)
        let hops = reader.readNew().filter { $0.trace == trace }
        guard let first = hops.first else { throw CLIError("no log line has trace \(id) (yet: logs are written within 50 ms)") }
        if json {
            for r in hops { print(String(decoding: try JSONEncoder().encode(r), as: UTF8.self)) }
            return
        }
        print("     +MS  " + LogTable.header)
        for r in hops {
            let ms = Double(r.mono &- first.mono) / 1e6
            print(String(format: "%8.3f  ", ms) + LogTable.row(r))
        }
        let processes = Set(hops.map(\.pid)).count
        if let composed = hops.last(where: { $0.kind == "frame" && $0.detail == "composed" }) {
            print(String(format: "%d lines in %d processes; the frame it caused was composed after %.3f ms",
                         hops.count, processes, Double(composed.mono &- first.mono) / 1e6))
        } else {
            print("\(hops.count) lines in \(processes) processes; no frame it caused has been composed")
        }
    }
}
