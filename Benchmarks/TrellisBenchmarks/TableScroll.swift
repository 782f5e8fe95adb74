import Foundation
import TrellisCanvas
import TrellisControllers
import TrellisViews
import TrellisWire

/// The workload of `trellis bench table`, run by `trellis bench table-peer` in a process
/// of its own so that its resident set is the table's alone: an 80×24 window whose root
/// view is a focused `TableView` of `rows` rows ("row N" each), paged down with the Page
/// Down key in `segments` runs of `pages` steps, the runs starting at rows spread evenly
/// over the table. A step is the key's delivery and the window's next frame
/// (`Window.takeFrame`: layout, the reused cells drawn, the damage taken) — what a host
/// does for a Page Down before the frame goes out.
final class TableScroll: TableViewDataSource {
    nonisolated static let size = Size(width: 80, height: 24)
    let rows: Int
    let window = Window(size: TableScroll.size)
    let table = TableView()
    private var frames: UInt32 = 0

    init(rows: Int) {
        self.rows = rows
        let root = ViewController(id: "Table")
        root.loadViewIfNeeded()
        table.frame = Rect(origin: .zero, size: Self.size)
        table.register(TableViewCell.self, forCellReuseIdentifier: "row")
        root.view.addSubview(table)
        table.dataSource = self
        window.rootViewController = root
        window.makeKeyAndVisible()
        _ = nextFrame()
    }

    func tableView(_ tableView: TableView, numberOfRowsInSection section: Int) -> Int { rows }

    func tableView(_ tableView: TableView, cellForRowAt indexPath: TrellisViews.IndexPath) -> TableViewCell {
        let cell = tableView.dequeueReusableCell(withIdentifier: "row", for: indexPath)
        cell.textLabel.text = "row \(indexPath.row)"
        return cell
    }

    private func nextFrame() -> FrameUpdate? {
        frames &+= 1
        return window.takeFrame(number: frames)
    }

    /// Thread CPU nanoseconds of each step. Every step must move the selection a page
    /// down and send a frame: a step that did less would not be the step measured.
    func scroll(segments: Int, pages: Int) throws -> [UInt64] {
        guard table.becomeFirstResponder() else { throw BenchError("the table did not take focus") }
        let page = Self.size.height - 1
        let span = max(0, rows - 1 - pages * page)
        var samples: [UInt64] = []
        samples.reserveCapacity(segments * pages)
        for s in 0..<segments {
            let start = segments > 1 ? span * s / (segments - 1) : 0
            table.selectRow(at: TrellisViews.IndexPath(row: start, section: 0))
            _ = nextFrame()
            for p in 1...pages {
                var frame: FrameUpdate?
                let t0 = threadCPUNanoseconds()
                let outcome = window.key(.pageDown)
                frame = nextFrame()
                samples.append(threadCPUNanoseconds() - t0)
                guard outcome == .handled, (frame?.damage.count ?? 0) > 0,
                    table.indexPathForSelectedRow?.row == start + p * page
                else {
                    throw BenchError("Page Down \(p) from row \(start) of \(rows): \(outcome), "
                        + "selected \(table.indexPathForSelectedRow.map { "\($0.row)" } ?? "none"), no frame: \(frame == nil)")
                }
            }
        }
        return samples
    }
}
