import TrellisCanvas
import TrellisWire

/// A row's place: its section and its row in that section (UIKit's `IndexPath`).
public struct IndexPath: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var section: Int
    public var row: Int
    public init(row: Int, section: Int) {
        self.section = section
        self.row = row
    }
    public static func < (a: IndexPath, b: IndexPath) -> Bool { (a.section, a.row) < (b.section, b.row) }
    public var description: String { "[\(section), \(row)]" }
}

/// Where a table gets its rows (UIKit's `UITableViewDataSource`).
public protocol TableViewDataSource: AnyObject {
    func numberOfSections(in tableView: TableView) -> Int
    func tableView(_ tableView: TableView, numberOfRowsInSection section: Int) -> Int
    /// A cell for the row, from `dequeueReusableCell(withIdentifier:for:)`.
    func tableView(_ tableView: TableView, cellForRowAt indexPath: IndexPath) -> TableViewCell
    /// A header row above the section, or nil for none.
    func tableView(_ tableView: TableView, titleForHeaderInSection section: Int) -> String?
}

extension TableViewDataSource {
    public func numberOfSections(in tableView: TableView) -> Int { 1 }
    public func tableView(_ tableView: TableView, titleForHeaderInSection section: Int) -> String? { nil }
}

/// What a table tells about selection (UIKit's `UITableViewDelegate`).
public protocol TableViewDelegate: AnyObject {
    func tableView(_ tableView: TableView, didSelectRowAt indexPath: IndexPath)
}

/// A column of a data table (a table with `columns`): its title in the header row and
/// its width in cells — nil shares what the fixed columns leave, equally.
public struct TableColumn: Hashable, Sendable {
    public var title: String
    public var width: Int?
    public init(_ title: String, width: Int? = nil) {
        self.title = title
        self.width = width
    }
}

/// One row of a table: a label, reversed while selected. Subclass it for other content.
/// In a data table, `columnTexts` are drawn one per column, each cut at its column's
/// right edge, and the whole row is reversed while selected.
open class TableViewCell: View {
    public let textLabel = Label()
    public internal(set) var reuseIdentifier: String?
    public var isSelected = false {
        didSet { if isSelected != oldValue { textLabel.attributes = isSelected ? [.reverse] : []; setNeedsDisplay() } }
    }
    /// One text per column of the table (left empty, the cell shows `textLabel`).
    public var columnTexts: [String] = [] {
        didSet { if columnTexts != oldValue { textLabel.isHidden = !columnTexts.isEmpty; setNeedsDisplay() } }
    }
    /// The columns' spans in the cell, set by the table.
    var columnSpans: [Range<Int>] = [] { didSet { if columnSpans != oldValue { setNeedsDisplay() } } }

    public required init(frame: Rect = .zero) {
        super.init(frame: frame)
        addSubview(textLabel)
    }

    /// Called before a cell is handed out again for another row.
    open func prepareForReuse() {
        textLabel.text = ""
        columnTexts = []
        isSelected = false
    }

    open override func draw(in surface: inout Surface) {
        super.draw(in: &surface)
        guard !columnTexts.isEmpty else { return }
        var style = Style(foreground: foregroundColor, background: backgroundColor ?? .default)
        if isSelected {
            style.attributes = [.reverse]
            surface.fill(bounds, with: style)
        }
        TableView.drawColumns(columnTexts, spans: columnSpans, y: bounds.minY, style: style, in: &surface)
    }

    open override func layoutSubviews() {
        super.layoutSubviews()
        textLabel.frame = bounds
    }
}

/// A list in sections, one row a line, from a data source (UIKit's `UITableView`).
///
/// Cells are made on demand and reused: only the rows on screen have one, so a table of
/// a million rows holds as many cells as it shows. Rows are found by section from the
/// sections' sizes, never by walking rows. Selection by click and by keys — ↑ ↓, Page
/// Up/Down, Home/End — keeps the selected row on screen; Enter tells the delegate again.
///
/// With `columns` it is a data table (Textual's `DataTable`): a header row of the
/// columns' titles stays on the first line while the rows scroll beneath it, and cells
/// lay their `columnTexts` out in the columns. While the rows do not all fit, the last
/// column shows a scroll indicator (`ScrollIndicator`) and the rows end before it.
open class TableView: View {
    public weak var dataSource: TableViewDataSource? { didSet { reloadData() } }
    public weak var delegate: TableViewDelegate?

    /// The columns of a data table; empty (the default), no header row and one label a row.
    public var columns: [TableColumn] = [] { didSet { if columns != oldValue { setNeedsLayout(); setNeedsDisplay() } } }
    /// False: no scroll indicator, the rows take the whole width.
    public var showsVerticalScrollIndicator = true { didSet { setNeedsLayout(); setNeedsDisplay() } }

    /// The first line on screen, in lines of the whole table (headers and rows).
    public private(set) var firstLine = 0
    public private(set) var indexPathForSelectedRow: IndexPath?

    /// Per section: the line its header (or first row) is on, and its number of rows.
    private var sections: [(start: Int, header: Bool, rows: Int)] = []
    private var lineCount = 0

    private var registered: [String: TableViewCell.Type] = [:]
    private var reusable: [String: [TableViewCell]] = [:]
    /// The cells on screen, by the line they show.
    private var visible: [Int: TableViewCell] = [:]
    private var headers: [Int: Label] = [:]
    /// How many cells this table ever made: for tests of reuse.
    public private(set) var cellsMade = 0

    public required init(frame: Rect = .zero) {
        super.init(frame: frame)
        clipsToBounds = true
    }

    open override var canBecomeFocused: Bool { true }

    public func register(_ cellClass: TableViewCell.Type, forCellReuseIdentifier identifier: String) {
        registered[identifier] = cellClass
    }

    /// A cell no row on screen uses, or a new one of the registered class.
    public func dequeueReusableCell(withIdentifier identifier: String, for indexPath: IndexPath) -> TableViewCell {
        if let cell = reusable[identifier]?.popLast() {
            cell.prepareForReuse()
            return cell
        }
        precondition(registered[identifier] != nil, "no cell class registered for '\(identifier)'; call register(_:forCellReuseIdentifier:) first")
        let cell = registered[identifier]!.init(frame: .zero)
        cell.reuseIdentifier = identifier
        cellsMade += 1
        return cell
    }

    /// Asks the data source again for everything; the selection stays if its row still exists.
    public func reloadData() {
        sections = []
        var start = 0
        let count = dataSource.map { $0.numberOfSections(in: self) } ?? 0
        for s in 0..<max(0, count) {
            let header = dataSource?.tableView(self, titleForHeaderInSection: s) != nil
            let rows = max(0, dataSource?.tableView(self, numberOfRowsInSection: s) ?? 0)
            sections.append((start, header, rows))
            start += (header ? 1 : 0) + rows
        }
        lineCount = start
        if let selected = indexPathForSelectedRow, line(of: selected) == nil { indexPathForSelectedRow = nil }
        for (_, cell) in visible { recycle(cell) }
        visible = [:]
        for (_, label) in headers { label.removeFromSuperview() }
        headers = [:]
        setNeedsLayout()
        setNeedsDisplay()
    }

    /// Asks the data source again for the cells of `paths` — UIKit's `reloadRows(at:with:)`
    /// for rows whose content changed and whose number did not. Only the rows on screen
    /// have cells to ask again; the others are asked when they are shown, as always. A
    /// path that is not a row is passed over; rows added or removed need `reloadData`.
    public func reloadRows(at paths: [IndexPath]) {
        for path in paths {
            guard let line = line(of: path), let cell = visible.removeValue(forKey: line) else { continue }
            recycle(cell)
        }
        setNeedsLayout()
    }

    public func numberOfRows(inSection section: Int) -> Int { sections.indices.contains(section) ? sections[section].rows : 0 }

    /// The line a row is on, or nil if there is no such row.
    func line(of path: IndexPath) -> Int? {
        guard sections.indices.contains(path.section), (0..<sections[path.section].rows).contains(path.row) else { return nil }
        let s = sections[path.section]
        return s.start + (s.header ? 1 : 0) + path.row
    }

    /// What is on `line`: a section's header (row nil) or a row. Found by binary search
    /// over the sections, so it costs the same at row 10 and at row 999,999.
    func item(atLine line: Int) -> (section: Int, row: Int?)? {
        guard line >= 0, line < lineCount, !sections.isEmpty else { return nil }
        var low = 0, high = sections.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if sections[mid].start <= line { low = mid } else { high = mid - 1 }
        }
        let s = sections[low]
        let offset = line - s.start
        if s.header { return offset == 0 ? (low, nil) : (low, offset - 1) }
        return (low, offset)
    }

    public func selectRow(at path: IndexPath?) {
        guard path != indexPathForSelectedRow else { return }
        if let path, line(of: path) == nil { return }
        indexPathForSelectedRow = path
        if let path { scrollToRow(at: path) }
        for (line, cell) in visible { cell.isSelected = item(atLine: line).flatMap { i in i.row.map { IndexPath(row: $0, section: i.section) } } == path }
        setNeedsLayout()
    }

    /// Scrolls the least that puts the row on screen.
    public func scrollToRow(at path: IndexPath) {
        guard let line = line(of: path) else { return }
        let height = rowArea.height
        if line < firstLine { firstLine = line } else if line >= firstLine + height { firstLine = line - height + 1 }
        setNeedsLayout()
        setNeedsDisplay()
    }

    /// The wheel moves the rows on screen by `ScrollView.wheelStep` a notch, the
    /// selection staying where it is; at the top or the bottom it goes on up the chain.
    open override func scrollWheel(_ input: ScrollInput) -> Bool {
        let before = firstLine
        firstLine = max(0, min(firstLine + Int(input.deltaY) * ScrollView.wheelStep, lineCount - rowArea.height))
        guard firstLine != before else { return false }
        setNeedsLayout()
        setNeedsDisplay()
        return true
    }

    // MARK: Header, columns and indicator

    /// Lines the header row takes: one in a data table.
    private var headerHeight: Int { columns.isEmpty ? 0 : 1 }

    /// Whether the rows overflow and the indicator is drawn.
    public var showsIndicatorNow: Bool {
        showsVerticalScrollIndicator && bounds.width > 1 && lineCount > max(0, bounds.height - headerHeight)
    }

    /// Where the rows are drawn: below the header, left of the indicator.
    var rowArea: Rect {
        let h = headerHeight
        return Rect(x: bounds.minX, y: bounds.minY + h, width: bounds.width - (showsIndicatorNow ? 1 : 0), height: max(0, bounds.height - h))
    }

    /// The columns' spans across `width` cells, one cell apart: fixed widths as given,
    /// the others sharing the rest equally (the last taking what division leaves).
    public static func spans(of columns: [TableColumn], width: Int) -> [Range<Int>] {
        guard !columns.isEmpty else { return [] }
        let gaps = columns.count - 1
        let fixed = columns.compactMap(\.width).reduce(0, +)
        let flexible = columns.filter { $0.width == nil }.count
        let rest = max(0, width - gaps - fixed)
        let share = flexible == 0 ? 0 : rest / flexible
        let lastFlexible = columns.lastIndex { $0.width == nil }
        var x = 0
        return columns.indices.map { i in
            let w = max(0, columns[i].width ?? (i == lastFlexible ? rest - share * (flexible - 1) : share))
            let start = min(width, x)
            x += w + 1
            return start..<min(width, start + w)
        }
    }

    /// `texts` in `spans` on row `y`, each cut at its span's end.
    static func drawColumns(_ texts: [String], spans: [Range<Int>], y: Int, style: Style, in surface: inout Surface) {
        for (text, span) in zip(texts, spans) where !span.isEmpty {
            let clip = surface.clip.intersection(Rect(x: span.lowerBound + surface.origin.x, y: y + surface.origin.y, width: span.count, height: 1))
            surface.withState(origin: surface.origin, clip: clip) { s in
                _ = s.put(text, at: Point(x: span.lowerBound, y: y), style: style)
            }
        }
    }

    open override func draw(in surface: inout Surface) {
        super.draw(in: &surface)
        let area = rowArea
        if !columns.isEmpty, bounds.height > 0 {
            var header = Style(foreground: foregroundColor, background: backgroundColor ?? .default)
            header.attributes = [.bold, .underline]
            surface.fill(Rect(x: bounds.minX, y: bounds.minY, width: area.width, height: 1), with: header)
            let spans = Self.spans(of: columns, width: area.width).map { ($0.lowerBound + bounds.minX)..<($0.upperBound + bounds.minX) }
            Self.drawColumns(columns.map(\.title), spans: spans, y: bounds.minY, style: header, in: &surface)
        }
        if showsIndicatorNow {
            ScrollIndicator.draw(
                in: &surface, x: bounds.maxX - 1, rows: area.minY..<area.maxY, visible: area.height, total: lineCount, offset: firstLine,
                base: Style(foreground: foregroundColor, background: backgroundColor ?? .default))
        }
    }

    // MARK: Cells on screen

    private func recycle(_ cell: TableViewCell) {
        cell.removeFromSuperview()
        reusable[cell.reuseIdentifier ?? "", default: []].append(cell)
    }

    open override func layoutSubviews() {
        super.layoutSubviews()
        let area = rowArea
        let before = firstLine
        firstLine = max(0, min(firstLine, lineCount - area.height))
        if firstLine != before { setNeedsDisplay() }
        let spans = Self.spans(of: columns, width: area.width)
        let shown = firstLine..<min(lineCount, firstLine + max(0, area.height))
        for (line, cell) in visible where !shown.contains(line) {
            recycle(cell)
            visible[line] = nil
        }
        for (line, label) in headers where !shown.contains(line) {
            label.removeFromSuperview()
            headers[line] = nil
        }
        // Line n of the table is drawn at row n - firstLine.
        for line in shown {
            guard let item = item(atLine: line) else { continue }
            let frame = Rect(x: area.minX, y: area.minY + line - firstLine, width: area.width, height: 1)
            guard let row = item.row else {
                let label = headers[line] ?? Label(dataSource?.tableView(self, titleForHeaderInSection: item.section) ?? "")
                label.attributes = [.bold]
                if headers[line] == nil { headers[line] = label; addSubview(label) }
                label.frame = frame
                continue
            }
            let path = IndexPath(row: row, section: item.section)
            let cell: TableViewCell
            if let existing = visible[line] {
                cell = existing
            } else {
                guard let made = dataSource?.tableView(self, cellForRowAt: path) else { continue }
                cell = made
                visible[line] = cell
                addSubview(cell)
            }
            cell.frame = frame
            cell.columnSpans = spans
            cell.isSelected = path == indexPathForSelectedRow
        }
    }

    // MARK: Selection by keys and clicks

    open override func pressesBegan(_ presses: Set<Press>) {
        guard let key = presses.first?.key, key.modifiers.isEmpty, move(for: key.special) else { return super.pressesBegan(presses) }
    }

    private func move(for special: KeyPress.Special) -> Bool {
        let rows = (0..<lineCount)
        let current = indexPathForSelectedRow.flatMap(line(of:))
        let page = max(1, rowArea.height - 1)
        let target: Int?
        switch special {
        case .down: target = nextRow(from: (current ?? -1) + 1, step: 1)
        case .up: target = current.flatMap { nextRow(from: $0 - 1, step: -1) } ?? nextRow(from: 0, step: 1)
        case .pageDown: target = nextRow(from: min(rows.upperBound - 1, (current ?? 0) + page), step: -1)
        case .pageUp: target = nextRow(from: max(0, (current ?? 0) - page), step: 1)
        case .home: target = nextRow(from: 0, step: 1)
        case .end: target = nextRow(from: lineCount - 1, step: -1)
        case .enter:
            guard let selected = indexPathForSelectedRow else { return false }
            delegate?.tableView(self, didSelectRowAt: selected)
            return true
        default: return false
        }
        guard let target, let item = item(atLine: target), let row = item.row else { return false }
        let path = IndexPath(row: row, section: item.section)
        guard path != indexPathForSelectedRow else { return false }
        selectRow(at: path)
        delegate?.tableView(self, didSelectRowAt: path)
        return true
    }

    /// The first line from `line` on, in `step`'s direction, that is a row, not a header.
    private func nextRow(from line: Int, step: Int) -> Int? {
        var l = line
        while l >= 0, l < lineCount {
            if item(atLine: l)?.row != nil { return l }
            l += step
        }
        return nil
    }

    open override func touchesEnded(_ touches: Set<Touch>) {
        guard let t = touches.first else { return super.touchesEnded(touches) }
        let p = t.location(in: self)
        let area = rowArea
        guard area.contains(p), let item = item(atLine: firstLine + p.y - area.minY), let row = item.row else { return }
        let path = IndexPath(row: row, section: item.section)
        selectRow(at: path)
        delegate?.tableView(self, didSelectRowAt: path)
    }

    open override func touchesBegan(_ touches: Set<Touch>) {}
}
