import TrellisCanvas
import TrellisControllers
import TrellisViews
import TrellisWire

/// The demo's sixth tab (issues 22 and 23): keys, text and a list together, in its own
/// process in the demo's scene. A split view (issue 23): on the left a filter field over a
/// data table of characters — the box-drawing set the views draw with and the kana the
/// seeds are written in, a few hundred rows, so the wheel and Page Up/Down matter — and on
/// the right the chosen character. Narrower than 80 columns (compact width) it is one
/// column: Enter on the chosen row (or a second click on it) opens the detail, Esc goes
/// back to the list.
public final class DemoKeys: SplitViewController {
    public let list: DemoKeysList
    public let detail: DemoKeysDetail

    public init(id: ControllerID = "DemoKeys") {
        list = DemoKeysList(id: "KeysList")
        detail = DemoKeysDetail(id: "KeysDetail")
        super.init(primary: list, secondary: detail, id: id)
        title = "Keys"
        primaryColumnWidth = 44
        // Collapsed, focus goes with the column shown, so Esc reaches the detail and the
        // arrows the table again.
        list.chose = { [unowned self] row, opened in
            detail.show(row)
            guard opened, isCollapsed else { return }
            showSecondary(detail)
            _ = detail.text.becomeFirstResponder()
        }
        detail.back = { [unowned self] in
            showPrimary()
            _ = list.table.becomeFirstResponder()
        }
    }

    /// Collapsed, the detail is shown only once it is opened.
    public override func viewDidLoad() {
        super.viewDidLoad()
        if isCollapsed { showPrimary() }
    }
}

/// One row of the table: a character and what Unicode calls it.
public struct CharacterRow: Equatable, Sendable {
    public var scalar: Unicode.Scalar
    public var code: String { "U+" + String(scalar.value, radix: 16, uppercase: true) }
    public var name: String { scalar.properties.name ?? "" }

    /// Box drawing (U+2500 …), hiragana (U+3041 …) and katakana (U+30A1 …).
    public static let all: [CharacterRow] = [0x2500...0x257F, 0x3041...0x3096, 0x30A1...0x30FA]
        .flatMap { $0.compactMap(Unicode.Scalar.init).map(CharacterRow.init) }

    /// Whether the row matches `filter`: found in the code or the name, in any case.
    public func matches(_ filter: String) -> Bool {
        filter.isEmpty || (code + " " + name).contains(filter.uppercased())
    }
}

/// The primary column: the filter field, the table of the rows that match, a count.
public final class DemoKeysList: ViewController, TableViewDataSource, TableViewDelegate {
    public let filter = TextField(placeholder: "type to filter, e.g. heavy or letter ka")
    public let table = TableView()
    public let count = Label()
    public private(set) var rows = CharacterRow.all
    /// A row was chosen; `opened` when it was chosen again (Enter, or a second click).
    var chose: ((CharacterRow, _ opened: Bool) -> Void)?
    private var lastChosen: IndexPath?

    /// ^F puts focus in the filter field, from anywhere in the tab.
    public override var keyCommands: [KeyCommand] {
        [KeyCommand(Key(text: "f", modifiers: .control), title: "Filter") { [unowned self] in _ = filter.becomeFirstResponder() }]
    }

    public override func viewDidLoad() {
        super.viewDidLoad()
        filter.identifier = "filter"
        filter.addAction(for: .editingChanged) { [unowned self] _ in applyFilter() }
        table.identifier = "characters"
        table.columns = [TableColumn("Code", width: 6), TableColumn("Ch", width: 2), TableColumn("Name")]
        table.register(TableViewCell.self, forCellReuseIdentifier: "character")
        table.dataSource = self
        table.delegate = self
        count.identifier = "count"
        for v in [filter, table, count] as [View] { view.addSubview(v) }
        // Tab goes from the field to the table before the detail beside them.
        view.focusOrder = [filter, table]
        applyFilter()
    }

    public override func viewDidLayoutSubviews() {
        super.viewDidLayoutSubviews()
        let b = view.bounds
        filter.frame = Rect(x: 1, y: 0, width: max(0, b.width - 2), height: 1)
        table.frame = Rect(x: 0, y: 1, width: b.width, height: max(0, b.height - 2))
        count.frame = Rect(x: 1, y: b.height - 1, width: max(0, b.width - 2), height: 1)
    }

    /// The placeholder says "type to filter": arriving on the tab, typing goes there
    /// unless something else in the window already has focus.
    public override func viewDidAppear(_ animated: Bool) {
        super.viewDidAppear(animated)
        if window?.focusedView == nil { _ = filter.becomeFirstResponder() }
    }

    private func applyFilter() {
        rows = CharacterRow.all.filter { $0.matches(filter.text) }
        lastChosen = nil
        table.reloadData()
        count.text = rows.count == CharacterRow.all.count ? "\(rows.count) characters" : "\(rows.count) of \(CharacterRow.all.count) match"
    }

    public func tableView(_ tableView: TableView, numberOfRowsInSection section: Int) -> Int { rows.count }

    public func tableView(_ tableView: TableView, cellForRowAt indexPath: IndexPath) -> TableViewCell {
        let cell = tableView.dequeueReusableCell(withIdentifier: "character", for: indexPath)
        let row = rows[indexPath.row]
        cell.columnTexts = [row.code, String(Character(row.scalar)), row.name]
        return cell
    }

    public func tableView(_ tableView: TableView, didSelectRowAt indexPath: IndexPath) {
        guard rows.indices.contains(indexPath.row) else { return }
        // The table tells again for Enter on the selected row and a click on it.
        let opened = indexPath == lastChosen
        lastChosen = indexPath
        chose?(rows[indexPath.row], opened)
    }
}

/// The secondary column: the chosen character, large enough to see, and its facts.
public final class DemoKeysDetail: ViewController {
    public let text = TextView()
    var back: (() -> Void)?

    /// Esc goes back to the list when the split is one column.
    public override var keyCommands: [KeyCommand] {
        guard let split = parent as? SplitViewController, split.isCollapsed else { return [] }
        return [KeyCommand(Key(.escape), title: "Back") { [unowned self] in back?() }]
    }

    public override func viewDidLoad() {
        super.viewDidLoad()
        text.identifier = "detail"
        text.isEditable = false
        text.text = "Choose a character: ↑ ↓, Page Up/Down, the wheel or a click. Type in the field above the table to filter."
        view.addSubview(text)
    }

    public override func viewDidLayoutSubviews() {
        super.viewDidLayoutSubviews()
        text.frame = view.bounds.inset(by: EdgeInsets(top: 0, left: 1, bottom: 0, right: 0))
    }

    public func show(_ row: CharacterRow) {
        let width = CharacterWidth.columns(of: String(row.scalar))
        let utf8 = String(row.scalar).utf8.map { String($0, radix: 16, uppercase: true) }.joined(separator: " ")
        text.text = """
            \(row.code)  \(Character(row.scalar))
            \(row.name)
            category: \(row.scalar.properties.generalCategory)
            width: \(width) cell\(width == 1 ? "" : "s")
            UTF-8: \(utf8)
            """
        text.moveCursor(to: 0)
    }
}
