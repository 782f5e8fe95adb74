import ArgumentParser
import Foundation

/// `trellis bench table` (issue 22): a table of a million rows paged down one page at a
/// time — the time of a step and the process's resident memory — beside the same table
/// of a thousand rows, alternating in the same run, each in a process of its own. Cells
/// are made on demand and reused, so neither should grow with the rows. The workload is
/// in docs/BENCHMARKS.md.
struct TableBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "table",
        abstract: "Page Down through a 1,000,000-row TableView vs the same at 1,000 rows: time per step, memory.",
        discussion: """
            Each side is this binary run as 'trellis bench table-peer' in a process of its own: \
            an 80x24 Window whose root view is a focused TableView (one section, "row N" \
            cells, reused), paged down with the Page Down key: --segments runs of --pages \
            steps, the runs starting at rows spread evenly over the table (so the million-row \
            table is paged at its top, its middle and its end). A step is the key delivered \
            through the window (the selection moves a page, the rows on screen follow) and \
            the window's next frame taken (Window.takeFrame: layout, cells, drawing, damage), \
            timed in thread CPU time. Every step is checked: handled, a page further, a frame \
            sent. The sides alternate for --rounds rounds. Figures: p50 of the steps and the \
            process's resident set (VmRSS) after the scroll, medians over the rounds; \
            step_ratio and memory_ratio = million / thousand; targets <= 1.2 each.
            """
    )

    @Option(help: "Rows of the big table.") var rows = 1_000_000
    @Option(help: "Rows of the baseline table.") var baselineRows = 1_000
    @Option(help: "Runs of Page Down per round, spread over the table.") var segments = 20
    @Option(help: "Page Down steps per run.") var pages = 20
    @Option(help: "Rounds, each one process per side.") var rounds = 3

    static let target = 1.2

    func validate() throws {
        guard segments >= 1, pages >= 1, rounds >= 1 else { throw ValidationError("--segments, --pages, --rounds must be at least 1") }
        let least = 2 * TableScroll.size.height * pages
        guard rows >= least, baselineRows >= least else {
            throw ValidationError("--rows and --baseline-rows must be at least \(least) for \(pages) pages")
        }
    }

    func run() async throws {
        print("table benchmark: Page Down through a TableView of \(rows) rows beside \(baselineRows) rows, 80x24, "
            + "\(segments) runs of \(pages) pages per round, \(rounds) rounds alternating, each side a process of its own")
        var big: [TablePeerResult] = [], small: [TablePeerResult] = []
        for _ in 0..<rounds {
            small.append(try peer(rows: baselineRows))
            big.append(try peer(rows: rows))
        }
        func median(_ v: [Double]) -> Double { Percentiles(v.map { UInt64($0) }).p50 }
        let stepP50 = { (r: [TablePeerResult]) in median(r.map { Percentiles($0.steps).p50 }) }
        let stepP99 = { (r: [TablePeerResult]) in median(r.map { Percentiles($0.steps).p99 }) }
        let rss = { (r: [TablePeerResult]) in median(r.map { Double($0.rssKB) }) }
        let growth = { (r: [TablePeerResult]) in median(r.map { Double(max(0, $0.growthKB)) }) }
        let stepRatio = stepP50(big) / stepP50(small), memoryRatio = rss(big) / rss(small)
        let us = { (ns: Double) in figure(ns / 1000, 1) }
        for (name, r) in [("\(rows) rows", big), ("\(baselineRows) rows", small)] {
            print("  \(name.padding(toLength: 16, withPad: " ", startingAt: 0)) step p50 \(us(stepP50(r))) us, p99 \(us(stepP99(r))) us; "
                + "resident \(figure(rss(r) / 1024, 1)) MB (the table and its window: \(figure(growth(r), 0)) kB); "
                + "cells made \(r.map(\.cellsMade).max() ?? 0)")
        }
        let met = { (v: Double) in v <= Self.target ? "met" : "not met" }
        print("targets: step_ratio <= \(Self.target) (\(met(stepRatio))), memory_ratio <= \(Self.target) (\(met(memoryRatio)))")
        print("bench=table rows=\(rows) baseline_rows=\(baselineRows) step_p50_us=\(us(stepP50(big))) step_p99_us=\(us(stepP99(big))) "
            + "rss_mb=\(figure(rss(big) / 1024, 2)) growth_kb=\(figure(growth(big), 0)) baseline_step_p50_us=\(us(stepP50(small))) "
            + "baseline_step_p99_us=\(us(stepP99(small))) baseline_rss_mb=\(figure(rss(small) / 1024, 2)) "
            + "baseline_growth_kb=\(figure(growth(small), 0)) steps=\(segments * pages) rounds=\(rounds) "
            + "step_ratio=\(figure(stepRatio, 2)) memory_ratio=\(figure(memoryRatio, 2))")
    }

    /// One side in a process of its own; its line read back.
    func peer(rows: Int) throws -> TablePeerResult {
        let (status, lines) = try runHelper(
            ["bench", "table-peer", "--rows", "\(rows)", "--segments", "\(segments)", "--pages", "\(pages)"])
        guard status == 0, let result = lines.last.flatMap({ TablePeerResult(line: String($0)) }) else {
            throw BenchError("table-peer --rows \(rows) failed (status \(status))\(lines.last.map { ": \($0)" } ?? "")")
        }
        return result
    }
}
