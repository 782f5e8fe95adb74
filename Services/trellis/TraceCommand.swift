import ArgumentParser
import Foundation
import TrellisLog

/// `trellis trace ID`: one input's path through every hop, to the frame it produced.
struct TraceCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "trace",
        abstract: "Follow one input (its trace id, as `tap`/`key`/`drag` print it) through every hop to the frame it produced.")

    @OptionGroup var options: SessionOptions
    @Argument(help: "The trace id (hex), or `last`: the newest touch or key the compositor sent the root — a click or key in the terminal, or a client's.")
    var id: String
    @Flag(help: "The matching log lines as JSON.") var json = false

    func validate() throws {
        guard id == "last" || UInt64(id, radix: 16).map({ $0 != 0 }) == true else {
            throw ValidationError("'\(id)' is not a trace id (hex, not 0) nor `last`")
        }
    }

    func run() throws {
        var reader = LogReader(directory: try options.runDirectory().logs)
        let records = reader.readNew()
        let trace: UInt64
        if id == "last" {
            let input = records.last { r in
                r.at == "compositor" && r.outcome == .sent && (r.kind == "touch" || r.kind == "key") && r.trace != 0
            }
            guard let input else { throw CLIError("no touch or key has reached the root yet (logs are written within 50 ms)") }
            trace = input.trace
            print("trace \(TraceID.hex(trace))")
        } else {
            trace = UInt64(id, radix: 16)!
        }
        let hops = records.filter { $0.trace == trace }
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
