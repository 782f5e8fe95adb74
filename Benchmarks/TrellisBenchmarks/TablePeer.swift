import ArgumentParser
import Foundation

/// One side of `trellis bench table` in a process of its own: the table of `--rows`
/// rows paged down (`TableScroll`), then one line of its figures on standard output —
/// the steps' times and the process's resident set. Hidden: started by the benchmark.
struct TablePeer: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "table-peer", abstract: "Helper process of 'trellis bench table'.", shouldDisplay: false)

    @Option var rows: Int
    @Option var segments: Int
    @Option var pages: Int

    func validate() throws {
        guard rows >= 2 * TableScroll.size.height * max(1, pages), segments >= 1, pages >= 1 else {
            throw ValidationError("--rows must hold --pages pages twice over; --segments and --pages at least 1")
        }
    }

    @MainActor
    func run() async throws {
        let before = ProcessMemory.status("VmRSS")
        let table = TableScroll(rows: rows)
        let steps = try table.scroll(segments: segments, pages: pages)
        let after = ProcessMemory.status("VmRSS")
        guard let before, let after else { throw BenchError("no /proc/self/status to read the resident set from") }
        print(TablePeerResult(
            rows: rows, steps: steps, rssKB: after, growthKB: after - before, cellsMade: table.table.cellsMade
        ).line)
    }
}

/// What a table peer reports, as one line of `key=value` pairs, and read back.
struct TablePeerResult {
    var rows: Int
    var steps: [UInt64]
    var rssKB: Int
    var growthKB: Int
    var cellsMade: Int

    var line: String {
        "rows=\(rows) rss_kb=\(rssKB) growth_kb=\(growthKB) cells=\(cellsMade) steps=" + steps.map(String.init).joined(separator: ",")
    }

    init(rows: Int, steps: [UInt64], rssKB: Int, growthKB: Int, cellsMade: Int) {
        (self.rows, self.steps, self.rssKB, self.growthKB, self.cellsMade) = (rows, steps, rssKB, growthKB, cellsMade)
    }

    /// Reads a peer's line; nil for anything else (a peer that failed says why on stderr).
    init?(line: String) {
        var f: [String: String] = [:]
        for pair in line.split(separator: " ") {
            let kv = pair.split(separator: "=", maxSplits: 1)
            if kv.count == 2 { f[String(kv[0])] = String(kv[1]) }
        }
        guard let rows = f["rows"].flatMap(Int.init), let rss = f["rss_kb"].flatMap(Int.init),
            let growth = f["growth_kb"].flatMap(Int.init), let cells = f["cells"].flatMap(Int.init),
            let steps = f["steps"]?.split(separator: ",").compactMap({ UInt64($0) }), !steps.isEmpty
        else { return nil }
        self.init(rows: rows, steps: steps, rssKB: rss, growthKB: growth, cellsMade: cells)
    }
}
