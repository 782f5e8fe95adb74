import ArgumentParser
import Foundation
import TrellisLog
import TrellisSession

/// `trellis logs`: the routing logs of a session, merged, filtered, followed.
struct LogsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "logs",
        abstract: "Show a session's routing log: every process's lines merged by time.",
        discussion: """
            Each filter may be repeated; a line must match one value of every filter given. \
            Heartbeat lines are left out unless --kind heartbeat or --all asks for them; \
            --exclude-kind leaves out any other kind. Lines that are not valid routing \
            records are reported on standard error with their file and line, and skipped.
            """
    )

    @Option(help: "Session name (default: the newest session).") var session: String?
    @Option(help: "A run directory to read instead of a named session.") var runDir: String?
    @Option(help: "Where run directories live (default: $TRELLIS_RUN_ROOT, $XDG_RUNTIME_DIR/trellis, /tmp/trellis-UID).")
    var runRoot: String?
    @Option(name: [.customLong("controller"), .customShort("c")], help: "Lines whose source, target or writer is this controller.")
    var controllers: [String] = []
    @Option(name: [.customLong("kind"), .customShort("k")], help: "Message kind (touch, appearance, …, link, heartbeat).")
    var kinds: [String] = []
    @Option(name: [.customLong("exclude-kind"), .customShort("x")], help: "Leave out lines of this kind.")
    var excludedKinds: [String] = []
    @Flag(help: "Show every line, heartbeats included.") var all = false
    @Option(name: [.customLong("trace"), .customShort("t")], help: "Trace id (hex, as printed).") var traces: [String] = []
    @Option(name: [.customLong("outcome"), .customShort("o")], help: "sent, received, delivered, rejected, dropped, timeout, lost, event.")
    var outcomes: [String] = []
    @Flag(name: [.customLong("follow"), .customShort("f")], help: "Keep printing new lines as they are written.") var follow = false
    @Flag(help: "One JSON object per line, for machines.") var json = false

    func validate() throws {
        for o in outcomes where RoutingRecord.Outcome(rawValue: o) == nil {
            throw ValidationError("unknown outcome \(o.debugDescription); one of \(RoutingRecord.Outcome.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        for k in Set(kinds).intersection(excludedKinds) {
            throw ValidationError("--kind \(k) and --exclude-kind \(k) together would show nothing")
        }
        for t in traces where UInt64(t, radix: 16) == nil {
            throw ValidationError("trace \(t.debugDescription) is not a hex trace id")
        }
    }

    func run() throws {
        let directory: String
        if let runDir {
            directory = "\(runDir)/logs"
        } else {
            do {
                directory = try RunDirectory.find(session: session, root: runRoot ?? RunDirectory.root).logs
            } catch {
                throw ValidationError("\(error)")
            }
        }
        let filter = LogFilter.forPeople(
            controllers: Set(controllers), kinds: Set(kinds), excluding: Set(excludedKinds), all: all, traces: Set(traces.compactMap { UInt64($0, radix: 16) }),
            outcomes: Set(outcomes.compactMap(RoutingRecord.Outcome.init(rawValue:))))
        var reader = LogReader(directory: directory)
        var reported = 0
        var printedHeader = false
        while true {
            let records = reader.readNew().filter(filter.matches)
            var out = ""
            if !json && !printedHeader && (!records.isEmpty || !follow) {
                out += LogTable.header + "\n"
                printedHeader = true
            }
            for r in records {
                if json {
                    var line: [UInt8] = []
                    r.appendJSON(to: &line)
                    out += String(decoding: line, as: UTF8.self)
                } else {
                    out += LogTable.row(r) + "\n"
                }
            }
            FileHandle.standardOutput.write(Data(out.utf8))
            for bad in reader.malformed.dropFirst(reported) {
                FileHandle.standardError.write(Data("trellis logs: skipped \(bad)\n".utf8))
            }
            reported = reader.malformed.count
            guard follow else { break }
            Thread.sleep(forTimeInterval: 0.2)
        }
    }
}
