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

    /// A 20-column table at the window's top left; the scroll indicator off unless asked
    /// for, so rows read as their text.
    func table(_ source: TableViewDataSource, height: Int = 5, indicator: Bool = false) -> (Window, TableView) {
        let w = Window(size: Size(width: 30, height: 10))
        w.rootViewController = ViewController(id: "List")
        w.makeKeyAndVisible()
        let t = TableView(frame: Rect(x: 0, y: 0, width: 20, height: height))
        t.showsVerticalScrollIndicator = indicator
        t.register(TableViewCell.self, forCellReuseIdentifier: "n")
        t.dataSource = source
        t.delegate = source as? TableViewDelegate
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

    /// "Reload of rows" (issue 22; UIKit's `reloadRows(at:with:)`): only the rows named are
    /// asked for again — a row on screen gets a fresh cell, one off screen is asked when
    /// shown — and the selection stays.
    @Test func reloadingRowsAsksForThoseRowsAloneAndKeepsTheSelection() {
        let source = Labels(["a", "b", "c", "d", "e", "f", "g"])
        let (w, t) = table(source, height: 3)
        t.selectRow(at: IndexPath(row: 1, section: 0))
        #expect(rows(w, 3) == ["a", "b", "c"])
        source.texts[1] = "B"
        source.texts[2] = "C"
        source.texts[5] = "F"
        source.asked = []
        t.reloadRows(at: [IndexPath(row: 1, section: 0), IndexPath(row: 5, section: 0), IndexPath(row: 99, section: 0)])
        #expect(rows(w, 3) == ["a", "B", "c"], "row 2 was not named: its cell stays as it was")
        #expect(source.asked == [1])
        #expect(t.indexPathForSelectedRow == IndexPath(row: 1, section: 0))
        t.scrollToRow(at: IndexPath(row: 5, section: 0))
        #expect(rows(w, 3) == ["d", "e", "F"])
    }

    final class Labels: TableViewDataSource {
        var texts: [String]
        var asked: [Int] = []
        init(_ texts: [String]) { self.texts = texts }
        func tableView(_ tableView: TableView, numberOfRowsInSection section: Int) -> Int { texts.count }
        func tableView(_ tableView: TableView, cellForRowAt indexPath: IndexPath) -> TableViewCell {
            asked.append(indexPath.row)
            let cell = tableView.dequeueReusableCell(withIdentifier: "n", for: indexPath)
            cell.textLabel.text = texts[indexPath.row]
            return cell
        }
    }

    // MARK: Data tables and the scroll indicator (issue 22: "a header row for columns (a
    // data table)", "a scroll indicator"; docs/VIEWS.md, "Tables", "Scroll indicators")

    /// Numbers with three columns: the row, its square, and a word.
    final class Squares: TableViewDataSource {
        let count: Int
        init(_ count: Int) { self.count = count }
        func tableView(_ tableView: TableView, numberOfRowsInSection section: Int) -> Int { count }
        func tableView(_ tableView: TableView, cellForRowAt indexPath: IndexPath) -> TableViewCell {
            let cell = tableView.dequeueReusableCell(withIdentifier: "n", for: indexPath)
            let n = indexPath.row
            cell.columnTexts = ["\(n)", "\(n * n)", n % 2 == 0 ? "even" : "odd-numbered"]
            return cell
        }
    }

    func dataTable(_ source: Squares, height: Int = 5) -> (Window, TableView) {
        let w = Window(size: Size(width: 30, height: 10))
        w.rootViewController = ViewController(id: "List")
        w.makeKeyAndVisible()
        let t = TableView(frame: Rect(x: 0, y: 0, width: 20, height: height))
        t.columns = [TableColumn("N", width: 3), TableColumn("N²", width: 4), TableColumn("Word")]
        t.register(TableViewCell.self, forCellReuseIdentifier: "n")
        t.dataSource = source
        w.rootViewController!.view.addSubview(t)
        return (w, t)
    }

    @Test func columnsShareTheWidthLeftByTheFixedOnesOneCellApart() {
        let c = [TableColumn("A", width: 3), TableColumn("B"), TableColumn("C", width: 2), TableColumn("D")]
        // 20 cells: 3 gaps and 5 fixed leave 12, six each.
        #expect(TableView.spans(of: c, width: 20) == [0..<3, 4..<10, 11..<13, 14..<20])
        // 19 cells: the last flexible column takes what division leaves.
        #expect(TableView.spans(of: c, width: 18) == [0..<3, 4..<9, 10..<12, 13..<18])
        // Too narrow: columns are cut at the edge, never past it.
        #expect(TableView.spans(of: c, width: 6).allSatisfy { $0.upperBound <= 6 })
    }

    @Test func aDataTableKeepsItsHeaderRowWhileTheRowsScrollBeneathIt() {
        let source = Squares(100)
        let (w, t) = dataTable(source)
        t.showsVerticalScrollIndicator = false
        t.becomeFirstResponder()
        #expect(rows(w, 3) == ["N   N²   Word", "0   0    even", "1   1    odd-numbere"])
        // The header is drawn as one: bold and underlined across the table.
        #expect(w.compose().cell(at: Point(x: 10, y: 0))?.attributes.contains(.underline) == true)
        w.key(.pageDown)
        w.key(.pageDown)
        // Four rows under the header; a page is three of them.
        #expect(t.indexPathForSelectedRow == IndexPath(row: 6, section: 0))
        #expect(rows(w, 5) == ["N   N²   Word", "3   9    odd-numbere", "4   16   even", "5   25   odd-numbere", "6   36   even"])
        // The selected row is reversed across every column and the gaps between them.
        #expect(w.compose().cell(at: Point(x: 3, y: 4))?.attributes.contains(.reverse) == true)
        w.key(.end)
        #expect(rows(w, 5).last == "99  9801 odd-numbere")
        #expect(rows(w, 1) == ["N   N²   Word"])
    }

    @Test func aClickOnTheHeaderSelectsNothingAndOneBelowItSelectsThatRow() {
        let source = Squares(100)
        let (w, t) = dataTable(source)
        w.tap(at: Point(x: 5, y: 0))
        #expect(t.indexPathForSelectedRow == nil)
        w.tap(at: Point(x: 5, y: 2))
        #expect(t.indexPathForSelectedRow == IndexPath(row: 1, section: 0))
        // The wheel moves the rows beneath the header, three a notch.
        #expect(w.scroll(deltaY: 1, at: Point(x: 5, y: 3)))
        // The rows end before the indicator, in the last column.
        #expect(rows(w, 2) == ["N   N²   Word", "3   9    odd-number│"])
    }

    @Test func theIndicatorShowsWhereAndHowMuchOfTheRowsAreOnScreen() {
        let source = Numbers([20])
        let (w, t) = table(source, height: 5, indicator: true)
        t.becomeFirstResponder()
        func bar() -> String { rows(w, 5).map { String($0.dropFirst(19).prefix(1)) }.joined() }
        // 5 of 20 rows: a thumb of one row (5 × 5 / 20, rounded), at the top.
        #expect(bar() == "┃││││")
        // The rows end before the indicator's column.
        #expect(rows(w, 1)[0].hasPrefix("row 0.0") && t.rowArea.width == 19)
        w.key(.end)
        #expect(bar() == "││││┃")
        // Partway, the thumb is neither at the top nor at the bottom.
        for _ in 0..<8 { w.key(.up) }
        #expect(t.firstLine > 0 && t.firstLine < 15)
        #expect(bar().first == "│" && bar().last == "│" && bar().contains("┃"))
    }

    @Test func theIndicatorIsHiddenWhenEverythingFitsAndWhenTurnedOff() {
        let few = Numbers([5])
        let (w, t) = table(few, height: 5, indicator: true)
        #expect(!t.showsIndicatorNow && t.rowArea.width == 20)
        #expect(!w.compose().text.contains("│") && !w.compose().text.contains("┃"))
        few.counts = [6]
        t.reloadData()
        #expect(t.showsIndicatorNow && w.compose().text.contains("┃"))
        t.showsVerticalScrollIndicator = false
        #expect(!w.compose().text.contains("┃") && t.rowArea.width == 20)
    }

    @Test func theThumbIsAsLongAsTheShareOnScreenAndTouchesAnEndOnlyThere() {
        #expect(ScrollIndicator.thumb(length: 10, visible: 10, total: 10, offset: 0) == nil)
        #expect(ScrollIndicator.thumb(length: 10, visible: 10, total: 20, offset: 0) == 0..<5)
        #expect(ScrollIndicator.thumb(length: 10, visible: 10, total: 20, offset: 10) == 5..<10)
        // A million lines: still one row of thumb, and one line down leaves the top.
        #expect(ScrollIndicator.thumb(length: 10, visible: 10, total: 1_000_000, offset: 0) == 0..<1)
        #expect(ScrollIndicator.thumb(length: 10, visible: 10, total: 1_000_000, offset: 1) == 1..<2)
        #expect(ScrollIndicator.thumb(length: 10, visible: 10, total: 1_000_000, offset: 999_989) == 8..<9)
        #expect(ScrollIndicator.thumb(length: 10, visible: 10, total: 1_000_000, offset: 999_990) == 9..<10)
    }

    @Test func aTextViewTallerThanItselfWrapsBeforeTheIndicator() {
        let w = Window(size: Size(width: 30, height: 10))
        w.rootViewController = ViewController(id: "Text")
        w.makeKeyAndVisible()
        let text = TextView(frame: Rect(x: 0, y: 0, width: 10, height: 3))
        text.isEditable = false
        w.rootViewController!.view.addSubview(text)
        text.text = "short"
        #expect(text.wrapWidth == 10 && !w.compose().text.contains("│"))
        text.text = (1...6).map { "line \($0)" }.joined(separator: "\n")
        #expect(text.wrapWidth == 9)
        // The cursor is at the end, so the last lines are on screen: the thumb at the bottom.
        #expect(rows(w, 3) == ["line 4   │", "line 5   ┃", "line 6   ┃"])
        text.moveCursor(to: 0)
        #expect(rows(w, 3) == ["line 1   ┃", "line 2   ┃", "line 3   │"])
        text.showsVerticalScrollIndicator = false
        #expect(text.wrapWidth == 10 && !w.compose().text.contains("┃"))
    }

    @Test func aScrollViewDrawsItsIndicatorOverItsContent() {
        let w = Window(size: Size(width: 30, height: 10))
        w.rootViewController = ViewController(id: "Scroll")
        w.makeKeyAndVisible()
        let scroll = ScrollView(frame: Rect(x: 0, y: 0, width: 10, height: 4))
        let content = Label(String(repeating: "x", count: 10))
        content.frame = Rect(x: 0, y: 0, width: 10, height: 1)
        scroll.addSubview(content)
        scroll.contentSize = Size(width: 10, height: 4)
        w.rootViewController!.view.addSubview(scroll)
        #expect(rows(w, 1) == ["xxxxxxxxxx"])
        scroll.contentSize = Size(width: 10, height: 8)
        // Over the label's last cell, as UIKit's indicator is over the content.
        #expect(rows(w, 4) == ["xxxxxxxxx┃", "         ┃", "         │", "         │"])
        scroll.setContentOffset(Point(x: 0, y: 4))
        #expect(rows(w, 4) == ["         │", "         │", "         ┃", "         ┃"])
    }
}
