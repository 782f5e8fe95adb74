import TrellisCanvas
import TrellisControllers
import TrellisViews
import TrellisWire

/// Focus and typing across the placements (issue 22): a container with a text field of
/// its own above a child with two, `ParityForm`, asked of the registry — where placement
/// is decided. Every field logs its focus and its text as callback lines, so the merged
/// log says where focus was and what was typed where, in whatever process.
public final class ParityFocusContainer: ViewController {
    public let registry: ControllerRegistry
    public private(set) var child: ViewController?

    public init(registry: ControllerRegistry, id: ControllerID = "Container") {
        self.registry = registry
        super.init(id: id)
    }

    /// F1 "Help" here, and F2 "Reset", which the child's F2 overrides while focus is there.
    public override var keyCommands: [KeyCommand] {
        [KeyCommand(Key(.f1), title: "Help") {}, KeyCommand(Key(.f2), title: "Reset") {}]
    }

    public override func viewDidLoad() {
        super.viewDidLoad()
        view.addSubview(ParityFocus.field("a", of: self, frame: Rect(x: 1, y: 0, width: 16, height: 1)))
    }

    public override func viewWillAppear(_ animated: Bool) {
        super.viewWillAppear(animated)
        guard child == nil, let c = registry.make("ParityForm", id: "Child") else { return }
        child = c
        addChild(c)
        view.addSubview(c.view)
        c.view.frame = Rect(x: 1, y: 2, width: 30, height: 4)
        c.didMove(toParent: self)
    }
}

/// Two text fields, `b` above `c`, and a key command of its own, F2 "Clear".
public final class ParityForm: ViewController {
    public override var keyCommands: [KeyCommand] {
        [KeyCommand(Key(.f2), title: "Clear") { [unowned self] in logCallback("clear") }]
    }

    public override func viewDidLoad() {
        super.viewDidLoad()
        view.addSubview(ParityFocus.field("b", of: self, frame: Rect(x: 1, y: 0, width: 16, height: 1)))
        view.addSubview(ParityFocus.field("c", of: self, frame: Rect(x: 1, y: 2, width: 16, height: 1)))
    }
}

enum ParityFocus {
    /// A field that logs "ID.NAME focused", "ID.NAME resigned" and "ID.NAME = TEXT".
    static func field(_ name: String, of controller: ViewController, frame: Rect) -> TextField {
        let f = field(name, frame: frame)
        log(f, name, of: controller)
        return f
    }

    /// A field named `name`, whose logging `log` adds once its controller exists.
    static func field(_ name: String, frame: Rect) -> TextField {
        let f = TextField(placeholder: name, frame: frame)
        f.identifier = name
        return f
    }

    static func log(_ f: TextField, _ name: String, of controller: ViewController) {
        f.addAction(for: .editingDidBegin) { [unowned controller] _ in controller.logCallback("\(name) focused") }
        f.addAction(for: .editingDidEnd) { [unowned controller] _ in controller.logCallback("\(name) resigned") }
        f.addAction(for: .editingChanged) { [unowned controller] c in controller.logCallback("\(name) = \((c as! TextField).text)") }
    }
}

/// A list of 100 rows filling its view, for the wheel across the placements (issue 22):
/// every wheel turn it takes is logged with the line now at the top.
public final class ParityList: ViewController, TableViewDataSource {
    final class Table: TableView {
        weak var controller: ViewController?
        override func scrollWheel(_ input: ScrollInput) -> Bool {
            let scrolled = super.scrollWheel(input)
            if scrolled { controller?.logCallback("top line \(firstLine)") }
            return scrolled
        }
    }

    public override func viewDidLoad() {
        super.viewDidLoad()
        let table = Table()
        table.controller = self
        table.register(TableViewCell.self, forCellReuseIdentifier: "row")
        table.dataSource = self
        view.addSubview(table)
        table.pinEdges(to: view)
    }

    public func tableView(_ tableView: TableView, numberOfRowsInSection section: Int) -> Int { 100 }

    public func tableView(_ tableView: TableView, cellForRowAt indexPath: IndexPath) -> TableViewCell {
        let cell = tableView.dequeueReusableCell(withIdentifier: "row", for: indexPath)
        cell.textLabel.text = "row \(indexPath.row)"
        return cell
    }
}
