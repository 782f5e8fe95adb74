import Testing
import TrellisCanvas
@testable import TrellisControllers
@testable import TrellisViews
import TrellisWire

/// TableView (issue 22, "Views for text and data"; docs/VIEWS.md): rows from a data
/// source, cells made on demand and reused, selection by keys and clicks.
@MainActor
@Suite struct TableViewTests {
    final class Numbers: TableViewDataSource, TableViewDelegate {
        var counts: [Int]
        var titles: [String?]
        var selected: [IndexPath] = []
        init(_ counts: [Int], titles: [String?] = []) {
            self.counts = counts
            self.titles = titles
        }
        func numberOfSections(in tableView: TableView) -> Int { counts.count }
        func tableView(_ tableView: TableView, numberOfRowsInSection section: Int) -> Int { counts[section] }
        func tableView(_ tableView: TableView, titleForHeaderInSection section: Int) -> String? {
            titles.indices.contains(section) ? titles[section] : nil
        }
        func tableView(_ tableView: TableView, cellForRowAt indexPath: IndexPath) -> TableViewCell {
            let cell = tableView.dequeueReusableCell(withIdentifier: "n", for: indexPath)
            cell.textLabel.text = "row \(indexPath.section).\(indexPath.row)"
            return cell
        }
        func tableView(_ tableView: TableView, didSelectRowAt indexPath: IndexPath) { selected.append(indexPath) }
    }

    func table(_ source: Numbers, height: Int = 5) -> (Window, TableView) {
        let w = Window(size: Size(width: 30, height: 10))
        w.rootViewController = ViewController(id: "List")
        w.makeKeyAndVisible()
        let t = TableView(frame: Rect(x: 0, y: 0, width: 20, height: height))
        t.register(TableViewCell.self, forCellReuseIdentifier: "n")
        t.dataSource = source
        t.delegate = source
        w.rootViewController!.view.addSubview(t)
        return (w, t)
    }

    func rows(_ w: Window, _ n: Int) -> [String] {
        Array(w.compose().text.split(separator: "\n", omittingEmptySubsequences: false).prefix(n).map(String.init))
    }

    @Test func sectionsShowTheirHeadersAndRows() {
        let source = Numbers([2, 2], titles: ["Errors", "Warnings"])   // held: a table's data source is weak, as in UIKit
        let (w, _) = table(source, height: 6)
        #expect(rows(w, 6) == ["Errors", "row 0.0", "row 0.1", "Warnings", "row 1.0", "row 1.1"])
    }

    @Test func aMillionRowsMakeOnlyTheCellsOnScreen() {
        let source = Numbers([1_000_000])
        let (w, t) = table(source)
        t.becomeFirstResponder()
        _ = w.compose()
        for _ in 0..<20 { w.key(.pageDown) }
        w.key(.end)
        #expect(rows(w, 5) == ["row 0.999995", "row 0.999996", "row 0.999997", "row 0.999998", "row 0.999999"])
        // Five rows on screen; a page's step recycles what scrolled off.
        #expect(t.cellsMade <= 6)
        #expect(t.indexPathForSelectedRow == IndexPath(row: 999_999, section: 0))
    }

    @Test func keysMoveTheSelectionAndKeepItOnScreenSkippingHeaders() {
        let source = Numbers([3, 3], titles: ["A", "B"])
        let (w, t) = table(source, height: 4)
        t.becomeFirstResponder()
        w.key(.down)
        #expect(t.indexPathForSelectedRow == IndexPath(row: 0, section: 0))
        w.key(.down)
        w.key(.down)
        w.key(.down)                         // over the header of B
        #expect(t.indexPathForSelectedRow == IndexPath(row: 0, section: 1))
        #expect(rows(w, 4) == ["row 0.1", "row 0.2", "B", "row 1.0"])
        w.key(.home)
        #expect(t.indexPathForSelectedRow == IndexPath(row: 0, section: 0))
        #expect(t.firstLine == 1)
        w.key(.up)                           // nothing above the first row: the key goes on
        #expect(source.selected.last == IndexPath(row: 0, section: 0))
    }

    @Test func aClickSelectsTheRowUnderItAndTellsTheDelegate() {
        let source = Numbers([5])
        let (w, t) = table(source)
        w.tap(at: Point(x: 3, y: 2))
        #expect(t.indexPathForSelectedRow == IndexPath(row: 2, section: 0))
        #expect(source.selected == [IndexPath(row: 2, section: 0)])
        #expect(t.isFocused)
        // The selected row is drawn reversed.
        #expect(w.compose().cell(at: Point(x: 0, y: 2))?.attributes.contains(.reverse) == true)
    }

    @Test func reloadingAsksTheDataSourceAgainAndDropsASelectionThatIsGone() {
        let source = Numbers([5])
        let (w, t) = table(source)
        t.selectRow(at: IndexPath(row: 4, section: 0))
        source.counts = [2]
        t.reloadData()
        #expect(t.indexPathForSelectedRow == nil)
        #expect(rows(w, 3) == ["row 0.0", "row 0.1", ""])
    }
}
